/**
 * Where Open Feedback takes the user for one submission: a panel, never the raw summary.json
 * (Open Feedback File does that). Failures come first: the replay of the first failed episode,
 * which shows its error and the step it happened at. Otherwise the dashboard, which shows the
 * submission among the others. No `vscode` import (unit-tested).
 */
import type { SubmissionSummary } from '../../protocol/feedback';

export type FeedbackTarget = { panel: 'replay'; submission: number; caseIndex: number } | { panel: 'dashboard'; submission: number };

export function feedbackTarget(summary: Pick<SubmissionSummary, 'submission' | 'episodes' | 'files'>): FeedbackTarget {
  const failed = summary.episodes.find((e) => e.status !== 'ok');
  // Without trajectories on disk a replay has nothing to draw.
  if (failed && !summary.files.evicted) return { panel: 'replay', submission: summary.submission, caseIndex: failed.caseIndex };
  return { panel: 'dashboard', submission: summary.submission };
}
