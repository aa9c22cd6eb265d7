/**
 * One hardened realm serves many episodes of a bundle on a worker: every episode still gets a
 * fresh policy instance and module state (or a module that cannot change: sealed), a freshly
 * seeded Math.random and its own log, and nothing an episode does to globals, built-ins or
 * RegExp statics reaches the next one.
 */
import { strict as assert } from 'node:assert';
import type { EpisodeRecord } from '../../../src/protocol/episodes';
import { SandboxPool } from '../../../src/sandbox';
import { planModule } from '../../../src/sandbox/worker/modulePlan';
import { bundleOf, episodes, strip, usePool } from './helpers';

/** Logs what it can see of earlier episodes, then leaves traces of its own in every place it can write. */
const SNOOP = `let moduleRuns = 0;
moduleRuns++;
class Counter { static made = 0; }
export class Policy {
  constructor(ctx: any) {
    Counter.made++;
    const g = globalThis as any;
    const sees = {
      moduleRuns, made: Counter.made, leak: typeof g.leaked, symbol: typeof g[Symbol.for('pf.leak')], regexp: (RegExp as any).$1,
      random: Math.random(), pf: typeof g.__pf, keys: Object.getOwnPropertyNames(g).filter((k) => /leak|pf/.test(k)),
      push: [].push.call([], 1),
    };
    console.log(JSON.stringify(sees));
    g.leaked = ctx.seed;
    g[Symbol.for('pf.leak')] = ctx.seed;
    /(seed\\d+)/.exec('seed' + ctx.seed);
    let caught = 'none';
    try { (Array.prototype as any).push = () => -1; } catch (e) { caught = 'frozen'; }
    console.log('write to Array.prototype.push: ' + caught);
    // Built-ins no global names, and the ones the prelude installed: every write fails.
    const P = Object.getPrototypeOf;
    const writes: (() => void)[] = [
      () => { (Object.prototype as any).planted = 1; },
      () => { P([][Symbol.iterator]()).next = () => ({ done: true }); },
      () => { P(P([][Symbol.iterator]())).planted = 1; },
      () => { P(function* () {}).planted = 1; },
      () => { P(async function () {}).planted = 1; },
      () => { (P(Float64Array.prototype) as any).planted = 1; },
      () => { (Array.prototype as any)[Symbol.unscopables].planted = 1; },
      () => { (Error as any).prepareStackTrace = () => 'x'; },
      () => { (console as any).log = () => 0; },
      () => { (Math as any).random = () => 0.5; },
      () => { (globalThis as any).Math = {}; },
      () => { Object.defineProperty(globalThis, 'Array', { value: 1 }); },
    ];
    let succeeded = 0;
    for (const w of writes) { try { w(); succeeded++; } catch { /* frozen */ } }
    console.log('writes that succeeded: ' + succeeded);
  }
  act(o: Float64Array): number { return o[2]! + 0.5 * o[3]! > 0 ? 1 : 0; }
}
`;

describe('sandbox: a realm reused across the episodes of a bundle', function () {
  this.timeout(60_000);
  const single = usePool({ workers: 1 });

  const seen = (r: EpisodeRecord | undefined): Record<string, unknown> => JSON.parse(r?.log.text.split('\n')[0] ?? '{}') as Record<string, unknown>;

  it('gives every episode fresh module state, globals, RegExp statics and log', async () => {
    const bundle = await bundleOf(SNOOP);
    const records = await single().runBatch({ bundle, envId: 'CartPole-v1', params: {}, episodes: episodes(4), limits: { maxTrajectorySteps: 0 } });
    assert.deepEqual(records.map((r) => r.status), ['ok', 'ok', 'ok', 'ok']);
    for (const r of records) {
      const s = seen(r);
      assert.deepEqual({ ...s, random: 0 }, { moduleRuns: 1, made: 1, leak: 'undefined', symbol: 'undefined', regexp: '', random: 0, pf: 'undefined', keys: [], push: 1 });
      // Built-ins are frozen: the write throws (policy modules are strict) and changes nothing.
      assert.equal(r.log.text.split('\n')[1], 'write to Array.prototype.push: frozen');
      assert.equal(r.log.text.split('\n')[2], 'writes that succeeded: 0');
    }
    // Math.random is seeded per episode: the same policy seed gives the same stream, at any point of the realm's life.
    const again = await single().runBatch({ bundle, envId: 'CartPole-v1', params: {}, episodes: [...episodes(4)].reverse(), limits: { maxTrajectorySteps: 0 } });
    assert.deepEqual(again.map(strip), [...records].reverse().map(strip));
    assert.equal(new Set(records.map((r) => seen(r).random)).size, 4);
  });

  it('a policy that patches built-ins runs in a fresh realm of its own, and the next episodes are unaffected', async () => {
    const patcher = await bundleOf(`(Math as any).cos = () => 42;
export class Policy {
  act(o: Float64Array): number { console.log('cos ' + Math.cos(0)); return o[2]! + 0.5 * o[3]! > 0 ? 1 : 0; }
}
`);
    const clean = await bundleOf(`export class Policy {
  act(o: Float64Array): number { console.log('cos ' + Math.cos(0)); return o[2]! + 0.5 * o[3]! > 0 ? 1 : 0; }
}
`);
    const request = { envId: 'CartPole-v1', params: {}, episodes: episodes(2), limits: { maxTrajectorySteps: 0, maxLogBytes: 6 } };
    const patched = await single().runBatch({ ...request, bundle: patcher });
    assert.deepEqual(patched.map((r) => [r.status, r.log.text]), [['ok', 'cos 42'], ['ok', 'cos 42']]);
    const after = await single().runBatch({ ...request, bundle: clean });
    assert.deepEqual(after.map((r) => [r.status, r.log.text]), [['ok', 'cos 1\n'], ['ok', 'cos 1\n']]);
  });

  it('a module of constants, functions and classes runs once per realm, sealed, and its episodes stay independent', async () => {
    const bundle = await bundleOf(`const GAINS = [0, 0, 1, 0.5];
const LIMITS = { x: 2.4 };
function score(o: Float64Array): number { let s = 0; for (let i = 0; i < 4; i++) s += GAINS[i]! * o[i]!; return s; }
// Aliases: writes through them are invisible to the check that decides whether the module is shared.
function alias(v: unknown): any { return v; }
export class Policy {
  private seen: number[] = [];
  constructor(ctx: any) {
    const writes: string[] = [];
    for (const [name, w] of [['array', () => { alias(GAINS)[0] = ctx.seed; }], ['object', () => { alias(LIMITS).x = ctx.seed; }], ['class', () => { alias(Policy).planted = ctx.seed; }]] as const) {
      try { w(); writes.push(name + ' written'); } catch { writes.push(name + ' frozen'); }
    }
    console.log(JSON.stringify({ frozen: Object.isFrozen(GAINS) && Object.isFrozen(LIMITS) && Object.isFrozen(Policy), g0: GAINS[0], x: LIMITS.x, planted: (Policy as any).planted, writes }));
  }
  act(o: Float64Array): number { this.seen.push(o[0]!); return score(o) > 0 ? 1 : 0; }
}
`);
    assert.equal(planModule(bundle.code).reuse, true);
    const records = await single().runBatch({ bundle, envId: 'CartPole-v1', params: {}, episodes: episodes(4), limits: { maxTrajectorySteps: 0 } });
    assert.deepEqual(records.map((r) => r.status), ['ok', 'ok', 'ok', 'ok']);
    // Writes through an alias fail on the sealed values; a policy that catches that goes on with
    // the values unchanged (like a write to a built-in), and no episode sees another's writes.
    for (const r of records) assert.deepEqual(seen(r), { frozen: true, g0: 0, x: 2.4, writes: ['array frozen', 'object frozen', 'class frozen'] });
    // Uncaught, the error ends the sealed run and the episode runs again in a realm of its own,
    // where the module is its own and the write goes through: the outcome of a module per episode.
    const writer = await bundleOf(`const GAINS = [0, 0, 1, 0.5];
function alias(v: unknown): any { return v; }
export class Policy {
  constructor(ctx: any) { alias(GAINS)[0] = ctx.seed; console.log('g0 ' + GAINS[0]); }
  act(o: Float64Array): number { let s = 0; for (let i = 1; i < 4; i++) s += GAINS[i]! * o[i]!; return s > 0 ? 1 : 0; }
}
`);
    assert.equal(planModule(writer.code).reuse, true);
    const written = await single().runBatch({ bundle: writer, envId: 'CartPole-v1', params: {}, episodes: episodes(3), limits: { maxTrajectorySteps: 0 } });
    assert.deepEqual(written.map((r) => [r.status, r.log.text]), [['ok', 'g0 7\n'], ['ok', 'g0 8\n'], ['ok', 'g0 9\n']]);
    const quiet = await bundleOf(`const GAINS = [0, 0, 1, 0.5];
export class Policy {
  constructor() { console.log(JSON.stringify({ frozen: Object.isFrozen(GAINS), g0: GAINS[0] })); }
  act(o: Float64Array): number { let s = 0; for (let i = 0; i < 4; i++) s += GAINS[i]! * o[i]!; return s > 0 ? 1 : 0; }
}
`);
    assert.equal(planModule(quiet.code).reuse, true);
    const shared = await single().runBatch({ bundle: quiet, envId: 'CartPole-v1', params: {}, episodes: episodes(4), limits: { maxTrajectorySteps: 0 } });
    assert.deepEqual(shared.map((r) => [r.status, seen(r)]), shared.map(() => ['ok', { frozen: true, g0: 0 }]));
    // The same records in any order and on a fresh pool: sharing the module changes no outcome.
    const fresh = new SandboxPool({ workers: 2 });
    try {
      const reversed = await fresh.runBatch({ bundle: quiet, envId: 'CartPole-v1', params: {}, episodes: [...episodes(4)].reverse(), limits: { maxTrajectorySteps: 0 } });
      assert.deepEqual(reversed.map(strip), [...shared].reverse().map(strip));
    } finally {
      await fresh.close();
    }
  });

  it("promise callbacks a policy queues never run, not even in a realm's first episode", async () => {
    // Setting up a realm for a bundle happens around its first episode; evaluating a script in
    // the realm then would drain the callbacks its constructor queued, in that episode only.
    for (const module of ['', 'let state = 0;\nstate++;\n']) {
      const bundle = await bundleOf(`${module}export class Policy {
  constructor() { void Promise.resolve().then(() => console.log('callback ran')); }
  act(o: Float64Array): number { return o[2]! + 0.5 * o[3]! > 0 ? 1 : 0; }
}`);
      const records = await single().runBatch({ bundle, envId: 'CartPole-v1', params: {}, episodes: episodes(3), limits: { maxTrajectorySteps: 0 } });
      assert.deepEqual(records.map((r) => [r.status, r.log.text]), records.map(() => ['ok', '']), module ? 'module per episode' : 'shared module');
    }
  });

  it('an episode that throws leaves nothing behind for the next ones', async () => {
    const bundle = await bundleOf(`export class Policy {
  constructor(ctx: any) {
    const g = globalThis as any;
    console.log('sees ' + typeof g.leftBehind);
    g.leftBehind = ctx.seed;
    if (ctx.seed === 7) throw new Error('first episode fails');
  }
  act(o: Float64Array): number { return o[2]! + 0.5 * o[3]! > 0 ? 1 : 0; }
}
`);
    const records = await single().runBatch({ bundle, envId: 'CartPole-v1', params: {}, episodes: episodes(3), limits: { maxTrajectorySteps: 0 } });
    assert.deepEqual(records.map((r) => [r.status, r.log.text]), [['exception', 'sees undefined\n'], ['ok', 'sees undefined\n'], ['ok', 'sees undefined\n']]);
    assert.match(records[0]?.error?.message ?? '', /new Policy\(ctx\) threw: Error: first episode fails/);
  });
});
