import assert from 'node:assert/strict';
import type { EpisodeSummary, SubmissionSummary } from '../../../src/protocol/feedback';
import { CASE_TABLE_ROWS, caseTable, episodesWorthOpening, formatSummary } from '../../../src/stats/feedbackText';
import { scoreFormat } from '../../../src/stats/scoreFormat';

function ep(caseIndex: number, ret: number, status: EpisodeSummary['status'] = 'ok', message?: string): EpisodeSummary {
  return { caseIndex, status, return: ret, length: Math.max(1, Math.round(ret)), terminated: true, truncated: false, wallMs: 1, ...(message ? { error: { message, location: { file: 'policy/policy.ts', line: 7, column: 3 } } } : {}) };
}

function summary(episodes: EpisodeSummary[], evicted = false): SubmissionSummary {
  const files = episodes.map((e, i) => `feedback/submit-0003/episodes/case-${String(e.caseIndex).padStart(3, '0')}${episodes.findIndex((x) => x.caseIndex === e.caseIndex) < i ? '-2' : ''}.jsonl`);
  return {
    submission: 3,
    checkpoint: 'a'.repeat(64),
    createdAt: '2026-01-01T00:00:00Z',
    envId: 'CartPole-v1',
    cases: episodes.map((e) => e.caseIndex),
    episodes,
    stats: { mean: 10, std: 1, stderr: 0.5, min: 1, max: 30, okCount: 1, count: episodes.length },
    statusCounts: {},
    wallMs: 10,
    budget: { total: 100, used: 10, remaining: 90 },
    files: { trajectories: evicted ? [] : files, logs: files.map((f) => f.replace('/episodes/', '/logs/').replace('.jsonl', '.txt')), evicted },
  };
}

describe('stats: feedback text', () => {
  it('worst and best among finished episodes, the first of each failure status, each with its own file', () => {
    const s = summary([ep(4, 12), ep(2, 30), ep(4, 3), ep(7, 1, 'exception', 'act() threw at step 2: Error: x'), ep(8, 2, 'timeout', 'act() at step 3 ran 80 ms'), ep(9, 1, 'exception', 'other')]);
    const open = episodesWorthOpening(s).map((o) => [o.why, o.episode.caseIndex, o.trajectory]);
    assert.deepEqual(open, [
      ['worst', 4, 'feedback/submit-0003/episodes/case-004-2.jsonl'],
      ['best', 2, 'feedback/submit-0003/episodes/case-002.jsonl'],
      ['failed', 7, 'feedback/submit-0003/episodes/case-007.jsonl'],
      ['failed', 8, 'feedback/submit-0003/episodes/case-008.jsonl'],
    ]);
  });

  it('names the log when the trajectory was evicted, and lists no best when every return ties', () => {
    const text = formatSummary(summary([ep(0, 5), ep(1, 5)], true), []);
    assert.match(text, /worth opening:\n {4}worst {3}case 0 {2}return 5\.0 {2}feedback\/submit-0003\/logs\/case-000\.txt \(trajectory evicted\)\n {2}files/);
  });

  it(`cuts the table at ${CASE_TABLE_ROWS} rows and says how many more are in summary.json`, () => {
    const rows = caseTable(summary(Array.from({ length: 25 }, (_, i) => ep(i, i))), scoreFormat(25));
    assert.equal(rows.length, 1 + CASE_TABLE_ROWS + 1);
    assert.equal(rows.at(-1), '    … 5 more episodes in summary.json');
  });
});
