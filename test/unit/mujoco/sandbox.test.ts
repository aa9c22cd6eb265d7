/**
 * MuJoCo episodes in the real sandbox: the engine loads in the worker (never in the policy realm),
 * and the same seeds give bit-identical records whatever the worker count and order.
 */
import { strict as assert } from 'node:assert';
import { createRegistry } from '../../../src/envs';
import { starterFiles } from '../../../src/envs/core/starterFiles';
import { buildBundle, SandboxPool, type PolicyBundle } from '../../../src/sandbox';
import { bundleOf, ensureWorkerBuilt, episodes, removeWorkspaces, strip, workspace } from '../sandbox/helpers';

describe('mujoco: in the sandbox', function () {
  this.timeout(300_000);
  const registry = createRegistry();
  const pools: SandboxPool[] = [];
  before(() => ensureWorkerBuilt());
  after(async () => {
    await Promise.all(pools.map((p) => p.close()));
    removeWorkspaces();
  });
  const pool = (workers: number): SandboxPool => {
    const p = new SandboxPool({ workers });
    pools.push(p);
    return p;
  };

  async function starter(id: string): Promise<PolicyBundle> {
    const made = registry.make(id);
    const built = await buildBundle(workspace(starterFiles(made.definition, made.params, made.env)), { typeCheck: false });
    if (!built.ok) throw new Error(built.diagnostics.map((d) => d.message).join('; '));
    return built.bundle;
  }

  it('same seeds give bit-identical records with one worker and with two, in any order', async () => {
    const one = pool(1);
    const two = pool(2);
    for (const id of ['Ant-v5', 'Reacher-v5']) {
      const bundle = await starter(id);
      const eps = episodes(6);
      const limits = { maxTrajectorySteps: 60 };
      const a = await one.runBatch({ bundle, envId: id, params: {}, episodes: eps, limits });
      const b = await two.runBatch({ bundle, envId: id, params: {}, episodes: [...eps].reverse(), limits });
      const byCase = (rs: typeof a) => [...rs].sort((x, y) => x.caseIndex - y.caseIndex).map(strip);
      for (const r of a) assert.equal(r.status, 'ok', `${id}: ${r.error?.message ?? ''}`);
      assert.deepEqual(byCase(b), byCase(a), id);
      assert.ok(new Set(a.map((r) => r.return)).size > 1, 'different seeds give different episodes');
    }
  });

  it('every Fetch starter evaluates in the sandbox with its policy/fetch.ts, and beats doing nothing', async () => {
    const p = pool(2);
    const still = await bundleOf(`export class Policy {
  act(): number[] {
    return [0, 0, 0, 0];
  }
}
`);
    for (const id of ['FetchReach-v4', 'FetchPush-v4', 'FetchSlide-v4', 'FetchPickAndPlace-v4']) {
      const eps = episodes(16);
      const records = await p.runBatch({ bundle: await starter(id), envId: id, params: {}, episodes: eps, limits: { maxTrajectorySteps: 0 } });
      for (const r of records) assert.equal(r.status, 'ok', `${id}: ${r.error?.message ?? ''}`);
      const baseline = await p.runBatch({ bundle: still, envId: id, params: {}, episodes: eps, limits: { maxTrajectorySteps: 0 } });
      const mean = (rs: typeof records): number => rs.reduce((a, r) => a + r.return, 0) / rs.length;
      assert.ok(mean(records) > mean(baseline), `${id}: starter ${mean(records)} vs still ${mean(baseline)}`);
      if (id === 'FetchReach-v4') assert.ok(mean(records) > -10, `FetchReach starter reaches its goals (${mean(records)})`);
    }
  });

  it('the policy realm cannot reach the engine', async () => {
    const bundle = await bundleOf(`export class Policy {
  act(o: Float64Array): number[] {
    const g = globalThis as Record<string, unknown>;
    if ('Module' in g || 'MjModel' in g || typeof (g as { require?: unknown }).require !== 'undefined') throw new Error('engine visible');
    if (!(o instanceof Float64Array) && !Array.isArray(o)) throw new Error('observation is not an array');
    return [0, 0];
  }
}
`);
    const records = await pool(1).runBatch({ bundle, envId: 'Reacher-v5', params: {}, episodes: episodes(1), limits: {} });
    assert.equal(records[0]?.status, 'ok', records[0]?.error?.message);
    assert.equal(records[0]?.length, 50);
  });
});
