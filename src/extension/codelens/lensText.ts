/** CodeLens titles above `class Policy` and `act` (no `vscode` import). */
import type { SubmissionSummary } from '../../protocol/feedback';
import type { RunStatus } from '../../protocol/run';
import { formatMeanStderr, plural } from '../shared/format';

export function submitLensTitle(status: RunStatus, episodes: number): string | undefined {
  if (status.phase !== 'agent') return undefined;
  const left = status.budget.remaining;
  if (left === 0) return undefined;
  const n = Math.min(episodes, left);
  return `$(play) Submit ${plural(n, 'episode')} · ${left} left`;
}

export function lastResultLensTitle(summary: SubmissionSummary | undefined): string | undefined {
  if (!summary) return undefined;
  const failed = summary.stats.count - summary.stats.okCount;
  const edit = summary.edit ? ` · ${summary.edit.class}` : '';
  const fails = failed > 0 ? ` · ${failed} failed` : '';
  return `#${summary.submission}: ${formatMeanStderr(summary.stats.mean, summary.stats.stderr)}${fails}${edit}`;
}
