/**
 * Hostile policies against real worker processes: each must end in a clean policy failure (or
 * a harmless `ok`) while the host process, the pool and other episodes stay intact.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRegistry } from '../../../src/envs';
import { starterFiles } from '../../../src/envs/core/starterFiles';
import type { EpisodeRecord } from '../../../src/protocol/episodes';
import { buildBundle, SandboxPool, type EpisodeLimits } from '../../../src/sandbox';
import { bundleOf, ensureWorkerBuilt, episodes, GOOD_CARTPOLE, removeWorkspaces, strip, workspace } from './helpers';

const FAST: Partial<EpisodeLimits> = { actTimeoutMs: 300, episodeTimeoutMs: 3000, maxTrajectorySteps: 5 };

describe('sandbox: hostile policies', function () {
  this.timeout(60_000);
  let pool: SandboxPool;
  let baseline: EpisodeRecord[];
  const sentinel = path.join(os.tmpdir(), `pf-sandbox-escape-${process.pid}`);

  const run = async (policy: string, n = 2, limits: Partial<EpisodeLimits> = FAST, envId = 'CartPole-v1'): Promise<EpisodeRecord[]> =>
    pool.runBatch({ bundle: await bundleOf(policy), envId, params: {}, episodes: episodes(n), limits });

  const good = async (): Promise<EpisodeRecord[]> => run(GOOD_CARTPOLE, 3, { maxTrajectorySteps: 5 });

  before(async () => {
    ensureWorkerBuilt();
    pool = new SandboxPool({ workers: 2, heapMb: 96, rssLimitMb: 400 });
    baseline = await good();
    assert.deepEqual(baseline.map((r) => r.status), ['ok', 'ok', 'ok']);
  });
  after(async () => {
    await pool.close();
    removeWorkspaces();
    // Nothing a policy did may have reached the host file system.
    assert.equal(existsSync(sentinel), false);
  });
  afterEach(async () => {
    // The pool keeps serving, with the same results as before the hostile batch.
    const again = await good();
    assert.deepEqual(again.map(strip), baseline.map(strip));
  });

  const expectException = (records: EpisodeRecord[], pattern: RegExp): void => {
    for (const r of records) {
      assert.equal(r.status, 'exception', JSON.stringify(r.error));
      assert.match(r.error?.message ?? '', pattern);
    }
  };

  it('cannot import fs: the build names the file and line', async () => {
    const root = workspace({ 'policy/policy.ts': `import * as fs from 'fs';\nexport class Policy { act() { fs.writeFileSync('${sentinel}', 'x'); return 0; } }\n` });
    const r = await buildBundle(root, { typeCheck: false });
    assert.equal(r.ok, false);
    assert.equal(r.diagnostics[0]?.file, 'policy/policy.ts');
    assert.equal(r.diagnostics[0]?.line, 1);
    assert.equal(r.diagnostics[0]?.kind, 'resolve');
    assert.match(r.diagnostics[0]?.message ?? '', /"fs" is not allowed/);
  });

  it('has no require, process or timers at run time', async () => {
    const g = `(globalThis as any)`;
    expectException(await run(`export class Policy { act() { ${g}['req' + 'uire']('fs'); return 0; } }`), /is not a function/);
    expectException(await run(`export class Policy { act() { (process as any).exit(1); return 0; } }`), /process is not defined/);
    expectException(await run(`export class Policy { act() { ${g}.setTimeout(() => 0, 1); return 0; } }`), /is not a function/);
  });

  it('cannot reach process through obs.constructor.constructor', async () => {
    expectException(await run(`export class Policy { act(o: any) { o.constructor.constructor('return process')().exit(3); return 0; } }`), /Code generation from strings disallowed/);
  });

  it("cannot reach process through an error's prototype chain", async () => {
    expectException(
      await run(`export class Policy { act() { try { (null as any).x; } catch (e: any) { Object.getPrototypeOf(Object.getPrototypeOf(e)).constructor.constructor('return process')().exit(3); } return 0; } }`),
      /Code generation from strings disallowed/,
    );
  });

  it('cannot reach process through this or globalThis', async () => {
    expectException(await run(`export class Policy { act() { (this as any).constructor.constructor('return process')().exit(3); return 0; } }`), /Code generation from strings disallowed/);
    expectException(await run(`export class Policy { act() { (globalThis as any).constructor.constructor('return process')().exit(3); return 0; } }`), /Code generation from strings disallowed/);
    expectException(await run(`function f(this: any) { return this; }\nexport class Policy { act() { f.call(undefined).constructor.constructor('return process')(); return 0; } }`), /Code generation from strings disallowed|Cannot read properties of undefined/);
  });

  it('cannot use eval or new Function', async () => {
    expectException(await run(`export class Policy { act() { return (0, eval)('1'); } }`), /Code generation from strings disallowed/);
    expectException(await run(`export class Policy { act() { return new Function('return 1')(); } }`), /Code generation from strings disallowed/);
  });

  it('cannot get host functions from structured stack traces (CallSite.getFunction/getThis)', async () => {
    const records = await run(`export class Policy {
  act() {
    const E = Error as any;
    E.prepareStackTrace = (_e: unknown, sites: any[]) => sites;
    const sites: any[] = (new Error() as any).stack;
    let found = 0;
    for (const s of Array.isArray(sites) ? sites : []) {
      for (const f of [s.getFunction?.(), s.getThis?.()]) {
        if (f && f.constructor && f.constructor.constructor !== Function) {
          found++;
          f.constructor.constructor('return process')().exit(3);
        }
      }
    }
    console.log('host objects found: ' + found);
    return 0;
  }
}`);
    for (const r of records) {
      // Either no host object is reachable, or its Function cannot compile strings.
      if (r.status === 'ok') assert.match(r.log.text, /host objects found: 0/);
      else assert.match(r.error?.message ?? '', /Code generation from strings disallowed/);
    }
  });

  it('a stack overflow inside a traced console.log never hands the policy a host error', async () => {
    // A lone episode is traced: console.log calls the host's log sink (see worker/trace.ts).
    const records = await run(`export class Policy {
  act() {
    let host = 0;
    let caught = 0;
    const probe = (d: number): void => {
      try { probe(d + 1); } catch {
        try { console.log('deep'); } catch (e) { caught++; if (Object.getPrototypeOf(e) !== RangeError.prototype) host++; }
      }
    };
    probe(0);
    console.log('host errors ' + host + ', caught ' + (caught >= 0));
    return 0;
  }
}`, 1);
    assert.equal(records[0]?.status, 'ok', records[0]?.error?.message);
    assert.match(records[0]?.log.text ?? '', /host errors 0, caught true\n$/);
  });

  it('an infinite loop in act times out (act deadline) and the other episodes run', async () => {
    const records = await run(`export class Policy { seed: number; constructor(ctx: any) { this.seed = ctx.seed; } act(o: Float64Array) { if (this.seed === 8) for (;;) {} return o[2]! + 0.5 * o[3]! > 0 ? 1 : 0; } }`, 3);
    assert.deepEqual(records.map((r) => r.status), ['ok', 'timeout', 'ok']);
    assert.equal(records[1]?.error?.deadline, 'act');
    assert.equal(records[1]?.caseIndex, 1);
  });

  it('a hang inside a chunk of episodes is charged to its own episode; the others keep their records', async () => {
    // 16 episodes on 2 workers travel in chunks of several, which report only now and then; the
    // killed worker's unreported episodes are run again, one at a time, to find the one that hung.
    const hangs = `export class Policy { seed: number; constructor(ctx: any) { this.seed = ctx.seed; } act(o: Float64Array) { if (this.seed === 16) for (;;) {} return o[2]! + 0.5 * o[3]! > 0 ? 1 : 0; } }`;
    const clean = hangs.replace('if (this.seed === 16) for (;;) {} ', '');
    const records = await run(hangs, 16);
    const expected = await run(clean, 16);
    assert.deepEqual(records.map((r) => r.caseIndex), expected.map((r) => r.caseIndex));
    records.forEach((r, i) => {
      if (i === 9) {
        assert.equal(r.status, 'timeout');
        assert.equal(r.error?.deadline, 'act');
        assert.match(r.error?.message ?? '', /act\(\) at step 1 did not finish within 300 ms/);
      } else {
        assert.deepEqual(strip(r), strip(expected[i] as EpisodeRecord), `episode ${i}`);
      }
    });
  });

  it('a constructor that exhausts the heap inside a chunk is a memory failure of its own episode', async () => {
    const policy = `const keep: unknown[] = [];\nexport class Policy { constructor(ctx: any) { if (ctx.seed === 11) for (;;) keep.push(new Array(100000).fill({ a: 1 })); } act(o: Float64Array) { return o[2]! > 0 ? 1 : 0; } }`;
    const records = await run(policy, 12, { ...FAST, actTimeoutMs: 20_000, episodeTimeoutMs: 30_000 });
    assert.deepEqual(records.map((r) => r.status), records.map((_, i) => (i === 4 ? 'memory' : 'ok')));
  });

  // Atomics.wait sleeps in real time: the policy's clocks are virtual (see clock.test.ts).
  const SLEEP = (ms: number): string => `Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms});`;

  it('an act slower than the act deadline fails even when it returns', async () => {
    const records = await run(`export class Policy { act() { ${SLEEP(400)} return 0; } }`, 1);
    assert.equal(records[0]?.status, 'timeout');
    assert.equal(records[0]?.error?.deadline, 'act');
  });

  it('an infinite loop in the constructor times out (constructor deadline)', async () => {
    const records = await run(`export class Policy { constructor() { for (;;) {} } act() { return 0; } }`, 2);
    assert.deepEqual(records.map((r) => [r.status, r.error?.deadline]), [['timeout', 'constructor'], ['timeout', 'constructor']]);
  });

  it('a long episode of fast steps hits the episode deadline', async () => {
    const records = await run(`export class Policy { act() { ${SLEEP(30)} return 0; } }`, 1, { actTimeoutMs: 1000, episodeTimeoutMs: 200 }, 'MountainCar-v0');
    assert.equal(records[0]?.status, 'timeout');
    assert.equal(records[0]?.error?.deadline, 'episode');
  });

  it('allocating until the heap is exhausted is a memory failure', async () => {
    const records = await run(`const keep: unknown[] = [];\nexport class Policy { act() { for (;;) keep.push(new Array(100000).fill({ a: 1 })); } }`, 2, { ...FAST, actTimeoutMs: 20_000, episodeTimeoutMs: 30_000 });
    assert.deepEqual(records.map((r) => r.status), ['memory', 'memory']);
  });

  it('allocating typed arrays (outside the V8 heap) is a memory failure', async () => {
    const records = await run(`const keep: unknown[] = [];\nexport class Policy { act() { for (;;) keep.push(new Float64Array(8_000_000).fill(1)); } }`, 1, { ...FAST, actTimeoutMs: 20_000, episodeTimeoutMs: 30_000 });
    assert.equal(records[0]?.status, 'memory');
  });

  it('process.exit and process.abort are not there', async () => {
    expectException(await run(`export class Policy { act() { (globalThis as any).process.exit(0); return 0; } }`), /Cannot read properties of undefined/);
  });

  it('throwing non-Error values is an exception with a readable message', async () => {
    const cases: [string, RegExp][] = [
      [`throw 'boom';`, /non-Error value: "boom"/],
      [`throw 42;`, /non-Error value: 42/],
      [`throw null;`, /non-Error value: null/],
      [`throw { toString() { throw new Error('nested'); } };`, /non-Error value: an object/],
      [`throw new Proxy({}, { get() { throw new Error('trap'); } });`, /non-Error value: an object/],
      [`throw Symbol('s');`, /non-Error value: a symbol/],
    ];
    for (const [stmt, pattern] of cases) expectException(await run(`export class Policy { act(): number { ${stmt} } }`, 1), pattern);
  });

  it('NaN, out-of-range and ill-typed actions are invalid (no clipping)', async () => {
    for (const a of ['NaN', '2', '-1', '0.5', "'1'", '[1]', 'undefined', 'Promise.resolve(1)']) {
      const [r] = await run(`export class Policy { act(): any { return ${a}; } }`, 1);
      assert.equal(r?.status, 'invalid_action', a);
      assert.match(r?.error?.message ?? '', /not in the action space Discrete\(2\)/);
      assert.equal(r?.length, 0);
    }
    for (const a of ['[NaN]', '[2.5]', '[-3]', '[0, 0]', "['1']", '1', 'new Float64Array(0)']) {
      const [r] = await run(`export class Policy { act(): any { return ${a}; } }`, 1, FAST, 'Pendulum-v1');
      assert.equal(r?.status, 'invalid_action', a);
      assert.match(r?.error?.message ?? '', /not in the action space Box\(-2, 2, \(1,\), float32\)/);
    }
  });

  it('mutating the observation or built-in prototypes does not tamper with the environment', async () => {
    const tamper = `
Object.defineProperty(Object.prototype, 'reward', { get() { return 1e9; }, set() {}, configurable: true });
(Array.prototype as any).push = () => 0;
(Float64Array.prototype as any).set = () => { throw new Error('tampered set'); };
(Math as any).cos = () => 0; (Math as any).sin = () => 0;
(JSON as any).stringify = () => '"tampered"';
export class Policy {
  act(o: Float64Array): number {
    const a = o[2]! + 0.5 * o[3]! + 0.01 * o[0]! + 0.1 * o[1]! > 0 ? 1 : 0;
    o[0] = 1e9; o[2] = NaN; o.fill(7);
    return a;
  }
}
`;
    const records = await run(tamper, 3, { maxTrajectorySteps: 5 });
    assert.deepEqual(records.map(strip), baseline.map(strip));
  });

  it('unbounded recursion is an exception, and a blocking Atomics.wait is killed at the act deadline', async () => {
    expectException(await run(`export class Policy { act(): number { return this.act(); } }`, 1), /Maximum call stack size exceeded/);
    const [r] = await run(`export class Policy { act() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); return 0; } }`, 1);
    assert.deepEqual([r?.status, r?.error?.deadline], ['timeout', 'act']);
  });

  it('MiniGrid: scribbling on the observation and tampering with Uint8Array/Object do not change the episode', async () => {
    const registry = createRegistry();
    const id = registry.list().find((d) => d.family.startsWith('minigrid'))?.id;
    if (!id) return; // no MiniGrid family registered in this build
    const made = registry.make(id);
    const files = starterFiles(made.definition, made.params, made.env);
    const clean = await buildBundle(workspace(files), { typeCheck: false });
    const starter = files['policy/policy.ts'] ?? '';
    // Act as the starter does, then wreck the observation and the realm's built-ins.
    const hostileSource = `${starter.replace(/export class Policy\b/, 'class Starter')}
export class Policy extends Starter {
  act(observation: any, info: any): any {
    const action = super.act(observation, info);
    console.log('tampered at ' + observation.direction);
    observation.image.fill(255); observation.direction = 9; observation.mission = 'tampered';
    (Uint8Array.prototype as any).set = () => { throw new Error('tampered'); };
    Object.defineProperty(Object.prototype, 'image', { get() { return new Uint8Array(147); }, set() {}, configurable: true });
    return action;
  }
}
`;
    const hostile = await buildBundle(workspace({ ...files, 'policy/policy.ts': hostileSource }), { typeCheck: false });
    assert.ok(clean.ok && hostile.ok, JSON.stringify(hostile.diagnostics));
    const req = { envId: id, params: {}, episodes: episodes(2), limits: { maxTrajectorySteps: 5 } };
    const a = await pool.runBatch({ ...req, bundle: clean.bundle });
    const b = await pool.runBatch({ ...req, bundle: hostile.bundle });
    assert.deepEqual(a.map((r) => r.status), ['ok', 'ok']);
    const noLog = (r: EpisodeRecord) => ({ ...strip(r), log: null });
    assert.deepEqual(b.map(noLog), a.map(noLog));
    assert.match(b[0]?.log.text ?? '', /tampered at [0-3]\n/);
  });

  it('a promise chain left behind never runs in the host or a later episode', async () => {
    const records = await run(`export class Policy { act(o: Float64Array) { const spin = (): Promise<void> => Promise.resolve().then(spin); void spin(); return o[2]! + 0.5 * o[3]! + 0.01 * o[0]! + 0.1 * o[1]! > 0 ? 1 : 0; } }`, 3, { maxTrajectorySteps: 5 });
    assert.deepEqual(records.map(strip), baseline.map(strip));
  });

  it('printing megabytes keeps a bounded log', async () => {
    const records = await run(`export class Policy { act() { for (let i = 0; i < 50; i++) console.log('x'.repeat(100000)); return 0; } }`, 1, { ...FAST, maxLogBytes: 10_000 });
    assert.equal(records[0]?.status, 'ok');
    assert.equal(records[0]?.log.truncated, true);
    assert.ok((records[0]?.log.text.length ?? 0) <= 10_000);
  });
});
