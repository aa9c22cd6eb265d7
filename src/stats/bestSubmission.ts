/**
 * The best-submission rule of the protocol: the highest mean wins and a tie goes to the later
 * submission (the paper's rule for validation; `run.status` and every view use it for the best
 * train mean). Submissions without a finite mean take no part.
 */

/** True when a submission with mean `m` takes the place of the current best. */
function beats(m: number, submission: number, best: { mean: number; submission: number } | null): boolean {
  return best === null || m > best.mean || (m === best.mean && submission > best.submission);
}

/** The best of `items` by `meanOf`, whatever order they come in; null when none has a finite mean. */
export function bestSubmission<T extends { submission: number }>(items: Iterable<T>, meanOf: (item: T) => number | null | undefined): T | null {
  let best: { item: T; mean: number; submission: number } | null = null;
  for (const item of items) {
    const m = meanOf(item);
    if (m === null || m === undefined || !Number.isFinite(m)) continue;
    if (beats(m, item.submission, best)) best = { item, mean: m, submission: item.submission };
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
export function bestSoFar<T extends { submission: number }>(items: readonly T[], meanOf: (item: T) => number | null | undefined): BestSoFarPoint<T>[] {
  let best: { mean: number; submission: number } | null = null;
  return items.map((item) => {
    const m = meanOf(item);
    const finite = m !== null && m !== undefined && Number.isFinite(m);
    const improved = finite && (best === null || m > best.mean);
    const isBest = finite && beats(m, item.submission, best);
    if (isBest) best = { mean: m, submission: item.submission };
    return { item, best: best?.mean ?? NaN, bestSubmission: best?.submission ?? null, isBest, improved };
  });
}
