/**
 * The dashboard's view model: everything the panel shows, derived from the submission summaries
 * and the report in one pass so a render does no searching.
 */
import type { EpisodeError, EpisodeStatus } from '../../src/protocol/episodes';
import type { BudgetState, RunReport, SubmissionSummary } from '../../src/protocol/feedback';
import type { DashboardSnapshot, RunActivity } from '../../src/protocol/webview';

export interface DashboardData {
  envId: string | null;
  budget: BudgetState | null;
  submissions: SubmissionSummary[];
  report: RunReport | null;
  activity: RunActivity | null;
}

export function fromSnapshot(s: DashboardSnapshot): DashboardData {
  return { envId: s.envId, budget: s.budget, submissions: normalize(s.submissions), report: s.report, activity: s.activity };
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
  let n = 0;
  for (const [status, count] of Object.entries(s.statusCounts) as [EpisodeStatus, number | undefined][]) {
    if (status !== 'ok' && count !== undefined) n += count;
  }
  return n;
}

/** "0-7,12": the case list as the ranges the submit command accepts. */
export function caseRanges(cases: readonly number[]): string {
  if (cases.length === 0) return '';
  const sorted = [...new Set(cases)].sort((a, b) => a - b);
  const parts: string[] = [];
  let start = sorted[0] as number;
  let prev = start;
  for (let i = 1; i <= sorted.length; i++) {
    const v = sorted[i];
    if (v !== undefined && v === prev + 1) {
      prev = v;
      continue;
    }
    parts.push(start === prev ? String(start) : `${start}-${prev}`);
    if (v !== undefined) start = prev = v;
  }
  const repeats = cases.length - sorted.length;
  return parts.join(',') + (repeats > 0 ? ` (+${repeats} repeats)` : '');
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
  let best = -Infinity;
  const out: BestPoint[] = [];
  const byBudget = [...subs].sort((a, b) => a.budget.used - b.budget.used || a.submission - b.submission);
  for (const s of byBudget) {
    if (s.stats.count > 0 && Number.isFinite(s.stats.mean)) best = Math.max(best, s.stats.mean);
    out.push({ budgetUsed: s.budget.used, submission: s.submission, mean: s.stats.mean, best: Number.isFinite(best) ? best : NaN, editClass: s.edit?.class ?? 'unknown' });
  }
  return out;
}

export interface ErrorGroup {
  message: string;
  count: number;
  statuses: EpisodeStatus[];
  submissions: number[];
  cases: number[];
  location?: EpisodeError['location'];
  /** Submission and case of the first occurrence, for a replay link. */
  first: { submission: number; caseIndex: number };
}

/** Episode failures grouped by message, most frequent first. */
export function errorGroups(subs: readonly SubmissionSummary[]): ErrorGroup[] {
  const groups = new Map<string, ErrorGroup & { subSet: Set<number>; caseSet: Set<number>; statusSet: Set<EpisodeStatus> }>();
  for (const s of subs) {
    for (const e of s.episodes) {
      if (e.status === 'ok') continue;
      const message = e.error?.message ?? `(${e.status}, no message)`;
      const key = `${message}\u0000${e.error?.location ? `${e.error.location.file}:${e.error.location.line}` : ''}`;
      let g = groups.get(key);
      if (g === undefined) {
        g = { message, count: 0, statuses: [], submissions: [], cases: [], location: e.error?.location, first: { submission: s.submission, caseIndex: e.caseIndex }, subSet: new Set(), caseSet: new Set(), statusSet: new Set() };
        groups.set(key, g);
      }
      g.count++;
      g.subSet.add(s.submission);
      g.caseSet.add(e.caseIndex);
      g.statusSet.add(e.status);
    }
  }
  return [...groups.values()]
    .map(({ subSet, caseSet, statusSet, ...g }) => ({ ...g, submissions: [...subSet].sort((a, b) => a - b), cases: [...caseSet].sort((a, b) => a - b), statuses: [...statusSet] }))
    .sort((a, b) => b.count - a.count || a.message.localeCompare(b.message));
}

/** 95% normal interval of a mean. */
export function interval95(mean: number, stderr: number): [number, number] {
  return [mean - 1.96 * stderr, mean + 1.96 * stderr];
}
