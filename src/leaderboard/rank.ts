/** Competition ranking ("1224"): equal scores share the best rank, the next distinct score skips the shared places. */

/**
 * Ranks of `scores` in input order. Higher is better unless `lowerIsBetter`; a missing score
 * (null or NaN) ranks after every real one, tied with the other missing ones.
 */
export function competitionRanks(scores: readonly (number | null)[], lowerIsBetter = false): number[] {
  const key = (s: number | null): number => (s === null || Number.isNaN(s) ? -Infinity : lowerIsBetter ? -s : s);
  const keys = scores.map(key);
  return keys.map((k) => 1 + keys.filter((other) => other > k).length);
}

/** The paper's conversion of a rank among K entries to [0, 1]: (K − rank) / (K − 1); first is 1, last is 0. */
export function rankToScore(rank: number, k: number): number {
  if (k < 2) throw new RangeError(`a rank score needs at least two entries, got ${k}`);
  return (k - rank) / (k - 1);
}
