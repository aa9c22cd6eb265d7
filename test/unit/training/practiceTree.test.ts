import assert from 'node:assert/strict';
import type { RunStatus } from '../../../src/protocol/run';
import { submissionNodes } from '../../../src/extension/views/runTreeModel';
import { runSubmissionsOnly } from '../../../src/stats/practiceText';

describe('practice submissions in the Run tree and the panels', () => {
  const status: RunStatus = {
    phase: 'agent', budget: { total: 16, used: 4, remaining: 12 }, submissions: 1, maxSubmissions: 100, nextUnusedCase: 4, running: null,
    best: null, restoredFrom: null, recovery: [],
    history: [{ submission: 1, checkpoint: 'abcdef0123456789', parent: null, cases: [0, 1, 2, 3], mean: 9.5, okCount: 4, count: 4, budgetUsed: 4 }],
    practice: { budget: { total: 16, used: 4, remaining: 12 }, submissions: [{ submission: 2, mean: 180, count: 4, params: { size: 5, key_placement: 'near_door' } }] },
  };

  it('lists practice with the run submissions, newest first, marked practice and not offering run actions', () => {
    const nodes = submissionNodes(status, new Map(), null);
    assert.deepEqual(nodes.map((n) => n.label), ['#2 practice', '#1']);
    const p = nodes[0]!;
    assert.equal(p.contextValue, 'submission.practice');
    assert.equal(p.submission, 2);
    assert.match(p.tooltip ?? '', /never selected/);
    assert.match(p.tooltip ?? '', /size=5, key_placement=near_door/);
    assert.ok(p.label.length + (p.description ?? '').length <= 35, `${p.label} ${p.description}`);
  });

  it('charts and diagnostics compare the run submissions only', () => {
    const run = runSubmissionsOnly([{ submission: 1 }, { submission: 2, practice: { params: {}, budget: { total: 1, used: 1, remaining: 0 } } }]);
    assert.deepEqual(run.map((s) => s.submission), [1]);
  });
});
