/**
 * Episode failures grouped into distinct errors: the same throw hit at step 16 in one case and at
 * step 40 in another is one error. Runner faults (environment or runner bugs, never charged) form
 * groups of their own and never merge with a policy's errors. The Problems panel, the dashboard
 * and the CLI all list these groups.
 */
import type { EpisodeStatus, SourceLocation } from '../protocol/episodes';
import type { EpisodeSummary } from '../protocol/feedback';

export type ErrorSource = 'policy' | 'runner';

export interface ErrorGroup {
  source: ErrorSource;
  status: EpisodeStatus;
  /** The message with its step numbers (and a timeout's measured duration) taken out. */
  message: string;
  location?: SourceLocation;
  /** Episodes that hit it. */
  count: number;
  /** Submissions and cases that hit it, ascending. */
  submissions: number[];
  cases: number[];
  /** Where it first occurred (lowest submission, then its episode order), for a replay link. */
  first: { submission: number; caseIndex: number };
}

/** The part of a failure message that is the same wherever in the episode it happened. */
export function errorMessageKey(message: string): string {
  return message
    .replace(/^step \d+: /, '')
    .replace(/ (?:at|of) step \d+/g, '')
    .replace(/ ran \d+ ms, longer than/, ' ran longer than');
}

export function errorSource(status: EpisodeStatus): ErrorSource {
  return status === 'runner_fault' ? 'runner' : 'policy';
}

/** Failures of the given submissions grouped by source, status, location and message; most frequent first. */
export function groupErrors(submissions: readonly { submission: number; episodes: readonly EpisodeSummary[] }[]): ErrorGroup[] {
  const groups = new Map<string, ErrorGroup>();
  for (const s of [...submissions].sort((a, b) => a.submission - b.submission)) {
    for (const e of s.episodes) {
      if (e.status === 'ok') continue;
      const source = errorSource(e.status);
      const message = e.error?.message ? errorMessageKey(e.error.message) : `${e.status} (no message)`;
      const loc = e.error?.location;
      const key = [source, e.status, loc ? `${loc.file}:${loc.line}:${loc.column}` : '', message].join('\u0000');
      let g = groups.get(key);
      if (g === undefined) {
        g = { source, status: e.status, message, count: 0, submissions: [], cases: [], first: { submission: s.submission, caseIndex: e.caseIndex } };
        if (loc) g.location = loc;
        groups.set(key, g);
      }
      g.count++;
      if (!g.submissions.includes(s.submission)) g.submissions.push(s.submission);
      if (!g.cases.includes(e.caseIndex)) g.cases.push(e.caseIndex);
    }
  }
  const out = [...groups.values()];
  for (const g of out) g.cases.sort((a, b) => a - b);
  // Policy errors before runner faults, then the most frequent first.
  return out.sort((a, b) => (a.source === b.source ? 0 : a.source === 'policy' ? -1 : 1) || b.count - a.count || a.message.localeCompare(b.message));
}
