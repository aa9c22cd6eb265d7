/**
 * Case selections as text: `"0-7,12"` is how `run.submit` takes cases, how the CLI and the views
 * print them and how a resubmission repeats them. One parser and one printer, so what a view
 * shows can be pasted back into a submit.
 */

export type CaseParse = { ok: true; cases: number[] } | { ok: false; message: string };

/** Largest range one item may span: a typo like 0-99999999 must not allocate a huge list. */
const MAX_RANGE = 1_000_000;

/**
 * Parses "0-7,12, 3" into indices in the order written (each range ascending); repeats are kept,
 * since each repeat runs and charges again. With `poolSize`, indices past the pool are refused.
 */
export function parseCaseRanges(text: string, poolSize?: number): CaseParse {
  const cases: number[] = [];
  for (const raw of text.split(',')) {
    const part = raw.trim();
    if (part === '') return { ok: false, message: `empty item in case list "${text}"` };
    const m = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (!m) return { ok: false, message: `"${part}" is not a case index or a range like 0-7` };
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    if (hi < lo) return { ok: false, message: `range ${part} runs backwards (write ${hi}-${lo})` };
    if (hi - lo > MAX_RANGE) return { ok: false, message: `range ${part} is too large` };
    if (poolSize !== undefined && hi >= poolSize) return { ok: false, message: `case ${hi} is outside the pool 0-${poolSize - 1}` };
    for (let i = lo; i <= hi; i++) cases.push(i);
  }
  return { ok: true, cases };
}

/** Indices as ranges in their own order, repeats kept: [0,1,2,5,3] → "0-2,5,3" (parses back to the same list). */
export function formatCaseRanges(cases: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < cases.length; ) {
    let j = i;
    while (j + 1 < cases.length && cases[j + 1] === (cases[j] as number) + 1) j++;
    parts.push(i === j ? `${cases[i]}` : `${cases[i]}-${cases[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** Which cases, ignoring order and repeats: [5,1,2,3,9,1] → "1-3,5,9" (for "these cases hit this error"). */
export function formatCaseSet(cases: readonly number[]): string {
  return formatCaseRanges([...new Set(cases)].sort((a, b) => a - b));
}
