/** CodeLens titles above `class Policy` and `act` (no `vscode` import). */
import type { SubmissionSummary } from '../../protocol/feedback';
import type { RunStatus } from '../../protocol/run';
import { failedCount } from '../../stats/returnStats';
import { historyScoreFormat } from '../../stats/scoreFormat';
import { plural } from '../shared/plural';

export function submitLensTitle(status: RunStatus, episodes: number): string | undefined {
  if (status.phase !== 'agent') return undefined;
  const left = status.budget.remaining;
  if (left === 0) return undefined;
  const n = Math.min(episodes, left);
  return `$(play) Submit ${plural(n, 'episode')} · ${left} left`;
}

/** The latest submission's result, printed in the run's format (`history`: `run.status` history). */
export function lastResultLensTitle(summary: SubmissionSummary | undefined, history: RunStatus['history'] | undefined): string | undefined {
  if (!summary) return undefined;
  const fmt = historyScoreFormat(history?.length ? history : [summary.stats]);
  const failed = failedCount(summary.statusCounts);
  const edit = summary.edit ? ` · ${summary.edit.class}` : '';
  const fails = failed > 0 ? ` · ${failed} failed` : '';
  return `#${summary.submission}: ${fmt.meanStderr(summary.stats.mean, summary.stats.stderr)}${fails}${edit}`;
}
