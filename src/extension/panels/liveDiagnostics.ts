/**
 * Run diagnostics while the run goes on. The edit analysis runs on every submit and its result is
 * in each summary.json (`edit`), so the diagnostics panel need not wait for report.json: the same
 * arithmetic the report uses (analysis/diagnostics.ts) runs here on the summaries. Only the
 * checkpoints' complexity metrics, which need the policy sources parsed, wait for the report.
 */
import { runDiagnostics } from '../../analysis/diagnostics';
import type { DiagnosticsSubmission, RunDiagnostics } from '../../protocol/analysis';
import type { SubmissionSummary } from '../../protocol/feedback';

export function liveDiagnostics(summaries: readonly SubmissionSummary[]): RunDiagnostics | null {
  if (summaries.length === 0) return null;
  const sorted = [...summaries].sort((a, b) => a.submission - b.submission);
  const input: DiagnosticsSubmission[] = sorted.map((s, i) => ({
    submission: s.submission,
    // Without an edit (its analysis failed or timed out) the lineage parent is the previous submission.
    parent: s.edit !== undefined ? s.edit.parent : i === 0 ? null : (sorted[i - 1]?.submission ?? null),
    budgetUsed: s.budget.used,
    trainMean: s.stats.count > 0 && Number.isFinite(s.stats.mean) ? s.stats.mean : null,
    edit: s.edit ?? null,
    metrics: null,
  }));
  return runDiagnostics(input);
}
