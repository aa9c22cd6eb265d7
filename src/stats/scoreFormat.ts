/**
 * How returns print, in every view: one precision per run, fitted to the scale of its returns, so a
 * column of means lines up and the same number reads the same in the CLI, the tree, the status
 * bar, CodeLens, hovers and the panels. The largest train mean gets three significant digits:
 * CartPole (returns up to 500) prints `500 ± 0` and `31 ± 9`, MiniGrid (returns below 1) prints
 * `0.390 ± 0.012`. Every view derives the scale the same way, from the run's train means, which
 * `run.status` history and the summaries both carry.
 */

export interface ScoreFormat {
  /** Decimals every return of this run prints with. */
  readonly decimals: number;
  /** A return, mean, stderr or bound; "—" when there is none (null, undefined, NaN). */
  score(x: number | null | undefined): string;
  /** "500 ± 0". */
  meanStderr(mean: number, stderr: number): string;
  /** A difference, signed: "+12", "-0.015", "0". */
  delta(x: number | null | undefined): string;
}

/** The run's return scale: the largest magnitude among its train means (0 when none is finite). */
export function returnScale(trainMeans: Iterable<number>): number {
  let scale = 0;
  for (const m of trainMeans) if (Number.isFinite(m)) scale = Math.max(scale, Math.abs(m));
  return scale;
}

/** Decimals that give the scale three significant digits (three while nothing but 0 was seen). */
export function decimalsForScale(scale: number): number {
  if (!(scale > 0) || !Number.isFinite(scale)) return 3;
  return Math.min(4, Math.max(0, 2 - Math.floor(Math.log10(scale))));
}

export function scoreFormat(scale: number): ScoreFormat {
  const decimals = decimalsForScale(scale);
  const score = (x: number | null | undefined): string => {
    if (x === null || x === undefined || Number.isNaN(x)) return '—';
    if (!Number.isFinite(x)) return x > 0 ? '∞' : '−∞';
    const s = x.toFixed(decimals);
    // -0.2 at no decimals is "-0": a sign on zero only misleads.
    return Number(s) === 0 ? s.replace('-', '') : s;
  };
  return {
    decimals,
    score,
    meanStderr: (mean, stderr) => `${score(mean)} ± ${score(stderr)}`,
    delta: (x) => {
      const s = score(x);
      if (s === '—' || Number(s) === 0) return s;
      return s.startsWith('-') ? s : `+${s}`;
    },
  };
}

/** The format of a run, from its train means (`status.history[].mean` or the summaries' `stats.mean`). */
export function runScoreFormat(trainMeans: Iterable<number>): ScoreFormat {
  return scoreFormat(returnScale(trainMeans));
}

/** The same, from `run.status` history (or anything listing train means as `mean`). */
export function historyScoreFormat(history: readonly { mean: number }[] | null | undefined): ScoreFormat {
  return runScoreFormat((history ?? []).map((h) => h.mean));
}
