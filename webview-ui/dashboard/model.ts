/**
 * The dashboard's view model: everything the panel shows, derived from the submission summaries
 * and the report in one pass so a render does no searching.
 */
import type { AgentRecord } from '../../src/protocol/agent';
import type { BudgetState, RunReport, SubmissionSummary } from '../../src/protocol/feedback';
import type { DashboardSnapshot, RunActivity } from '../../src/protocol/webview';
import { bestSoFar as bestSoFarRule } from '../../src/stats/bestSubmission';
import { bestTrainSubmission } from '../../src/stats/bestTrain';
import { groupErrors, type ErrorGroup } from '../../src/stats/errorGroups';
import { failedCount as failedOf } from '../../src/stats/returnStats';
import { runScoreFormat, type ScoreFormat } from '../../src/stats/scoreFormat';

export type { ErrorGroup };

export interface DashboardData {
  envId: string | null;
  budget: BudgetState | null;
  submissions: SubmissionSummary[];
  report: RunReport | null;
  activity: RunActivity | null;
  /** Episodes a submission needs before its train mean competes for "best" (1: every submission). */
  bestMinEpisodes: number;
  /** The agent launched on the run, with its spend and caps, when there is one. */
  agent?: AgentRecord | null;
}

export function fromSnapshot(s: DashboardSnapshot): DashboardData {
  return { envId: s.envId, budget: s.budget, submissions: normalize(s.submissions), report: s.report, activity: s.activity, bestMinEpisodes: s.bestMinEpisodes ?? 1, agent: s.agent ?? s.report?.agent ?? null };
}

/** Adds or replaces one submission (live update). */
export function upsert(d: DashboardData, summary: SubmissionSummary): DashboardData {
  const rest = d.submissions.filter((s) => s.submission !== summary.submission);
  const budget = d.budget === null || summary.budget.used >= d.budget.used ? summary.budget : d.budget;
  return { ...d, envId: d.envId ?? summary.envId, budget, submissions: normalize([...rest, summary]) };
}

function normalize(list: SubmissionSummary[]): SubmissionSummary[] {
  const byNumber = new Map<number, SubmissionSummary>();
  for (const s of list) byNumber.set(s.submission, s);
  return [...byNumber.values()].sort((a, b) => a.submission - b.submission);
}

export function budgetOf(d: DashboardData): BudgetState | null {
  return d.budget ?? d.report?.budget ?? d.submissions.at(-1)?.budget ?? null;
}

export function failedCount(s: SubmissionSummary): number {
  return failedOf(s.statusCounts);
}

/** How the dashboard prints returns: the run's format, as every other view does. */
export function scoreFormatOf(subs: readonly SubmissionSummary[]): ScoreFormat {
  return runScoreFormat(subs.map((s) => s.stats.mean));
}

/**
 * The best train mean of the run, by the one rule every view uses (src/stats/bestTrain.ts): among
 * submissions of at least `minEpisodes` episodes, fewer failures first on a tie, then the later.
 */
export function bestTrain(subs: readonly SubmissionSummary[], minEpisodes = 1): SubmissionSummary | null {
  const best = bestTrainSubmission(subs.map((s) => ({ submission: s.submission, mean: s.stats.mean, count: s.stats.count, okCount: s.stats.okCount })), minEpisodes);
  return best === null ? null : (subs.find((s) => s.submission === best.submission) ?? null);
}

export interface BestPoint {
  budgetUsed: number;
  submission: number;
  mean: number;
  best: number;
  editClass: string;
}

/** Best-so-far train mean against budget consumed, one point per submission. */
export function bestSoFar(subs: readonly SubmissionSummary[]): BestPoint[] {
  const byBudget = [...subs].sort((a, b) => a.budget.used - b.budget.used || a.submission - b.submission);
  return bestSoFarRule(byBudget, (s) => (s.stats.count > 0 ? s.stats.mean : null)).map((p) => ({
    budgetUsed: p.item.budget.used,
    submission: p.item.submission,
    mean: p.item.stats.mean,
    best: p.best,
    editClass: p.item.edit?.class ?? 'unknown',
  }));
}

/** Episode failures of the whole run grouped into distinct errors (src/stats/errorGroups.ts). */
export function errorGroups(subs: readonly SubmissionSummary[]): ErrorGroup[] {
  return groupErrors(subs);
}
