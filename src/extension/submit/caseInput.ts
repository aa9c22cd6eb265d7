/**
 * What the Submit… input box accepts: a count of episodes (`8`) or case ranges (`0-7,12`), checked
 * as the user types against the run's pool, per-submit bounds and remaining budget. The runner
 * checks again on admission; this only saves a round trip and says what is wrong right away.
 */
export type SubmitRequest = { episodes: number } | { cases: string };

export interface SubmitLimits {
  poolSize: number;
  remaining: number;
  minEpisodes: number;
  maxEpisodes: number;
}

export type ParsedSubmit = { ok: true; request: SubmitRequest; count: number; cases?: number[] } | { ok: false; message: string };

export type ParsedCases = { ok: true; cases: number[] } | { ok: false; message: string };

/** Parses "0-7,12, 3" into indices in the given order (ranges ascending); repeats are kept (they run and charge again). */
export function parseCaseRanges(text: string, poolSize: number): ParsedCases {
  const cases: number[] = [];
  const parts = text.split(',').map((p) => p.trim());
  for (const part of parts) {
    if (part === '') return { ok: false, message: 'empty item between commas' };
    const m = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (!m) return { ok: false, message: `"${part}" is not a case index or a range like 0-7` };
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    if (hi < lo) return { ok: false, message: `range ${part} runs backwards (write ${hi}-${lo})` };
    if (hi >= poolSize) return { ok: false, message: `case ${hi} is outside the pool 0-${poolSize - 1}` };
    for (let i = lo; i <= hi; i++) cases.push(i);
  }
  return { ok: true, cases };
}

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
  return { cases: compactRanges(cases) };
}

/** Indices as a range string in their original order: [0,1,2,5,3] → "0-2,5,3". */
export function compactRanges(cases: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < cases.length; ) {
    let j = i;
    while (j + 1 < cases.length && cases[j + 1] === (cases[j] as number) + 1) j++;
    parts.push(i === j ? `${cases[i]}` : `${cases[i]}-${cases[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}
