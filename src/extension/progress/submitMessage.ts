/**
 * The one notification a finished submit leaves: its result and the budget it drew on. A practice
 * submission says so first, names its configuration and gives the practice budget left: its
 * `summary.budget` is the main budget, which it did not touch. No `vscode` import.
 */
import type { SubmissionSummary } from '../../protocol/feedback';
import { practiceParamsText } from '../../stats/practiceText';
import type { ScoreFormat } from '../../stats/scoreFormat';
import { plural } from '../shared/plural';

export function submitResultMessage(summary: SubmissionSummary, fmt: Pick<ScoreFormat, 'meanStderr'>): string {
  const failed = summary.stats.count - summary.stats.okCount;
  const result = `${fmt.meanStderr(summary.stats.mean, summary.stats.stderr)} over ${plural(summary.stats.count, 'episode')}${failed ? `, ${failed} failed` : ''}`;
  const p = summary.practice;
  if (p) return `Practice submission #${summary.submission} (${practiceParamsText(p.params)}): ${result} · ${p.budget.remaining} of the practice budget left; never selected`;
  return `Submission #${summary.submission}: ${result}${summary.edit ? ` (${summary.edit.class})` : ''} · ${summary.budget.remaining} left`;
}
