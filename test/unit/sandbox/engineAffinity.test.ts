/**
 * A pool shared by several runs (a suite) gives each worker at most one engine-loading
 * environment: a worker that simulated one MuJoCo model is replaced before it would load another,
 * whose memory would add to the first's for the worker's life. Environments without an engine
 * still run on any worker.
 */
import { strict as assert } from 'node:assert';
import { createRegistry } from '../../../src/envs';
import type { PolicyBundle } from '../../../src/sandbox';
import { bundleOf, episodes, GOOD_CARTPOLE, usePool } from './helpers';

const registry = createRegistry();

describe('sandbox: one engine-loading environment per worker', function () {
  this.timeout(300_000);
  const pool = usePool({ workers: 1 });
  const bundles = new Map<string, PolicyBundle>();

  before(async () => {
    bundles.set('CartPole-v1', await bundleOf(GOOD_CARTPOLE));
    for (const id of ['InvertedPendulum-v5', 'Reacher-v5']) bundles.set(id, await bundleOf(registry.get(id).starterPolicy));
  });

  async function run(envId: string): Promise<void> {
    const records = await pool().runBatch({ bundle: bundles.get(envId)!, envId, params: {}, episodes: episodes(2) });
    assert.deepEqual(
      records.map((r) => r.status),
      ['ok', 'ok'],
      `${envId}: ${records.map((r) => r.error?.message ?? r.status).join('; ')}`,
    );
  }

  it('keeps the worker for an environment without an engine, and for the same engine again', async () => {
    await run('InvertedPendulum-v5');
    assert.equal(pool().workersStarted, 1);
    await run('CartPole-v1');
    await run('InvertedPendulum-v5');
    assert.equal(pool().workersStarted, 1, 'CartPole and the same model again need no new worker');
  });

  it('starts a fresh worker for a second engine-loading environment, and keeps that one', async () => {
    await run('Reacher-v5');
    assert.equal(pool().workersStarted, 2, 'Reacher-v5 ran on the worker that holds InvertedPendulum-v5');
    await run('CartPole-v1');
    await run('Reacher-v5');
    assert.equal(pool().workersStarted, 2);
  });
});
