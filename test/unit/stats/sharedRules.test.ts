import * as assert from 'node:assert/strict';
import { formatCaseRanges, formatCaseSet, parseCaseRanges } from '../../../src/protocol/caseRanges';
import type { EpisodeSummary } from '../../../src/protocol/feedback';
import { bestSoFar, bestSubmission } from '../../../src/stats/bestSubmission';
import { errorMessageKey, groupErrors } from '../../../src/stats/errorGroups';
import { failedCount, returnStats } from '../../../src/stats/returnStats';
import { decimalsForScale, returnScale, runScoreFormat } from '../../../src/stats/scoreFormat';

function episode(caseIndex: number, status: EpisodeSummary['status'], message?: string, line?: number): EpisodeSummary {
  return {
    caseIndex, status, return: 1, length: 1, terminated: status === 'ok', truncated: false, wallMs: 1,
    ...(message ? { error: { message, ...(line ? { location: { file: 'policy/policy.ts', line, column: 3 } } : {}) } } : {}),
  };
}

describe('stats: the shared rules', () => {
  it('number format: three significant digits of the run’s largest train mean, one precision for the whole run', () => {
    const cartPole = runScoreFormat([9.4, 500, 31.25]);
    assert.equal(cartPole.meanStderr(500, 0), '500 ± 0');
    assert.equal(cartPole.meanStderr(31.25, 8.61), '31 ± 9');
    const miniGrid = runScoreFormat([0.39, 0.2125]);
    assert.equal(miniGrid.meanStderr(0.39, 0.0123), '0.390 ± 0.012');
    assert.equal(miniGrid.score(0), '0.000');
    const pendulum = runScoreFormat([-1234.5, -150.2]);
    assert.equal(pendulum.score(-150.2), '-150');
    assert.equal(pendulum.score(-0.2), '0', 'no sign on a zero');
    assert.equal(runScoreFormat([22.4, 9]).score(9), '9.0');
    assert.deepEqual([decimalsForScale(0), decimalsForScale(0.0123), decimalsForScale(1), decimalsForScale(99.9), decimalsForScale(100)], [3, 4, 2, 1, 0]);
    assert.equal(returnScale([NaN, -3, 2]), 3);
    assert.equal(cartPole.score(NaN), '—');
    assert.equal(cartPole.score(undefined), '—');
    assert.deepEqual([cartPole.delta(12.2), cartPole.delta(-3.4), cartPole.delta(0.2), cartPole.delta(null)], ['+12', '-3', '0', '—']);
  });

  it('best submission: highest mean, a tie goes to the later submission whatever the order, no finite mean takes no part', () => {
    const subs = [{ submission: 3, mean: 30 }, { submission: 1, mean: 10 }, { submission: 2, mean: 30 }, { submission: 4, mean: NaN }];
    assert.equal(bestSubmission(subs, (s) => s.mean)?.submission, 3);
    assert.equal(bestSubmission([...subs].reverse(), (s) => s.mean)?.submission, 3);
    assert.equal(bestSubmission([{ submission: 1, mean: NaN }], (s) => s.mean), null);
    assert.equal(bestSubmission([], () => 1), null);
    const curve = bestSoFar([{ submission: 1, mean: 5 }, { submission: 2, mean: 5 }, { submission: 3, mean: 4 }, { submission: 4, mean: 7 }], (s) => s.mean);
    assert.deepEqual(curve.map((p) => [p.best, p.bestSubmission, p.isBest, p.improved]), [[5, 1, true, true], [5, 2, true, false], [5, 2, false, false], [7, 4, true, true]]);
  });

  it('error groups: step numbers stripped, runner faults apart, one group per location and status', () => {
    assert.equal(errorMessageKey('act() threw at step 16: TypeError: x'), 'act() threw: TypeError: x');
    assert.equal(errorMessageKey('reading the action of step 3 threw'), 'reading the action threw');
    assert.equal(errorMessageKey('step 40: action 7 is not in Discrete(3)'), 'action 7 is not in Discrete(3)');
    assert.equal(errorMessageKey('act() at step 9 ran 1203 ms, longer than the 1000 ms limit'), 'act() ran longer than the 1000 ms limit');
    const groups = groupErrors([
      { submission: 2, episodes: [episode(0, 'exception', 'act() threw at step 16: Error: boom', 4), episode(1, 'ok'), episode(5, 'runner_fault', 'environment X failed in step() at step 2')] },
      { submission: 1, episodes: [episode(3, 'exception', 'act() threw at step 40: Error: boom', 4), episode(3, 'exception', 'act() threw at step 41: Error: boom', 4), episode(4, 'exception', 'act() threw at step 2: Error: boom', 9), episode(6, 'timeout')] },
    ]);
    assert.deepEqual(groups.map((g) => [g.source, g.status, g.message, g.location?.line, g.count, g.submissions, g.cases, `${g.first.submission}/${g.first.caseIndex}`]), [
      ['policy', 'exception', 'act() threw: Error: boom', 4, 3, [1, 2], [0, 3], '1/3'],
      ['policy', 'exception', 'act() threw: Error: boom', 9, 1, [1], [4], '1/4'],
      ['policy', 'timeout', 'timeout (no message)', undefined, 1, [1], [6], '1/6'],
      ['runner', 'runner_fault', 'environment X failed in step()', undefined, 1, [2], [5], '2/5'],
    ]);
  });

  it('return statistics: sample std, stderr, failures counted by status', () => {
    const s = returnStats([{ return: 1, status: 'ok' }, { return: 3, status: 'exception' }]);
    assert.deepEqual(s, { mean: 2, std: Math.SQRT2, stderr: 1, min: 1, max: 3, okCount: 1, count: 2 });
    assert.deepEqual(returnStats([]), { mean: 0, std: 0, stderr: 0, min: 0, max: 0, okCount: 0, count: 0 });
    assert.equal(failedCount({ ok: 3, exception: 2, runner_fault: 1 }), 3);
  });

  it('case ranges: parsed in the order written, printed back to the same list; sets print sorted', () => {
    assert.deepEqual(parseCaseRanges('0-3,7, 9-10,0'), { ok: true, cases: [0, 1, 2, 3, 7, 9, 10, 0] });
    assert.equal(formatCaseRanges([0, 1, 2, 3, 7, 9, 10, 0]), '0-3,7,9-10,0');
    assert.equal(formatCaseSet([5, 1, 2, 3, 9, 1]), '1-3,5,9');
    assert.match((parseCaseRanges('5-2') as { message: string }).message, /runs backwards \(write 2-5\)/);
    assert.match((parseCaseRanges('0-200', 128) as { message: string }).message, /case 200 is outside the pool 0-127/);
    assert.equal(parseCaseRanges('0-200').ok, true, 'without a pool size only the syntax is checked');
    assert.equal(parseCaseRanges('0-99999999').ok, false);
    assert.equal(parseCaseRanges('1,,2').ok, false);
  });
});
