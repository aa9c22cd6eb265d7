/**
 * The distributed suite against a real redis-server (Debian's package; scripts/systemDeps.mjs
 * installs it): two `policyforge suite worker` processes, one killed mid-run. Uses the built CLI.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RunReport } from '../../../src/protocol/feedback';
import { tmpDir, waitFor } from '../runner/helpers';
import { useRedisSuiteProcesses } from './processes';

const events = (file: string): { type: string; charged?: number }[] =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { type: string; charged?: number })
    : [];

describe('suites on Redis with BullMQ workers', function () {
  this.timeout(240_000);
  const procs = useRedisSuiteProcesses();

  it('two workers run the suite; one killed mid-run leaves its run to the other, charged once', async () => {
    const dir = tmpDir('redis-suite');
    const url = await procs.redis(dir);
    const work = path.join(dir, 'work');
    const [w1, w2] = await Promise.all([procs.worker(url, work, dir, '--lock-ms', '2000'), procs.worker(url, work, dir, '--lock-ms', '2000')]);

    const suite = procs.cli(
      ['suite', 'run', '--queue', url, '--envs', 'Pendulum-v1,CartPole-v1', '--agent', 'random', '--repeats', '2', '--budget', '64', '--validation-cases', '4', '--held-out-cases', '4', '--dir', 'suite', '--json'],
      dir,
    );
    // Kill the first worker once its run has been charged at least once and before it is done.
    const victim = await waitFor('a run on worker 1', () => /(\S+): started \(attempt/.exec(w1.out())?.[1], 60_000);
    const journal = path.join(work, 'suite', victim, '.policyforge', 'events.jsonl');
    await waitFor('a charge in the run on worker 1', () => events(journal).some((e) => e.type === 'submitted'), 60_000, 5);
    w1.child.kill('SIGKILL');
    await w1.exited;
    const chargedBeforeKill = events(journal)
      .filter((e) => e.type === 'submitted')
      .reduce((a, e) => a + (e.charged ?? 0), 0);
    assert.ok(chargedBeforeKill < 64, `worker 1 was killed mid-run (${chargedBeforeKill} of 64 charged)`);

    assert.equal(await suite.exited, 0, suite.out());
    const out = suite.out();
    const result = JSON.parse(out.slice(out.indexOf('{'))) as { ok: boolean; failed: string[]; leaderboard: { entries: { entry: string }[]; environments: unknown[] } };
    assert.equal(result.ok, true);
    assert.deepEqual(result.failed, []);
    assert.deepEqual(result.leaderboard.entries.map((e) => e.entry).sort(), ['random', 'starter', 'uniform-random']);
    assert.equal(result.leaderboard.environments.length, 2);

    for (const id of ['Pendulum-v1__random__r1', 'Pendulum-v1__random__r2', 'CartPole-v1__random__r1', 'CartPole-v1__random__r2']) {
      const report = JSON.parse(fs.readFileSync(path.join(dir, 'suite', 'runs', id, '.policyforge', 'report.json'), 'utf8')) as RunReport;
      assert.equal(report.budget.used, 64, `${id}: the report came back into the suite folder with its budget spent once`);
    }
    // The killed run was taken up again and resumed from its journal: every episode charged once.
    assert.match(w2.out(), new RegExp(`${victim.replace(/[.]/g, '\\.')}: resuming the run`));
    const all = events(journal);
    assert.equal(all.filter((e) => e.type === 'submitted').reduce((a, e) => a + (e.charged ?? 0), 0), 64);
    assert.ok(all.filter((e) => e.type === 'runner_started').length >= 2);
    assert.equal(all.filter((e) => e.type === 'completed').length, 1);
  });
});
