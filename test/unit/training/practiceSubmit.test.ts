import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseSubmissionSummary } from '../../../src/protocol/documents';
import { formatSummary } from '../../../src/stats/feedbackText';
import { cartPolicy, makeWorkspace, readEvents, slowPolicy, spawnRunner, writePolicy, type Runner, INTERRUPTIBLE_ITERATIONS, useSpawnedRunners } from '../runner/helpers';

/** Always pushes left: the pole falls within a few steps. */
const LEFT = `export class Policy {
  constructor(_ctx: PolicyContext) {}
  act(_o: Observation): Action {
    return 0;
  }
}
`;

async function kill9(r: Runner): Promise<void> {
  r.child.kill('SIGKILL');
  await r.exited;
}

describe('practice submits through the real runner process', function () {
  this.timeout(180_000);
  useSpawnedRunners();

  it('charges the practice budget, leaves the main budget alone, marks the feedback, and is never selected', async () => {
    const dir = makeWorkspace({ budget: 8, practiceBudget: 6, validationCases: 2, heldOutCases: 2 });
    writePolicy(dir, LEFT);
    const r = await spawnRunner(dir);
    try {
      const first = await r.client.submit({ cases: '0-3' });
      assert.equal(first.practice, undefined);
      // A much better policy, only ever practised: it has the best return of the run.
      writePolicy(dir, cartPolicy(0.5));
      const practice = await r.client.submit({ cases: '0-3', config: { params: { reset_bound: 0.02 }, reason: 'narrow starts' } });
      assert.equal(practice.submission, 2);
      assert.deepEqual(practice.practice?.params, { reset_bound: 0.02 });
      assert.deepEqual(practice.practice?.budget, { total: 6, used: 4, remaining: 2 });
      assert.deepEqual(practice.budget, { total: 8, used: 4, remaining: 4 }, 'the main budget is untouched');
      assert.equal(practice.paired, undefined, 'no paired statistics against run submissions');
      assert.ok(practice.stats.mean > first.stats.mean * 5, `practice ${practice.stats.mean} vs run ${first.stats.mean}`);

      const onDisk = parseSubmissionSummary(fs.readFileSync(path.join(dir, 'feedback', 'submit-0002', 'summary.json'), 'utf8'));
      assert.ok(onDisk.ok && onDisk.value.practice?.params['reset_bound'] === 0.02, 'summary.json marks it practice');
      const text = formatSummary(practice, []);
      assert.match(text, /^practice submission 2/);
      assert.match(text, /PRACTICE on a training configuration \(reset_bound=0\.02\): never selected/);

      const st = await r.client.status();
      assert.deepEqual(st.budget, { total: 8, used: 4, remaining: 4 });
      assert.equal(st.submissions, 1);
      assert.deepEqual(st.history.map((h) => h.submission), [1]);
      assert.notEqual(st.best?.submission, 2, 'a practice submission never becomes the best train mean');
      assert.deepEqual(st.practice?.budget, { total: 6, used: 4, remaining: 2 });
      assert.deepEqual(st.practice?.submissions.map((p) => p.submission), [2]);
      assert.equal((await r.client.feedback()).submission, 2, 'the latest feedback is the practice one');

      // Practice cases have seeds of their own: the same index gives other episodes than train.
      assert.notDeepEqual(practice.episodes.map((e) => e.length), first.episodes.map((e) => e.length));

      await assert.rejects(r.client.submit({ cases: '0-2', config: { params: {} } }), /3 episodes requested but only 2 remain in the practice budget/);
      await assert.rejects(r.client.finish([2]), /submission\(s\) 2 are practice submissions, which are never selected/);
      const report = await r.client.finish();
      assert.equal(report.selected, 1);
      assert.deepEqual(report.candidates.map((c) => c.submission), [1]);
    } finally {
      await r.client.close();
      await kill9(r);
    }
  });

  it('refuses a configuration outside the bounds or naming an undeclared parameter, charging nothing', async () => {
    const dir = makeWorkspace({ budget: 8 });
    writePolicy(dir, cartPolicy(0.5));
    const r = await spawnRunner(dir);
    try {
      await assert.rejects(r.client.submit({ cases: '0-1', config: { params: { reset_bound: 0.5 } } }), (e: Error) => /parameter "reset_bound" is outside its bounds \(reset_bound: number 0\.\.0\.2\), got 0\.5/.test(e.message) && /nothing was charged/.test(e.message));
      await assert.rejects(r.client.submit({ cases: '0-1', config: { params: { sutton_barto_reward: true } } }), /parameter "sutton_barto_reward" is not one a training configuration may change \(it may change reset_bound: number 0\.\.0\.2\)/);
      await assert.rejects(r.client.submit({ cases: '0-1', config: { env: 'Acrobot-v1', params: {} } }), /for Acrobot-v1, but this run's environment is CartPole-v1/);
      const st = await r.client.status();
      assert.equal(st.budget.used, 0);
      assert.equal(st.practice?.budget.used, 0);
      assert.equal(st.practice?.budget.total, 8, 'the practice budget defaults to the size of the budget');
      assert.equal(readEvents(dir).filter((e) => e.type === 'submit_started').length, 0);
      assert.equal(readEvents(dir).filter((e) => e.type === 'submit_rejected').length, 3);
    } finally {
      await r.client.close();
      await kill9(r);
    }
  });

  it('a runner killed during a practice submit charges nothing; one killed after its feedback charges it once', async () => {
    const dir = makeWorkspace({ budget: 8 });
    writePolicy(dir, slowPolicy(INTERRUPTIBLE_ITERATIONS));
    const r1 = await spawnRunner(dir);
    const progressed = new Promise<void>((resolve) => r1.client.on('run.progress', (p) => p.done >= 1 && resolve()));
    const submit = r1.client.submit({ cases: '0-5', config: { params: { reset_bound: 0.01 } } }).catch((e: unknown) => e);
    await progressed;
    await kill9(r1);
    await submit;
    const r2 = await spawnRunner(dir);
    try {
      let st = await r2.client.status();
      assert.equal(st.practice?.budget.used, 0, 'rolled back, not charged');
      assert.ok(st.recovery.some((n) => /submission 1 .*rolled back/.test(n)), st.recovery.join('; '));
      writePolicy(dir, cartPolicy(0.5));
      await r2.client.submit({ cases: '0-1', config: { params: { reset_bound: 0.01 } } });
      await kill9(r2);
      // The crash window between the feedback rename and the charge's journal line.
      const events = path.join(dir, '.policyforge', 'events.jsonl');
      const lines = fs.readFileSync(events, 'utf8').split('\n').filter(Boolean);
      fs.writeFileSync(events, `${lines.filter((l) => !l.includes('"type":"submitted"')).join('\n')}\n`);
      const r3 = await spawnRunner(dir);
      try {
        st = await r3.client.status();
        assert.equal(st.practice?.budget.used, 2, 'completed on restart, charged once to practice');
        assert.equal(st.budget.used, 0, 'and never to the main budget');
        assert.ok(st.recovery.some((n) => /completed on restart/.test(n)));
        const charges = readEvents(dir).filter((e) => e.type === 'submitted');
        assert.equal(charges.length, 1);
        assert.deepEqual(charges[0]!['practice'], { reset_bound: 0.01 });
      } finally {
        await r3.client.close();
        await kill9(r3);
      }
    } finally {
      await r2.client.close().catch(() => undefined);
      if (r2.child.exitCode === null && r2.child.signalCode === null) await kill9(r2);
    }
  });
});
