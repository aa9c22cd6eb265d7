import assert from 'node:assert/strict';
import type { RunReport, SubmissionSummary } from '../../../src/protocol/feedback';
import { submitResultText, submitWarnings, warningMarkdown } from '../../../src/extension/lmTools/submitText';
import { formatSummary } from '../../../src/stats/feedbackText';
import { formatReport } from '../../../src/stats/reportText';

const summary: SubmissionSummary = {
  submission: 2,
  checkpoint: 'b'.repeat(64),
  createdAt: '2026-01-01T00:00:00Z',
  envId: 'CartPole-v1',
  cases: [2, 3],
  episodes: [2, 3].map((caseIndex) => ({ caseIndex, status: 'ok' as const, return: 40, length: 40, terminated: true, truncated: false, wallMs: 1 })),
  stats: { mean: 40, std: 0, stderr: 0, min: 40, max: 40, okCount: 2, count: 2 },
  statusCounts: { ok: 2 },
  wallMs: 10,
  budget: { total: 4, used: 4, remaining: 0 },
  files: { trajectories: [], logs: [], evicted: false },
};
const stats = { mean: 41, std: 1, stderr: 0.5, min: 40, max: 42, okCount: 2, count: 2 };
const report = {
  envId: 'CartPole-v1',
  budget: { total: 4, used: 4, remaining: 0 },
  selectionMode: 'paper',
  selected: 2,
  selectedCheckpoint: 'b'.repeat(64),
  candidates: [{ submission: 2, trainMean: 40, validationMean: 41, validationStderr: 0.5 }],
  heldOut: stats,
  starterHeldOut: null,
} as unknown as RunReport;
/** A run whose only submission so far is #1 (two episodes, train mean 30). */
const run = (used: number) => ({ budget: { used, total: 4, remaining: 4 - used }, history: [{ submission: 1, mean: 30, count: 2, okCount: 2 }] });
const check = { typeErrors: 1, diagnostics: [{ file: 'policy/policy.ts', line: 4, column: 10, message: "Type 'string' is not assignable to type 'number'.", severity: 'error' as const, kind: 'type' as const }] };

describe('LM submit tool: what it says before and after the charge', () => {
  it('warns in the confirmation about type errors and the last of the budget, unless strict', () => {
    const w = submitWarnings({ cases: '2-3' }, check, run(2));
    assert.match(w.typeErrors[0]!, /^warning: policy\/ has 1 type error\(s\); it runs anyway and is charged \(`strict: true` refuses instead\):$/);
    assert.match(w.lastBudget!, /^warning: this submit spends the last 2 episodes .* call the policyforge_finish tool with `candidates: \[1\]` instead/);
    const md = warningMarkdown(w);
    assert.match(md, /\*\*warning: policy\/ has 1 type error/);
    assert.match(md, /- `policy\/policy\.ts:4:10 Type 'string'/);
    assert.match(md, /\*\*warning: this submit spends the last 2 episodes/);
    assert.deepEqual(submitWarnings({ cases: '2-3', strict: true }, check, run(0)), { typeErrors: [], lastBudget: null });
  });

  it('returns the warnings, the feedback and, after the last of the budget, the report as the CLI prints it', () => {
    const w = submitWarnings({ episodes: 2 }, null, run(2));
    const text = submitResultText(w, summary, [], report);
    assert.ok(text.startsWith(`${w.lastBudget}\n${formatSummary(summary, [])}`));
    assert.ok(text.endsWith(`That submit spent the last of the budget, so the run has ended: the runner validated the candidates and assessed the selected one on hidden cases.\n${formatReport(report, [])}`));
    assert.equal(submitResultText({ typeErrors: [], lastBudget: null }, summary, [], undefined), formatSummary(summary, []));
  });
});
