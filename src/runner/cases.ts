/** Case selections: `"0-7,12"` range strings, index lists, or "the next n unused indices". */

export type CaseParse = { ok: true; cases: number[] } | { ok: false; message: string; index?: number };

/** Parses "0-7,12" into [0..7, 12] (order kept, repeats kept: each repeat runs and charges again). */
export function parseCaseRanges(text: string): CaseParse {
  const out: number[] = [];
  for (const raw of text.split(',')) {
    const part = raw.trim();
    if (part === '') return { ok: false, message: `empty item in case list "${text}"` };
    const m = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (!m) return { ok: false, message: `"${part}" is not an index or a range like 0-7` };
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    if (hi < lo) return { ok: false, message: `range "${part}" runs backwards` };
    if (hi - lo > 1_000_000) return { ok: false, message: `range "${part}" is too large` };
    for (let i = lo; i <= hi; i++) out.push(i);
  }
  return { ok: true, cases: out };
}

/** Formats indices back into compact ranges: [0,1,2,3,7] → "0-3,7". */
export function formatCaseRanges(cases: readonly number[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < cases.length) {
    let j = i;
    while (j + 1 < cases.length && cases[j + 1] === cases[j]! + 1) j++;
    parts.push(j > i ? `${cases[i]}-${cases[j]}` : `${cases[i]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** The next `n` indices never run yet, in order; fewer when the pool runs out. */
export function nextUnused(used: ReadonlySet<number>, poolSize: number, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < poolSize && out.length < n; i++) if (!used.has(i)) out.push(i);
  return out;
}
