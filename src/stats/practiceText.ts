/** How a practice submission reads in feedback text: marked as practice first, its configuration and practice budget. */
import type { SubmissionSummary } from '../protocol/feedback';

/** "size=5, key_placement=near_door" */
export function practiceParamsText(params: Readonly<Record<string, number | boolean | string>>): string {
  const entries = Object.entries(params);
  return entries.length ? entries.map(([k, v]) => `${k}=${String(v)}`).join(', ') : 'the run’s own parameters';
}

/** The run's own submissions: what charts, best-so-far curves and diagnostics compare (practice never competes). */
export function runSubmissionsOnly<S extends Pick<SubmissionSummary, 'practice'>>(summaries: readonly S[]): S[] {
  return summaries.filter((s) => s.practice === undefined);
}

/** Lines under a practice submission's header; none for a run submission. */
export function practiceLines(s: SubmissionSummary): string[] {
  const p = s.practice;
  if (!p) return [];
  const lines = [
    `  PRACTICE on a training configuration (${practiceParamsText(p.params)}): never selected, not in the best train mean; validation and assessment use the unmodified environment`,
    `  practice budget ${p.budget.used}/${p.budget.total} used, ${p.budget.remaining} remaining (the main budget is untouched)`,
  ];
  if (p.reason) lines.push(`  why this configuration: ${p.reason}`);
  return lines;
}
