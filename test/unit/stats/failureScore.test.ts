import * as assert from 'node:assert/strict';
import { bestSoFar, bestSubmission, failuresOf } from '../../../src/stats/bestSubmission';
import { bestTrainSubmission, comparableEpisodes, statusBest } from '../../../src/stats/bestTrain';
import { episodeScore, scoredReturnStats, scoreEpisodes } from '../../../src/stats/failureScore';
import type { EpisodeStatus } from '../../../src/protocol/episodes';

const ep = (ret: number, status: EpisodeStatus = 'ok') => ({ return: ret, status });

describe('stats: failed episodes and the best submission', () => {
  it('a failed episode scores the failure return, never above its partial return; an ok one its return', () => {
    assert.equal(episodeScore(ep(-2, 'exception'), -500), -500, 'Acrobot throwing at step 2 is not "−2, better than any success"');
    assert.equal(episodeScore(ep(-60), -500), -60);
    for (const status of ['exception', 'timeout', 'invalid_action', 'memory', 'runner_fault'] as const) assert.equal(episodeScore(ep(3, status), 0), 0, status);
    assert.equal(episodeScore(ep(-1500, 'timeout'), -1000), -1500, 'a bound declared for an unbounded task never lifts a worse partial return');
    assert.equal(episodeScore(ep(NaN, 'exception'), -7), -7);
  });

  it('scoring keeps the partial return beside the score, and the mean counts the score', () => {
    const scored = scoreEpisodes([ep(-60), ep(-2, 'exception'), ep(-64)], -500);
    assert.deepEqual(scored.map((e) => [e.return, e.partialReturn]), [[-60, undefined], [-500, -2], [-64, undefined]]);
    const stats = scoredReturnStats([ep(-60), ep(-2, 'exception'), ep(-64)], -500);
    assert.equal(stats.mean, (-60 - 500 - 64) / 3);
    assert.equal(stats.okCount, 2);
    assert.equal(stats.min, -500);
  });

  it('ranking: higher mean, then fewer failures, then the later submission', () => {
    const items = [
      { submission: 1, mean: 5, okCount: 8, count: 8 },
      { submission: 2, mean: 5, okCount: 7, count: 8 },
      { submission: 3, mean: 4, okCount: 8, count: 8 },
    ];
    assert.equal(bestSubmission(items, (s) => s.mean, failuresOf)?.submission, 1);
    assert.equal(bestSubmission(items, (s) => s.mean)?.submission, 2, 'without failures the later submission takes the tie');
    const curve = bestSoFar(items, (s) => s.mean, failuresOf);
    assert.deepEqual(curve.map((p) => [p.bestSubmission, p.isBest, p.improved]), [[1, true, true], [1, false, false], [1, false, false]]);
  });

  it('the best train mean compares like with like: submissions below the stated episode count take no part', () => {
    const history = [
      { submission: 1, mean: -90, okCount: 16, count: 16 },
      { submission: 2, mean: -40, okCount: 2, count: 2 },
      { submission: 3, mean: -80, okCount: 8, count: 8 },
    ];
    assert.equal(bestTrainSubmission(history, 8)?.submission, 3, 'a lucky two-episode submission does not win');
    assert.equal(bestTrainSubmission(history, 1)?.submission, 2);
    assert.equal(bestTrainSubmission(history.slice(1, 2), 8), null);
    assert.equal(statusBest({ history, bestMinEpisodes: 8 })?.submission, 3);
    assert.equal(statusBest({ history })?.submission, 2, 'a runner that states no minimum compares every submission');
  });

  it('the comparable episode count is 8, or what the run allows', () => {
    assert.equal(comparableEpisodes({ minEpisodesPerSubmit: 1, maxEpisodesPerSubmit: 128, budget: 128 }), 8);
    assert.equal(comparableEpisodes({ minEpisodesPerSubmit: 1, maxEpisodesPerSubmit: 4, budget: 128 }), 4);
    assert.equal(comparableEpisodes({ minEpisodesPerSubmit: 1, maxEpisodesPerSubmit: 6, budget: 6 }), 6);
    assert.equal(comparableEpisodes({ minEpisodesPerSubmit: 16, maxEpisodesPerSubmit: 32, budget: 128 }), 16);
  });
});
