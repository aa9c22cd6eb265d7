import * as assert from 'node:assert/strict';
import type { SubmissionSummary } from '../../../src/protocol/feedback';
import type { RunInfo, RunStatus } from '../../../src/protocol/run';
import { lastResultLensTitle, submitLensTitle } from '../../../src/extension/codelens/lensText';
import { buildProblems, diagnosticMessage, policyProblems } from '../../../src/extension/diagnostics/errorGroups';
import { RestartBackoff } from '../../../src/extension/runner/backoff';
import { statusBarView } from '../../../src/extension/statusBar/statusText';
import { episodeNodes, runNode, submissionNodes } from '../../../src/extension/views/runTreeModel';

function summary(n: number, fails: number[] = []): SubmissionSummary {
  const cases = [0, 1, 2, 3];
  const episodes = cases.map((c) => fails.includes(c)
    ? { caseIndex: c, status: 'exception' as const, return: 3, length: 3, terminated: false, truncated: false, wallMs: 1, error: { message: 'TypeError: x is undefined', location: { file: 'policy/policy.ts', line: 7, column: 12 } } }
    : { caseIndex: c, status: 'ok' as const, return: 100 + c, length: 100 + c, terminated: true, truncated: false, wallMs: 1 });
  const ok = episodes.filter((e) => e.status === 'ok').length;
  return {
    submission: n, checkpoint: 'abcdef0123456789', createdAt: '', envId: 'CartPole-v1', cases, episodes,
    stats: { mean: 101.5, std: 1.29, stderr: 0.645, min: 100, max: 103, okCount: ok, count: 4 },
    statusCounts: fails.length ? { ok, exception: fails.length } : { ok }, wallMs: 10,
    budget: { total: 128, used: 4 * n, remaining: 128 - 4 * n },
    edit: { class: n === 1 ? 'initial' : 'parametric', parent: n === 1 ? null : n - 1, linesAdded: 1, linesRemoved: 1, sizeBin: 'small', details: [] },
    files: { trajectories: [], logs: [], evicted: false },
  };
}

const info = { runId: 'r1', envId: 'CartPole-v1', poolSize: 128 } as RunInfo;
function status(subs: SubmissionSummary[]): RunStatus {
  return {
    phase: 'agent', budget: { total: 128, used: subs.length * 4, remaining: 128 - subs.length * 4 }, submissions: subs.length, maxSubmissions: 128,
    nextUnusedCase: 4, running: null, best: subs.length ? { submission: 2, mean: 101.5 } : null, restoredFrom: null, recovery: [],
    history: subs.map((s) => ({ submission: s.submission, checkpoint: s.checkpoint, parent: null, cases: s.cases, mean: s.stats.mean, okCount: s.stats.okCount, count: s.stats.count, budgetUsed: s.budget.used, editClass: s.edit?.class })),
  };
}

describe('extension: view models', () => {
  it('run tree: newest submission first with mean ± stderr and failures in the row, the rest in the tooltip', () => {
    const subs = [summary(1), summary(2, [1, 3])];
    const st = status(subs);
    const nodes = submissionNodes(st, new Map(subs.map((s) => [s.submission, s])), 1);
    assert.deepEqual(nodes.map((n) => n.label), ['#2', '#1 ★']);
    assert.equal(nodes[0]?.description, '102 ± 1 · 2 failed');
    assert.equal(nodes[1]?.description, '102 ± 1 · 4/4 ok');
    assert.match(nodes[0]?.tooltip ?? '', /Train mean: 102 ± 1\nEpisodes: 2\/4 ok, 2 failed\nCases: 0-3\nEdit: parametric/);
    assert.equal(nodes[0]?.icon?.id, 'error');
    assert.equal(nodes[1]?.icon?.id, 'circle-large-outline');
    assert.equal(nodes[1]?.contextValue, 'submission.selected');
    const eps = episodeNodes(subs[1] as SubmissionSummary, st);
    assert.equal(eps[1]?.contextValue, 'episode.failed');
    assert.match(eps[1]?.tooltip ?? '', /TypeError.*\nat policy\/policy.ts:7/);
    assert.equal(eps[0]?.description, '100 · 100 steps');
    assert.match(eps[0]?.tooltip ?? '', /return 100 in 100 steps, terminated/);
  });
  it('run tree rows fit the default sidebar width (label and description within 35 characters)', () => {
    const subs = [summary(1), summary(2, [1, 3])];
    const st = status(subs);
    const longInfo = { ...info, envId: 'MiniGrid-BlockedUnlockPickup-v0' } as RunInfo;
    const rows = [runNode(info, st), ...submissionNodes(st, new Map(subs.map((s) => [s.submission, s])), 1), ...episodeNodes(subs[1] as SubmissionSummary, st)];
    for (const r of rows) assert.ok(`${r.label}  ${r.description ?? ''}`.length <= 35, `${r.label}  ${r.description}`);
    assert.ok(runNode(longInfo, st).label.length <= 35);
  });
  it('run node and status bar show the best train mean by the protocol rule (a tie goes to the later submission)', () => {
    const st = status([summary(1), summary(2)]);
    assert.equal(runNode(info, st).description, 'best #2 · 102');
    assert.match(runNode(info, st).tooltip ?? '', /Budget: 8 used, 120 left of 128\nBest train mean: 102 \(#2\)/);
    assert.equal(statusBarView('CartPole-v1', st, 'ready').text, '$(beaker) 120/128 left · best 102');
    assert.match(statusBarView('CartPole-v1', st, 'ready').tooltip, /submission #2/);
    assert.equal(statusBarView('CartPole-v1', status([]), 'ready').text, '$(beaker) 128/128 left · no submission yet');
    assert.match(statusBarView('CartPole-v1', undefined, 'restarting').text, /restarting runner/);
  });
  it('CodeLens: submit count capped by budget left, last result with its edit class', () => {
    const st = status([summary(1)]);
    assert.equal(submitLensTitle(st, 8), '$(play) Submit 8 episodes · 124 left');
    assert.equal(submitLensTitle({ ...st, budget: { total: 128, used: 125, remaining: 3 } }, 8), '$(play) Submit 3 episodes · 3 left');
    assert.equal(submitLensTitle({ ...st, phase: 'complete' }, 8), undefined);
    assert.equal(lastResultLensTitle(summary(2, [0]), st.history), '#2: 102 ± 1 · 1 failed · parametric');
  });
  it('Problems: one entry per source line and message, with episode count and cases; runner faults stay out', () => {
    const problems = policyProblems(summary(3, [0, 2, 3]));
    assert.equal(problems.length, 1);
    const p = problems[0]!;
    assert.deepEqual([p.file, p.line, p.column, p.group.status, p.group.message, p.group.cases], ['policy/policy.ts', 7, 12, 'exception', 'TypeError: x is undefined', [0, 2, 3]]);
    assert.equal(diagnosticMessage(p.group, 3), 'TypeError: x is undefined (3 episodes of submission #3; cases 0,2-3)');
    const steps = summary(4, [0, 1, 2]);
    steps.episodes[0]!.error!.message = 'act() threw at step 16: Error: boom';
    steps.episodes[1]!.error!.message = 'act() threw at step 40: Error: boom';
    steps.episodes[2] = { ...steps.episodes[2]!, status: 'runner_fault', error: { message: 'environment CartPole-v1 failed in step() at step 3' } };
    assert.deepEqual(policyProblems(steps).map((x) => [x.group.message, x.group.cases]), [['act() threw: Error: boom', [0, 1]]]);
  });
  it('build problems of a rejected submit: blocking errors and non-blocking type warnings, at their lines', () => {
    const data = { reason: 'bundle_does_not_build', diagnostics: [
      { file: 'policy/policy.ts', line: 18, column: 23, message: 'Unexpected ";"', severity: 'error', kind: 'syntax' },
      { file: 'policy/helpers.ts', line: 2, column: 5, message: "Type 'string' is not assignable to type 'number'", severity: 'warning', kind: 'type' },
      { nonsense: true },
    ] };
    assert.deepEqual(buildProblems(data), [
      { file: 'policy/policy.ts', line: 18, column: 23, message: 'Unexpected ";"', severity: 'error' },
      { file: 'policy/helpers.ts', line: 2, column: 5, message: "Type 'string' is not assignable to type 'number'", severity: 'warning' },
    ]);
    assert.deepEqual(buildProblems(undefined), []);
    assert.deepEqual(buildProblems({ reason: 'x' }), []);
  });
  it('restart backoff doubles up to the cap, resets after a stable run and gives up after repeated quick deaths', () => {
    const b = new RestartBackoff({ baseMs: 100, maxMs: 500, stableMs: 1000, maxAttempts: 4 });
    assert.deepEqual([b.next(0), b.next(0), b.next(0), b.next(0), b.next(0)], [100, 200, 400, 500, null]);
    assert.equal(b.next(5000), 100);
  });
});
