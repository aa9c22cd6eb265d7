import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRegistry } from '../../../src/envs';
import { planJobs } from '../../../src/suite/job';
import { runLocal } from '../../../src/suite/localEngine';
import { PRESETS, describePresets, resolveEnvs } from '../../../src/suite/presets';
import { SuiteFolder } from '../../../src/suite/suiteFolder';
import { readEvents, sharedExecutor, tmpDir, useInProcessRunners } from '../runner/helpers';

describe('suites', function () {
  this.timeout(120_000);
  useInProcessRunners();

  it('core16 names sixteen ids; presets expand and unknown ids are reported, not run', () => {
    assert.equal(PRESETS.core16!.length, 16);
    const has = (id: string): boolean => id !== 'FetchPush-v4';
    assert.deepEqual(resolveEnvs('smoke,CartPole-v1,FetchPush-v4', has), { available: ['CartPole-v1', 'Acrobot-v1', 'MiniGrid-Empty-5x5-v0'], missing: ['FetchPush-v4'] });
    assert.deepEqual(describePresets(has).find((p) => p.name === 'core16')!.missing, ['FetchPush-v4']);
  });

  it('core16 is the benchmark suite: sixteen distinct ids, every one registered here', () => {
    const registry = createRegistry();
    assert.equal(new Set(PRESETS.core16).size, 16);
    assert.deepEqual(describePresets((id) => registry.has(id)).find((p) => p.name === 'core16')!.missing, []);
    for (const id of ['MountainCarContinuous-v0', 'MiniGrid-DoorKey-16x16-v0', 'MiniGrid-ObstructedMaze-1Q-v1', 'FetchPickAndPlace-v4']) assert.ok(PRESETS.core16!.includes(id), id);
  });

  it('runs every job on the local queue with a parallelism limit, resumes, and ranks the results', async () => {
    const registry = createRegistry();
    const folder = new SuiteFolder(tmpDir('suite'));
    // A Box action space (Pendulum), a Discrete one (CartPole) and a grid (MiniGrid) for the random policy.
    const jobs = planJobs(['CartPole-v1', 'Pendulum-v1', 'MiniGrid-Empty-5x5-v0'], 'random', 2, 16, { validationCases: 4, heldOutCases: 4 });
    assert.equal(jobs.length, 6);
    let running = 0;
    let peak = 0;
    const finished: string[] = [];
    const failed = await runLocal(
      folder,
      jobs.slice(0, 4),
      { parallel: 2, registry, executor: sharedExecutor() },
      {
        started: () => (peak = Math.max(peak, ++running)),
        finished: (j) => {
          running--;
          finished.push(j.id);
        },
        failed: (j, e) => assert.fail(`${j.id}: ${e.message}`),
      },
    );
    assert.deepEqual(failed, []);
    assert.equal(peak, 2, 'two runs at a time, never more');
    // Resuming runs only what has no report yet.
    finished.length = 0;
    await runLocal(folder, jobs, { parallel: 2, registry, executor: sharedExecutor() }, { finished: (j) => finished.push(j.id) });
    assert.deepEqual(finished.sort(), ['MiniGrid-Empty-5x5-v0__random__r1', 'MiniGrid-Empty-5x5-v0__random__r2']);
    for (const job of jobs) {
      const report = folder.report(job)!;
      assert.equal(report.budget.used, 16, `${job.id} spent its budget exactly`);
      assert.ok(report.heldOut && report.heldOut.count === 4 && report.heldOut.okCount === 4, `${job.id}: the random policy's actions are valid`);
      const submits = readEvents(folder.workspace(job)).filter((e) => e.type === 'submitted');
      assert.equal(submits.length, 2, 'the random agent submits in batches of 8');
    }
    const board = folder.writeLeaderboard(jobs, { familyOf: (id) => registry.get(id).family.split('/')[0]! });
    // The random agent's pick and the report's budget-free uniform-random baseline are separate entries.
    assert.deepEqual(board.entries.map((e) => e.entry).sort(), ['random', 'starter', 'uniform-random']);
    assert.equal(board.environments.length, 3);
    assert.ok(board.environments.every((e) => e.ranking.every((r) => r.repeats === 2)));
    const csv = fs.readFileSync(path.join(folder.root, 'results.csv'), 'utf8');
    assert.equal(csv.split('\n')[0], 'environment,entry,score,kind,family');
    assert.equal(csv.trim().split('\n').length, 1 + 6 * 3, 'per run: the agent, the starter and the uniform random policy');
    assert.match(fs.readFileSync(path.join(folder.root, 'leaderboard.md'), 'utf8'), /### Pendulum-v1 \(classic\)/);
  });
});
