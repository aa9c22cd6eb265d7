/**
 * Deadlines name the call that overran (module load, constructor, reset, or act at step N),
 * whether the worker catches it after the call returned or the host kills the worker inside
 * it; what the policy printed before a kill is kept; and the worker's own setup (environment,
 * realm) is never charged to the policy.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { EpisodeRecord } from '../../../src/protocol/episodes';
import type { EpisodeLimits } from '../../../src/sandbox';
import { bundleOf, episodes, usePool, workspace } from './helpers';

const LIMITS: Partial<EpisodeLimits> = { actTimeoutMs: 300, episodeTimeoutMs: 5000, maxTrajectorySteps: 10 };
/** Sleeps in real time (the policy's own clocks are virtual). */
const SLEEP = (ms: number): string => `Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms});`;
const CARTPOLE_ACT = `return o[2]! + 0.5 * o[3]! > 0 ? 1 : 0;`;

/** An environment whose creation and reset take 500 ms each: longer than the policy's call limit. */
const SLOW_PLUGIN = `
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const space = (n) => ({ contains: (x) => Number.isInteger(x) && x >= 0 && x < n, sample: () => 0, describe: () => ({ type: 'Discrete', n, start: 0 }), tsType: () => '0 | 1' });
class Slow {
  constructor() { sleep(500); this.observationSpace = space(5); this.actionSpace = space(2); this.t = 0; }
  reset() { sleep(500); this.t = 0; return { observation: 0, info: {} }; }
  step() { this.t++; return { observation: this.t % 5, reward: 1, terminated: this.t === 4, truncated: false, info: {} }; }
  getState() { return this.t; }
  setState(s) { this.t = s; }
}
exports.environments = [{ id: 'SlowSetup-v0', family: 'test', description: 'slow to make and reset', params: {}, maxEpisodeSteps: 10, rewardRange: [0, 10], failureReturn: 0, create: () => new Slow(), starterPolicy: 'export class Policy { act() { return 0; } }' }];
`;

describe('sandbox: deadlines name the call, logs survive the kill', function () {
  this.timeout(120_000);
  const pool = usePool({ workers: 2 });
  const run = async (policy: string, n = 1, envId = 'CartPole-v1', plugins: string[] = []): Promise<EpisodeRecord[]> =>
    pool().runBatch({ bundle: await bundleOf(policy), envId, params: {}, episodes: episodes(n), limits: LIMITS, plugins });
  const timeout = (r: EpisodeRecord | undefined): [string | undefined, string | undefined] => [r?.status, r?.error?.deadline];

  describe('killed inside the call', () => {
    it('module load', async () => {
      const [r] = await run(`const table: number[] = [];\nfor (;;) table.push(1);\nexport class Policy { act() { return 0; } }`);
      assert.deepEqual(timeout(r), ['timeout', 'module']);
      assert.match(r?.error?.message ?? '', /^loading the policy's module \(its top-level code\) did not finish within 300 ms/);
    });

    it('constructor', async () => {
      const [r] = await run(`export class Policy { constructor() { for (;;) {} } act() { return 0; } }`);
      assert.deepEqual(timeout(r), ['timeout', 'constructor']);
      assert.match(r?.error?.message ?? '', /^new Policy\(ctx\) did not finish within 300 ms/);
    });

    it('reset', async () => {
      const [r] = await run(`export class Policy { reset() { for (;;) {} } act() { return 0; } }`);
      assert.deepEqual(timeout(r), ['timeout', 'reset']);
      assert.match(r?.error?.message ?? '', /^reset\(\) did not finish within 300 ms/);
      assert.equal(r?.length, 0);
    });

    it('act at step 3, after two fast steps, with what it printed before', async () => {
      const policy = `export class Policy {
  private n = 0;
  act(o: Float64Array): number {
    this.n++;
    console.log('act ' + this.n);
    if (this.n === 3) { console.log('thinking hard'); for (;;) {} }
    ${CARTPOLE_ACT}
  }
}`;
      const [r] = await run(policy);
      assert.deepEqual(timeout(r), ['timeout', 'act']);
      assert.match(r?.error?.message ?? '', /^act\(\) at step 3 did not finish within 300 ms/);
      assert.equal(r?.length, 2);
      assert.equal(r?.return, 2);
      assert.equal(r?.log.text, 'act 1\nact 2\nact 3\nthinking hard\n');
    });

    it('act at step N inside a chunk of episodes: re-run alone, charged to its own step, log kept', async () => {
      // 12 episodes on 2 workers travel in chunks; the hang is found by the re-runs one at a time.
      const policy = `export class Policy {
  private n = 0;
  constructor(private readonly ctx: { seed: number }) {}
  act(o: Float64Array): number {
    this.n++;
    if (this.ctx.seed === 12 && this.n === 7) { console.log('stuck at ' + this.n); for (;;) {} }
    ${CARTPOLE_ACT}
  }
}`;
      const records = await run(policy, 12);
      const stuck = records.filter((r) => r.status !== 'ok');
      assert.equal(stuck.length, 1);
      assert.equal(stuck[0]?.caseIndex, 5);
      assert.deepEqual(timeout(stuck[0]), ['timeout', 'act']);
      assert.match(stuck[0]?.error?.message ?? '', /^act\(\) at step 7 did not finish/);
      assert.equal(stuck[0]?.length, 6);
      assert.equal(stuck[0]?.log.text, 'stuck at 7\n');
    });

    it('act stuck right after a setup the worker reported unasked is killed at the act limit', async () => {
      // Episodes slower than the worker's report interval make the next setup's position go out
      // on its own; the host then holds the setup's deadline until it hears the setup ended.
      const policy = `export class Policy {
  private n = 0;
  constructor(private readonly ctx: { seed: number }) { ${SLEEP(10)} }
  act(o: Float64Array): number {
    if (this.ctx.seed === 12 && ++this.n === 1) { ${SLEEP(2500)} }
    ${CARTPOLE_ACT}
  }
}`;
      const stuck = (await run(policy, 12)).filter((r) => r.status !== 'ok');
      assert.equal(stuck.length, 1);
      assert.deepEqual(timeout(stuck[0]), ['timeout', 'act']);
      assert.match(stuck[0]?.error?.message ?? '', /^act\(\) at step 1 did not finish within 300 ms/);
    });

    it('the log kept after a kill is bounded like any log', async () => {
      const r = (await pool().runBatch({
        bundle: await bundleOf(`export class Policy { act() { for (let i = 0; i < 1000; i++) console.log('line ' + i); for (;;) {} } }`),
        envId: 'CartPole-v1', params: {}, episodes: episodes(1), limits: { ...LIMITS, maxLogBytes: 100 },
      }))[0];
      assert.equal(r?.status, 'timeout');
      assert.equal(r?.log.text.length, 100);
      assert.equal(r?.log.truncated, true);
      assert.ok(r?.log.text.startsWith('line 0\nline 1\n'));
    });
  });

  describe('caught by the worker once the call returned', () => {
    it('module load, constructor, reset and act each name themselves', async () => {
      const cases: [string, string, RegExp][] = [
        [`${SLEEP(400)}\nexport class Policy { act() { return 0; } }`, 'module', /^loading the policy's module \(its top-level code\) ran \d+ ms, longer than the 300 ms limit/],
        [`export class Policy { constructor() { ${SLEEP(400)} } act() { return 0; } }`, 'constructor', /^new Policy\(ctx\) ran \d+ ms, longer than the 300 ms limit/],
        [`export class Policy { reset() { ${SLEEP(400)} } act() { return 0; } }`, 'reset', /^reset\(\) ran \d+ ms, longer than the 300 ms limit/],
        [`export class Policy { private n = 0; act() { if (++this.n === 4) { ${SLEEP(400)} } return 0; } }`, 'act', /^act\(\) at step 4 ran \d+ ms, longer than the 300 ms limit/],
      ];
      for (const [policy, deadline, message] of cases) {
        const [r] = await run(policy);
        assert.deepEqual(timeout(r), ['timeout', deadline], policy);
        assert.match(r?.error?.message ?? '', message, policy);
      }
    });
  });

  it("an environment slower to make and reset than the act limit is not charged to the policy", async () => {
    const plugin = path.join(workspace({ 'plugin/slow.js': SLOW_PLUGIN }), 'plugin', 'slow.js');
    const records = await run(`export class Policy { act() { return 1; } }`, 3, 'SlowSetup-v0', [plugin]);
    assert.deepEqual(records.map((r) => [r.status, r.length, r.error?.message]), [0, 1, 2].map(() => ['ok', 4, undefined]));
  });
});
