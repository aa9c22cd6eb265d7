import assert from 'node:assert/strict';
import type { EpisodeExecutor } from '../../../src/runner/executor';
import type { ProgressNotification, RunStatus } from '../../../src/protocol/run';
import { formatSummary } from '../../../src/stats/feedbackText';
import { cartPolicy, connect, makeWorkspace, sharedExecutor, startHost, useInProcessRunners, writePolicy } from './helpers';

/** Acrobot: the policy throws at its second act, so the episode has reached −1 when it fails. */
const throwsAtStep2 = `export class Policy {
  private t = 0;
  act(o: Observation): Action {
    if (++this.t === 2) throw new Error('boom at step 2');
    return o[5]! > 0 ? 2 : 0;
  }
}
`;
/** Acrobot: pump energy with the sign of the second joint's velocity; swings up in a few hundred steps. */
const pumps = 'export class Policy { act(o: Observation): Action { return o[5]! > 0 ? 2 : 0; } }\n';

describe('runner: failed episodes score the failure return', function () {
  this.timeout(120_000);
  useInProcessRunners();

  it('Acrobot: an exception at step 2 counts −500 in the mean, the partial return kept beside it; it is not the best train mean', async () => {
    const dir = makeWorkspace({ envId: 'Acrobot-v1', budget: 32, validationCases: 2, heldOutCases: 2 });
    const host = await startHost(dir);
    const client = await connect(host);
    try {
      writePolicy(dir, throwsAtStep2);
      const failed = await client.submit({ cases: '0-7' });
      assert.equal(failed.failureReturn, -500);
      assert.equal(failed.stats.mean, -500);
      assert.equal(failed.stats.okCount, 0);
      for (const e of failed.episodes) {
        assert.equal(e.status, 'exception');
        assert.equal(e.return, -500);
        assert.equal(e.partialReturn, -1, 'one step was taken before the throw');
      }
      const text = formatSummary(failed, (await client.status()).history);
      assert.match(text, /8 failed episode\(s\) scored at the failure return -500 in the mean/);
      assert.match(text, /\(partial -1(\.0+)?\) policy\/policy\.ts:4/);

      writePolicy(dir, pumps);
      const ok = await client.submit({ cases: '8-15' });
      assert.equal(ok.stats.okCount, 8);
      assert.ok(ok.stats.mean > -500 && ok.failureReturn === -500);
      assert.equal(ok.episodes[0]!.partialReturn, undefined);

      // Two lucky episodes of the failing policy's sibling: below the comparable count, not "best".
      writePolicy(dir, throwsAtStep2.replace('=== 2', '=== 1e9'));
      await client.submit({ cases: '16-17' });
      const st: RunStatus = await client.status();
      assert.equal(st.bestMinEpisodes, 8);
      assert.equal(st.best?.submission, 2);
      assert.deepEqual(st.history.map((h) => h.mean).slice(0, 1), [-500]);
    } finally {
      await client.close();
      await host.close();
    }
  });

  it('validation and assessment score failures at −500 too; on equal means the candidate with fewer failures wins, later or not', async () => {
    const dir = makeWorkspace({ envId: 'Acrobot-v1', budget: 16, validationCases: 4, heldOutCases: 4 });
    const host = await startHost(dir);
    const client = await connect(host);
    try {
      // Zero torque never lifts the tip: −500 in every episode, with no failure.
      writePolicy(dir, 'export class Policy { act(): Action { return 1; } }\n');
      await client.submit({ cases: '0-1' });
      // Fails at step 2 with a partial return of −1: under partial-return scoring it would win.
      writePolicy(dir, throwsAtStep2);
      await client.submit({ cases: '2-3' });
      const report = await client.finish();
      const byNumber = new Map(report.candidates.map((c) => [c.submission, c]));
      assert.deepEqual([byNumber.get(1)?.validationMean, byNumber.get(1)?.validationOkCount], [-500, 4]);
      assert.deepEqual([byNumber.get(2)?.validationMean, byNumber.get(2)?.validationOkCount], [-500, 0], 'validation scores each failure at −500, not its partial −1');
      assert.equal(report.selected, 1, 'equal means: fewer failures wins over the later submission');
      assert.equal(report.failureReturn, -500);
    } finally {
      await client.close();
      await host.close();
    }
    // The failing policy alone: selected (a run always selects) and assessed at −500 per episode.
    const alone = makeWorkspace({ envId: 'Acrobot-v1', budget: 16, validationCases: 2, heldOutCases: 4 });
    const host2 = await startHost(alone);
    const client2 = await connect(host2);
    try {
      writePolicy(alone, throwsAtStep2);
      await client2.submit({ cases: '0-1' });
      const report = await client2.finish();
      assert.equal(report.selected, 1);
      assert.deepEqual([report.heldOut?.mean, report.heldOut?.okCount, report.heldOut?.count], [-500, 0, 4]);
    } finally {
      await client2.close();
      await host2.close();
    }
  });

  it('validation runs the candidates at once, reports candidates and episodes done, and status says what it is doing', async () => {
    const dir = makeWorkspace({ budget: 10, validationCases: 6, heldOutCases: 3 });
    const real = sharedExecutor();
    let running = 0;
    let most = 0;
    const spy: EpisodeExecutor = {
      build: (root, o) => real.build(root, o),
      close: () => Promise.resolve(),
      runBatch: async (request) => {
        most = Math.max(most, ++running);
        try {
          return await real.runBatch(request);
        } finally {
          running--;
        }
      },
    };
    const host = await startHost(dir, { executor: spy });
    const client = await connect(host);
    try {
      for (const k of [0.5, 0.1, -0.2, 1]) {
        writePolicy(dir, cartPolicy(k));
        await client.submit({ cases: '0-1' });
      }
      most = 0;
      const progress: ProgressNotification[] = [];
      const statuses: RunStatus[] = [];
      client.on('run.progress', (p) => {
        progress.push(p);
        if (p.phase === 'validation' && statuses.length === 0) void client.status().then((s) => statuses.push(s));
      });
      const report = await client.finish();
      assert.equal(report.candidates.length, 4);
      assert.ok(most >= 4, `the four validations ran at once (at most ${most} batches were running)`);
      const validation = progress.filter((p) => p.phase === 'validation');
      assert.ok(validation.length >= 2);
      const last = validation.at(-1)!;
      assert.deepEqual([last.done, last.total, last.candidates], [24, 24, { done: 4, total: 4 }]);
      for (let i = 1; i < validation.length; i++) assert.ok(validation[i]!.done >= validation[i - 1]!.done && validation[i]!.candidates!.done >= validation[i - 1]!.candidates!.done);
      const assessment = progress.filter((p) => p.phase === 'assessment');
      assert.deepEqual(assessment.at(-1), { phase: 'assessment', submission: report.selected, done: 3, total: 3, candidates: { done: 1, total: 1 } });
      const during = statuses[0];
      assert.ok(during?.finishing, 'status answers during the finish with what it is doing');
      assert.equal(during.finishing.phase, 'validation');
      assert.equal(during.finishing.candidatesTotal, 4);
      assert.equal((await client.status()).finishing, null);
    } finally {
      await client.close();
      await host.close();
    }
  });
});
