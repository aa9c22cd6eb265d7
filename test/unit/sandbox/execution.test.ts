/**
 * Running episodes: determinism across workers and order, source-mapped errors, environment
 * faults as runner faults, plugins, trajectories, logs, aborts and request errors.
 */
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createRegistry } from '../../../src/envs';
import { parseRecordedTrajectory, type EpisodeRecord } from '../../../src/protocol/episodes';
import { SandboxPool, SandboxRequestError } from '../../../src/sandbox';
import { WORKER_BUNDLE_CACHE_SIZE } from '../../../src/sandbox/worker/messages';
import { bundleOf, episodes, GOOD_CARTPOLE, strip, usePool, workspace } from './helpers';

const RANDOM_POLICY = `export class Policy {
  private readonly bias: number;
  constructor(ctx: PolicyContext) { this.bias = (ctx.seed % 3) / 100; }
  act(o: Float64Array): number {
    const noise = Math.random() * 0.2 - 0.1;
    if (Math.random() < 0.2) return Math.random() < 0.5 ? 0 : 1;
    if (Math.random() < 0.05) console.log('step noise', noise);
    return o[2]! + 0.5 * o[3]! + this.bias * o[0]! + noise > 0 ? 1 : 0;
  }
}
declare interface PolicyContext { seed: number }
`;

/** An environment plugin whose step() throws at step 3 (a bug of the environment, not the policy). */
const FAULTY_PLUGIN = `
const space = (n) => ({ contains: (x) => Number.isInteger(x) && x >= 0 && x < n, sample: () => 0, describe: () => ({ type: 'Discrete', n, start: 0 }), tsType: () => '0 | 1' });
class Faulty {
  constructor() { this.observationSpace = space(5); this.actionSpace = space(2); this.t = 0; }
  reset() { this.t = 0; return { observation: 0, info: {} }; }
  step() { this.t++; if (this.t === 3) throw new Error('physics exploded'); return { observation: this.t, reward: 1, terminated: false, truncated: false, info: { t: this.t } }; }
  getState() { return this.t; }
  setState(s) { this.t = s; }
}
exports.environments = [{ id: 'Faulty-v0', family: 'test', description: 'throws in step 3', params: {}, maxEpisodeSteps: 10, rewardRange: [0, 10], create: () => new Faulty(), starterPolicy: 'export class Policy { act() { return 0; } }' }];
`;

describe('sandbox: execution', function () {
  this.timeout(60_000);
  const pool = usePool({ workers: 2 });

  it('gives bit-identical records for the same bundle and seeds, whichever worker and order', async () => {
    const bundle = await bundleOf(RANDOM_POLICY);
    const specs = episodes(12);
    const request = { bundle, envId: 'CartPole-v1', params: {}, limits: { maxTrajectorySteps: 50 } };
    const a = await pool().runBatch({ ...request, episodes: specs });
    const single = new SandboxPool({ workers: 1 });
    const reversed = await single.runBatch({ ...request, episodes: [...specs].reverse() });
    await single.close();
    assert.deepEqual(a.map(strip), [...reversed].reverse().map(strip));
    // Seeds matter: the records are not all the same episode.
    assert.ok(new Set(a.map((r) => r.return)).size > 1);
    assert.ok(a.some((r) => r.log.text.includes('step noise')));
    assert.deepEqual(a.map((r) => r.caseIndex), specs.map((s) => s.caseIndex));
  });

  it('maps exception stacks to policy/*.ts lines through the source map', async () => {
    const helper = `export function check(x: number): number {\n  if (x > -100) {\n    throw new RangeError('bad reading ' + x.toFixed(1));\n  }\n  return x;\n}\n`;
    const bundle = await bundleOf(`import { check } from './helper';\nexport class Policy {\n  act(o: Float64Array): number {\n    return check(o[0]!);\n  }\n}\n`, { 'helper.ts': helper });
    const [r] = await pool().runBatch({ bundle, envId: 'CartPole-v1', params: {}, episodes: episodes(1) });
    assert.equal(r?.status, 'exception');
    assert.match(r?.error?.message ?? '', /act\(\) threw at step 1: RangeError: bad reading/);
    assert.deepEqual(r?.error?.location && [r.error.location.file, r.error.location.line], ['policy/helper.ts', 3]);
    assert.match(r?.error?.stack ?? '', /policy\/helper\.ts:3:\d+/);
    assert.match(r?.error?.stack ?? '', /policy\/policy\.ts:4:\d+/);
    assert.doesNotMatch(r?.error?.stack ?? '', /sandboxWorker|node:/);
  });

  it('reports environment faults as runner_fault, never as the policy failing', async () => {
    const root = workspace({ 'plugin/faulty.js': FAULTY_PLUGIN });
    const plugin = path.join(root, 'plugin', 'faulty.js');
    const bundle = await bundleOf(`export class Policy { act() { return 1; } }`);
    const records = await pool().runBatch({ bundle, envId: 'Faulty-v0', params: {}, episodes: episodes(2), plugins: [plugin] });
    assert.deepEqual(records.map((r) => r.status), ['runner_fault', 'runner_fault']);
    assert.match(records[0]?.error?.message ?? '', /Faulty-v0 failed in step\(\) at step 3: physics exploded/);
    assert.equal(records[0]?.length, 2);
    // The trajectory up to the fault is kept, infos included.
    assert.deepEqual(parseRecordedTrajectory(records[0]!.trajectory).steps.map((s) => s.info), [{ t: 1 }, { t: 2 }]);
    // Back to built-in environments on the same pool afterwards.
    const ok = await pool().runBatch({ bundle: await bundleOf(GOOD_CARTPOLE), envId: 'CartPole-v1', params: {}, episodes: episodes(1), limits: { maxTrajectorySteps: 0 } });
    assert.equal(ok[0]?.status, 'ok');
  });

  it('a plugin that does not exist is a runner_fault with the reason', async () => {
    const missing = path.join(workspace({}), 'nope.js');
    const records = await pool().runBatch({ bundle: await bundleOf(GOOD_CARTPOLE), envId: 'Nope-v0', params: {}, episodes: episodes(1), plugins: [missing] });
    assert.equal(records[0]?.status, 'runner_fault');
    assert.match(records[0]?.error?.message ?? '', /Nope-v0/);
    assert.match(records[0]?.error?.message ?? '', /environment plugin .*nope\.js failed to load/);
  });

  it('records bounded trajectories with snapshots, and the truncation marker', async () => {
    const bundle = await bundleOf(GOOD_CARTPOLE);
    const [r] = await pool().runBatch({ bundle, envId: 'CartPole-v1', params: {}, episodes: episodes(1), limits: { maxTrajectorySteps: 10, recordSnapshots: true } });
    assert.equal(r?.status, 'ok');
    assert.ok((r?.length ?? 0) > 10);
    const trajectory = parseRecordedTrajectory(r!.trajectory);
    assert.equal(trajectory.steps.length, 10);
    assert.equal(r?.trajectory.stepCount, 10);
    assert.equal(trajectory.truncated, true);
    const step = trajectory.steps[0];
    assert.equal(Array.isArray(step?.observation) && step.observation.length, 4);
    assert.ok(step?.action === 0 || step?.action === 1);
    assert.equal(step?.reward, 1);
    assert.deepEqual(Object.keys((step?.snapshot ?? {}) as object).sort(), ['theta', 'x']);
    assert.ok(r?.trajectory.initialSnapshot);
    const short = await pool().runBatch({ bundle, envId: 'CartPole-v1', params: {}, episodes: episodes(1), limits: { maxTrajectorySteps: 1000 } });
    assert.equal(short[0]?.trajectory.truncated, false);
    assert.equal(parseRecordedTrajectory(short[0]!.trajectory).steps.length, short[0]?.length);
  });

  it('records the observations the policy saw bit for bit (the JSON lines round-trip every double)', async () => {
    const [r] = await pool().runBatch({ bundle: await bundleOf(GOOD_CARTPOLE), envId: 'CartPole-v1', params: {}, episodes: episodes(1), limits: { maxTrajectorySteps: 1000 } });
    const steps = parseRecordedTrajectory(r!.trajectory).steps;
    assert.equal(steps.length, r?.length);
    // Replaying the recorded actions in this process gives exactly the recorded observations and rewards.
    const { env } = createRegistry().make('CartPole-v1');
    let obs = Array.from(env.reset({ seed: episodes(1)[0]!.envSeed }).observation as Float64Array);
    let ret = 0;
    for (const [i, s] of steps.entries()) {
      assert.deepEqual(s.observation, obs, `observation of step ${i}`);
      const next = env.step(s.action as number);
      ret += next.reward;
      assert.equal(s.reward, next.reward);
      obs = Array.from(next.observation as Float64Array);
    }
    assert.equal(ret, r?.return);
  });

  it('passes the policy context and calls reset before the first act', async () => {
    const bundle = await bundleOf(`export class Policy {
  constructor(private readonly ctx: any) { console.log(JSON.stringify({ env: ctx.envId, seed: ctx.seed, max: ctx.maxEpisodeSteps, rr: ctx.rewardRange, n: ctx.actionSpace.n, p: ctx.params, frozen: Object.isFrozen(ctx) })); }
  reset(o: Float64Array) { console.log('reset ' + o.length); }
  act(): number { return 0; }
}`);
    const [r] = await pool().runBatch({ bundle, envId: 'CartPole-v1', params: { sutton_barto_reward: true }, episodes: [{ caseIndex: 3, envSeed: 1, policySeed: 42 }], limits: { maxTrajectorySteps: 0 } });
    assert.equal(r?.status, 'ok');
    const [ctxLine, resetLine] = r?.log.text.split('\n') ?? [];
    assert.deepEqual(JSON.parse(ctxLine ?? ''), { env: 'CartPole-v1', seed: 42, max: 500, rr: [0, 1], n: 2, p: { reset_bound: 0.05, sutton_barto_reward: true }, frozen: true });
    assert.equal(resetLine, 'reset 4');
  });

  it('reports each episode as it finishes and stops on abort, keeping finished records', async () => {
    const bundle = await bundleOf(`export class Policy { act() { const t = Date.now(); while (Date.now() - t < 2) {} return 0; } }`);
    const controller = new AbortController();
    const seen: EpisodeRecord[] = [];
    const records = await pool().runBatch({
      bundle,
      envId: 'CartPole-v1',
      params: {},
      episodes: episodes(40),
      limits: { maxTrajectorySteps: 0 },
      signal: controller.signal,
      onEpisode: (r) => {
        seen.push(r);
        if (seen.length === 3) controller.abort();
      },
    });
    assert.ok(records.length >= 3 && records.length < 40, `${records.length} records`);
    assert.deepEqual(records.map((r) => r.caseIndex), [...records.map((r) => r.caseIndex)].sort((a, b) => a - b));
    // The pool serves the next batch normally.
    const next = await pool().runBatch({ bundle: await bundleOf(GOOD_CARTPOLE), envId: 'CartPole-v1', params: {}, episodes: episodes(2), limits: { maxTrajectorySteps: 0 } });
    assert.deepEqual(next.map((r) => r.status), ['ok', 'ok']);
  });

  it('runs concurrent batches on the shared workers', async () => {
    const bundle = await bundleOf(GOOD_CARTPOLE);
    const request = { bundle, envId: 'CartPole-v1', params: {}, limits: { maxTrajectorySteps: 0 } };
    const [a, b] = await Promise.all([pool().runBatch({ ...request, episodes: episodes(6) }), pool().runBatch({ ...request, episodes: episodes(6) })]);
    assert.deepEqual(a.map(strip), b.map(strip));
  });

  it('runs more distinct bundles than a worker keeps compiled, then the first again', async () => {
    // Validation runs every qualifying submission: far more bundles than the worker's cache.
    const single = new SandboxPool({ workers: 1 });
    try {
      const bundles = await Promise.all(Array.from({ length: WORKER_BUNDLE_CACHE_SIZE + 3 }, (_, i) => bundleOf(GOOD_CARTPOLE.replace('export class Policy', `const VARIANT = ${i};\nexport class Policy`))));
      assert.equal(new Set(bundles.map((b) => b.id)).size, bundles.length);
      for (const bundle of [...bundles, bundles[0]!, bundles[bundles.length - 1]!]) {
        const records = await single.runBatch({ bundle, envId: 'CartPole-v1', params: {}, episodes: episodes(2), limits: { maxTrajectorySteps: 0 } });
        assert.deepEqual(records.map((r) => r.status), ['ok', 'ok']);
      }
      assert.equal(single.workersStarted, 1, 'the worker was never replaced (it was sent the code of every bundle it had dropped)');
    } finally {
      await single.close();
    }
  });

  it('refuses unknown environments, bad parameters and bad limits before running anything', async () => {
    const bundle = await bundleOf(GOOD_CARTPOLE);
    await assert.rejects(pool().runBatch({ bundle, envId: 'CartPol-v1', params: {}, episodes: episodes(1) }), (e: Error) => e instanceof SandboxRequestError && /unknown environment "CartPol-v1"/.test(e.message));
    await assert.rejects(pool().runBatch({ bundle, envId: 'CartPole-v1', params: { gravity: 3 }, episodes: episodes(1) }), /parameter "gravity" is unknown/);
    await assert.rejects(pool().runBatch({ bundle, envId: 'CartPole-v1', params: {}, episodes: episodes(1), limits: { actTimeoutMs: -1 } }), /limits\.actTimeoutMs/);
  });

  it('says how to build the worker when its script is missing', async () => {
    const root = workspace({});
    writeFileSync(path.join(root, 'package.json'), '{}');
    const broken = new SandboxPool({ workers: 1, workerScript: path.join(root, 'dist', 'sandboxWorker.js') });
    const records = await broken.runBatch({ bundle: await bundleOf(GOOD_CARTPOLE), envId: 'CartPole-v1', params: {}, episodes: episodes(2) });
    await broken.close();
    assert.deepEqual(records.map((r) => r.status), ['runner_fault', 'runner_fault']);
    assert.match(records[0]?.error?.message ?? '', /sandboxWorker\.js is missing: run `npm run build`/);
    const badNode = new SandboxPool({ workers: 1, nodePath: path.join(root, 'no-node') });
    const again = await badNode.runBatch({ bundle: await bundleOf(GOOD_CARTPOLE), envId: 'CartPole-v1', params: {}, episodes: episodes(1) });
    await badNode.close();
    assert.equal(again[0]?.status, 'runner_fault');
    assert.match(again[0]?.error?.message ?? '', /failed to start 3 times: spawn .*no-node ENOENT/);
  });
});
