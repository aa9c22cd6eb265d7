/**
 * The best-submission rule of the protocol: the highest mean (failed episodes scored at their
 * failure return, failureScore.ts) wins; on equal means the one with fewer failed episodes; then
 * the later submission (the paper's tie rule). Validation selection, `run.status` and every view
 * use it. Submissions without a finite mean take no part.
 */

interface Ranked {
  mean: number;
  failures: number;
  submission: number;
}

/** The failures of an item when the caller has none to give: ranking falls through to the submission. */
const noFailures = (): number => 0;

/** True when `c` takes the place of the current best. */
export function outranks(c: Ranked, best: Ranked | null): boolean {
  if (best === null || c.mean > best.mean) return true;
  if (c.mean < best.mean) return false;
  if (c.failures !== best.failures) return c.failures < best.failures;
  return c.submission > best.submission;
}

function rankOf<T extends { submission: number }>(item: T, meanOf: (item: T) => number | null | undefined, failuresOf: (item: T) => number): Ranked | null {
  const m = meanOf(item);
  if (m === null || m === undefined || !Number.isFinite(m)) return null;
  return { mean: m, failures: failuresOf(item), submission: item.submission };
}

/** The best of `items` by `meanOf` (then fewer `failuresOf`), whatever order they come in; null when none has a finite mean. */
export function bestSubmission<T extends { submission: number }>(
  items: Iterable<T>,
  meanOf: (item: T) => number | null | undefined,
  failuresOf: (item: T) => number = noFailures,
): T | null {
  let best: { item: T; rank: Ranked } | null = null;
  for (const item of items) {
    const rank = rankOf(item, meanOf, failuresOf);
    if (rank && outranks(rank, best?.rank ?? null)) best = { item, rank };
  }
  return best?.item ?? null;
}

export interface BestSoFarPoint<T> {
  item: T;
  /** The best mean among this item and every one before it (NaN while none has a finite mean). */
  best: number;
  /** The submission holding `best` at this point (null while none has a finite mean). */
  bestSubmission: number | null;
  /** This item is now the best (a tie with an earlier best counts: the later one takes over). */
  isBest: boolean;
  /** This item's mean is strictly higher than every earlier one: an improvement, not a tie. */
  improved: boolean;
}

/** Best so far along `items` in the order given (budget or submission order), by the same rule. */
export function bestSoFar<T extends { submission: number }>(
  items: readonly T[],
  meanOf: (item: T) => number | null | undefined,
  failuresOf: (item: T) => number = noFailures,
): BestSoFarPoint<T>[] {
  let best: Ranked | null = null;
  return items.map((item) => {
    const rank = rankOf(item, meanOf, failuresOf);
    const improved = rank !== null && (best === null || rank.mean > best.mean);
    const isBest = rank !== null && outranks(rank, best);
    if (isBest) best = rank;
    return { item, best: best?.mean ?? NaN, bestSubmission: best?.submission ?? null, isBest, improved };
  });
}

/** Failed episodes of a submission brief or stats (`count − okCount`). */
export function failuresOf(s: { count: number; okCount: number }): number {
  return s.count - s.okCount;
}
