/**
 * What the Submit… input box accepts: a count of episodes (`8`) or case ranges (`0-7,12`), checked
 * as the user types against the run's pool, per-submit bounds and remaining budget. The runner
 * checks again on admission; this only saves a round trip and says what is wrong right away.
 */
import { formatCaseRanges, parseCaseRanges } from '../../protocol/caseRanges';

export type SubmitRequest = { episodes: number } | { cases: string };

export interface SubmitLimits {
  poolSize: number;
  remaining: number;
  minEpisodes: number;
  maxEpisodes: number;
}

export type ParsedSubmit = { ok: true; request: SubmitRequest; count: number; cases?: number[] } | { ok: false; message: string };

export function parseSubmitInput(raw: string, limits: SubmitLimits): ParsedSubmit {
  const text = raw.trim();
  if (text === '') return { ok: false, message: 'Type a number of episodes (e.g. 8) or case ranges (e.g. 0-7,12)' };
  let request: SubmitRequest;
  let count: number;
  let cases: number[] | undefined;
  if (/^\d+$/.test(text) && !text.includes('-')) {
    count = Number(text);
    if (count === 0) return { ok: false, message: 'Submit at least one episode' };
    request = { episodes: count };
  } else {
    const parsed = parseCaseRanges(text, limits.poolSize);
    if (!parsed.ok) return parsed;
    cases = parsed.cases;
    count = cases.length;
    request = { cases: text.replace(/\s+/g, '') };
  }
  if (count < limits.minEpisodes) return { ok: false, message: `At least ${limits.minEpisodes} episodes per submission` };
  if (count > limits.maxEpisodes) return { ok: false, message: `At most ${limits.maxEpisodes} episodes per submission` };
  if (count > limits.remaining) return { ok: false, message: `${count} episodes exceed the budget left (${limits.remaining})` };
  return cases ? { ok: true, request, count, cases } : { ok: true, request, count };
}

/** The input for a resubmission of exactly the cases a submission ran (a matched comparison). */
export function resubmitRequest(cases: readonly number[]): SubmitRequest {
  return { cases: formatCaseRanges(cases) };
}
