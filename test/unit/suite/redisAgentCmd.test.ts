/**
 * External-agent suites through BullMQ on a real redis-server: a worker refuses a job whose agent
 * is a shell command unless it was started with --allow-agent-cmd (the job fails with that
 * reason, nothing runs), and a worker that allows it runs the scripted external agent on the job
 * when the suite is resumed, sending the report back into the suite folder. Uses the built CLI.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RunReport } from '../../../src/protocol/feedback';
import { REPO, tmpDir } from '../runner/helpers';
import { useRedisSuiteProcesses } from './processes';

const SCRIPTED_AGENT = path.join(REPO, 'test', 'fixtures', 'agents', 'scriptedAgent.mjs');

const jsonOf = (out: string): { ok: boolean; failed: string[] } => JSON.parse(out.slice(out.indexOf('{'))) as { ok: boolean; failed: string[] };

describe('external-agent suites on Redis', function () {
  this.timeout(300_000);
  const procs = useRedisSuiteProcesses();

  it('runs --agent-cmd jobs only on workers that allow it', async () => {
    const dir = tmpDir('redis-agent');
    const url = await procs.redis(dir);
    const work = path.join(dir, 'work');

    const strict = await procs.worker(url, work, dir);
    const first = procs.cli(
      ['suite', 'run', '--queue', url, '--envs', 'CartPole-v1', '--budget', '8', '--validation-cases', '4', '--held-out-cases', '4',
        '--agent-cmd', `node ${JSON.stringify(SCRIPTED_AGENT)}`, '--agent-name', 'scripted', '--retry-backoff-ms', '200', '--grace', '30', '--dir', 'suite', '--json'],
      dir,
    );
    assert.equal(await first.exited, 1, first.out());
    assert.deepEqual(jsonOf(first.out()).failed, ['CartPole-v1__scripted__r1']);
    assert.match(strict.out(), /start this worker with --allow-agent-cmd/);
    assert.equal(fs.existsSync(path.join(work, 'suite', 'CartPole-v1__scripted__r1')), false, 'the refusing worker ran nothing');
    strict.child.kill('SIGTERM');
    await strict.exited;

    const trusting = await procs.worker(url, work, dir, '--allow-agent-cmd');
    const resumed = procs.cli(['suite', 'run', '--queue', url, '--dir', 'suite', '--json'], dir);
    assert.equal(await resumed.exited, 0, `${resumed.out()}\n${trusting.out()}`);
    assert.deepEqual(jsonOf(resumed.out()).failed, []);
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'suite', 'runs', 'CartPole-v1__scripted__r1', '.policyforge', 'report.json'), 'utf8')) as RunReport & { agent?: { ending: string } };
    assert.equal(report.budget.used, 8);
    assert.equal(report.agent?.ending, 'budget_spent', 'the external agent drove the run on the worker');
    assert.ok(fs.existsSync(path.join(work, 'suite', 'CartPole-v1__scripted__r1', '.policyforge', 'agent', 'transcript.jsonl')), 'its transcript stays with the worker');
  });
});
