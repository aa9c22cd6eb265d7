import * as assert from 'node:assert/strict';
import type { SubmissionSummary } from '../../../src/protocol/feedback';
import { bestSoFar, bestTrain, errorGroups, failedCount } from '../../../webview-ui/dashboard/model';
import { computeDiagnostics } from '../../../webview-ui/diagnostics/model';
import { episodeResult, replayScoreFormat } from '../../../webview-ui/replay/model';
import { makeRun } from './fixtures';

/** The same run with each submission's train mean set: [1, 5, 5, 3] makes #2 and #3 tie. */
function withMeans(means: number[]): SubmissionSummary[] {
  return makeRun({ submissions: means.length, episodes: 4, budget: 64, failRate: 0 }).map((s, i) => ({ ...s, stats: { ...s.stats, mean: means[i]!, count: 4 } }));
}

describe('webview view models', () => {
  it('dashboard: the best train mean and the best-so-far curve follow the protocol rule on ties', () => {
    const subs = withMeans([1, 5, 5, 3]);
    assert.equal(bestTrain(subs)?.submission, subs[2]!.submission);
    assert.deepEqual(bestSoFar(subs).map((p) => p.best), [1, 5, 5, 5]);
    assert.equal(bestTrain([]), null);
  });

  it('dashboard: failures counted from the status counts, errors grouped across submissions', () => {
    const subs = makeRun({ submissions: 6, episodes: 8, budget: 64, failRate: 0.3 });
    const failed = subs.reduce((n, s) => n + failedCount(s), 0);
    assert.ok(failed > 0);
    assert.equal(errorGroups(subs).reduce((n, g) => n + g.count, 0), failed);
  });

  it('diagnostics: a tie is not an improvement, but the later submission is the best', () => {
    const subs = withMeans([1, 5, 5, 3]);
    const d = computeDiagnostics(subs, null);
    assert.deepEqual(d.rows.map((r) => r.newBest), [true, true, false, false]);
    assert.equal(d.best, subs[2]!.submission);
    assert.equal(d.format.decimals, 2);
  });

  it('replay: returns print in the run’s format the host sends, else from the episodes shown', () => {
    const ep = { return: 0.39, length: 12 };
    assert.equal(episodeResult(ep, { return: 0, steps: 0 }, replayScoreFormat({ returnScale: 0.9, sides: [] })), 'return 0.390 in 12 steps');
    assert.equal(episodeResult(null, { return: 500, steps: 500 }, replayScoreFormat({ returnScale: 500, sides: [] })), 'return 500 in 500 steps');
    assert.equal(replayScoreFormat(null).score(0.39), '0.390');
  });
});
