/**
 * One realm array for every step's observation, for policies that cannot tell: the check must
 * accept the usual reading shapes and refuse every way an observation could outlive its call
 * or be written, and at run time a policy that keeps observations must see each step's own
 * array, whatever its class's `act` looks like.
 */
import { strict as assert } from 'node:assert';
import { planModule } from '../../../src/sandbox/worker/modulePlan';
import { bundleOf, episodes, strip, usePool } from './helpers';

async function borrows(policy: string): Promise<boolean> {
  const p = planModule((await bundleOf(policy)).code);
  assert.equal(p.reuse, true, p.reuse ? '' : p.reason);
  return p.reuse && p.borrowObservation;
}

/**
 * Keeps every observation `o` and notices when one it kept changed after its step (what a
 * policy keeping a history would see if observations were not fresh arrays): it then lets the
 * pole fall. (Not a throw: an episode that throws runs again in a fresh realm of its own.)
 */
const KEEPER_ACT = `(o: Float64Array): number => {
    if (this.kept.some((k: Float64Array, i: number) => k[0] !== this.copies[i]![0] || k[2] !== this.copies[i]![2])) this.fooled = true;
    this.kept.push(o);
    this.copies.push([o[0]!, o[1]!, o[2]!, o[3]!]);
    return this.fooled ? 0 : o[2]! + 0.5 * o[3]! > 0 ? 1 : 0;
  }`;
const KEEPER_FIELDS = 'kept: Float64Array[] = []; copies: number[][] = []; fooled = false;';

describe('sandbox: observations that act only reads', function () {
  this.timeout(60_000);
  const pool = usePool({ workers: 1 });

  const reads: [string, string][] = [
    ['elements in a counted loop', `export class Policy { private readonly w = [0, 0, 1, 0]; act(observation: Float64Array): number { let s = 0; for (let i = 0; i < 4; i++) s += this.w[i]! * observation[i]!; return s > 0 ? 1 : 0; } }`],
    ['destructuring', `export class Policy { act(o: Float64Array): number { const [, , angle, spin] = o; return angle! + 0.5 * spin! > 0 ? 1 : 0; } }`],
    ['the length and arithmetic indices', `const LAST = 3;\nexport class Policy { act(o: Float64Array): number { let s = 0; let j = o.length - 1; while (j >= 0) { s += o[j]! * o[Math.min(j, LAST)]! + o[Math.floor(Math.PI)]!; j -= 1; } return s > 0 ? 1 : 0; } }`],
  ];
  for (const [what, policy] of reads) {
    it(`borrows for a policy reading ${what}`, async () => assert.equal(await borrows(policy), true));
  }

  const escapes: [string, string][] = [
    ['keeps it in a field', `export class Policy { prev?: Float64Array; act(o: Float64Array): number { this.prev = o; return 0; } }`],
    ['passes it to a helper', `function f(o: Float64Array): number { return o[0]!; }\nexport class Policy { act(o: Float64Array): number { return f(o) > 0 ? 1 : 0; } }`],
    ['captures it in a closure', `export class Policy { f?: () => number; act(o: Float64Array): number { this.f = () => o[0]!; return 0; } }`],
    ['writes into it', `export class Policy { act(o: Float64Array): number { o[0] = 1; return 0; } }`],
    ['takes a view of it', `export class Policy { act(o: Float64Array): number { return o.subarray(0, 2)[0]! > 0 ? 1 : 0; } }`],
    ['indexes it with a string (buffer)', `export class Policy { k = 'buffer'; act(o: Float64Array): number { return (o as any)[this.k] ? 1 : 0; } }`],
    ['indexes it with a variable that becomes a string', `export class Policy { act(o: Float64Array): number { let j: any = 0; j = 'buf' + 'fer'; return (o as any)[j] ? 1 : 0; } }`],
    ['indexes it with for-in keys', `export class Policy { act(o: Float64Array): number { let s = 0; for (const k in o) s += (o as any)[k]; return s > 0 ? 1 : 0; } }`],
    ['reads arguments', `export class Policy { act(o: Float64Array): number { return (arguments[0] as Float64Array)[0]! > 0 ? 1 : 0; } }`],
    ['spreads it', `export class Policy { act(o: Float64Array): number { const c = [...o]; return c[0]! > 0 ? 1 : 0; } }`],
    ['is a getter', `export class Policy { get act() { return (o: Float64Array) => (o[0]! > 0 ? 1 : 0); } }`],
    ['indexes it with what Math inherits (Math.constructor("buffer") is a String)', `export class Policy { b?: unknown; act(o: Float64Array): number { this.b = (o as any)[Math.constructor('buffer')]; return 0; } }`],
    ['indexes it with a Math function called through call()', `export class Policy { act(o: Float64Array): number { return (o as any)[(Math.max as any).call(null, 'buffer')] ? 1 : 0; } }`],
  ];
  for (const [what, policy] of escapes) {
    it(`gives fresh arrays to a policy that ${what}`, async () => assert.equal(await borrows(policy), false));
  }

  it('gives fresh arrays while the instance acts through another act, from its constructor or its act', async () => {
    // The class's own act only reads (so the check passes) and would let the pole fall at once;
    // the act actually called keeps every observation and balances while none of them changes.
    // (Defined, not assigned: the shared module's prototypes are frozen, and assigning over an
    // inherited read-only act throws, which sends the episode to a fresh realm of its own.)
    const installedInConstructor = `export class Policy {
  ${KEEPER_FIELDS}
  constructor() { Object.defineProperty(this, 'act', { value: ${KEEPER_ACT} }); }
  act(o: Float64Array): number { return o.length > 100 ? 1 : 0; }
}`;
    const swappedMidEpisode = `export class Policy {
  ${KEEPER_FIELDS} n = 0;
  act(o: Float64Array): number {
    if (++this.n === 5) Object.defineProperty(this, 'act', { value: ${KEEPER_ACT} });
    return this.n > 5 ? 0 : o[2]! + 0.5 * o[3]! > 0 ? 1 : 0;
  }
}`;
    // A getter that answers with the class's act every other read: a check and a call that each
    // read act would hand the keeper the shared array.
    const alternatingGetter = `export class Policy {
  ${KEEPER_FIELDS} reads = 0;
  constructor() {
    const own = Policy.prototype.act;
    const keeper = ${KEEPER_ACT};
    Object.defineProperty(this, 'act', { get: () => (this.reads++ % 2 === 0 ? own : keeper) });
  }
  act(o: Float64Array): number { return o[2]! + 0.5 * o[3]! > 0 ? 1 : 0; }
}`;
    for (const policy of [installedInConstructor, swappedMidEpisode, alternatingGetter]) {
      assert.equal(await borrows(policy), true, 'the class method passes the check');
      const records = await pool().runBatch({ bundle: await bundleOf(policy), envId: 'CartPole-v1', params: {}, episodes: episodes(3), limits: { maxTrajectorySteps: 0 } });
      assert.deepEqual(records.map((r) => r.status), ['ok', 'ok', 'ok']);
      // Balanced by the instance's act, never fooled: the pole falls within ~15 steps otherwise.
      assert.ok(records.every((r) => r.length > 40), `episode lengths ${records.map((r) => r.length).join(', ')}`);
    }
  });

  it('a policy gives the same records, bit for bit, with one array for all steps and with fresh ones', async () => {
    const reading = `export class Policy { act(o: Float64Array): number { return o[2]! + 0.5 * o[3]! + 0.01 * o[0]! + 0.1 * o[1]! > 0 ? 1 : 0; } }`;
    // The same policy, made to keep its observation (never read back): the check refuses it.
    const keeping = `export class Policy { last?: Float64Array; act(o: Float64Array): number { this.last = o; return o[2]! + 0.5 * o[3]! + 0.01 * o[0]! + 0.1 * o[1]! > 0 ? 1 : 0; } }`;
    assert.equal(await borrows(reading), true);
    assert.equal(await borrows(keeping), false);
    const run = async (policy: string) => (await pool().runBatch({ bundle: await bundleOf(policy), envId: 'CartPole-v1', params: {}, episodes: episodes(4), limits: { maxTrajectorySteps: 1000 } })).map(strip);
    const [borrowed, fresh] = [await run(reading), await run(keeping)];
    assert.ok(borrowed.every((r) => r.status === 'ok' && r.trajectory.stepCount === r.length));
    assert.deepEqual(borrowed, fresh);
  });
});
