/**
 * Paired statistics between two submissions on the cases both ran. A case index names the same
 * hidden seeds in every submission, so the per-case difference removes the case-to-case spread
 * that an unpaired mean ± stderr comparison carries. The interval is a percentile bootstrap of
 * the mean difference, driven by a caller-given random source so that it is reproducible.
 */
import { mean, quantileSorted, sampleWithReplacement } from 'simple-statistics';
import { formatCaseRanges } from '../protocol/caseRanges';
import type { PairedComparison } from '../protocol/feedback';

export const BOOTSTRAP_RESAMPLES = 2000;

/** Per case, the mean of its returns (a case a submission ran twice counts once, averaged). */
export function returnsByCase(episodes: readonly { caseIndex: number; return: number }[]): Map<number, number> {
  const sums = new Map<number, { sum: number; n: number }>();
  for (const e of episodes) {
    const acc = sums.get(e.caseIndex) ?? { sum: 0, n: 0 };
    acc.sum += e.return;
    acc.n += 1;
    sums.set(e.caseIndex, acc);
  }
  return new Map([...sums].map(([c, { sum, n }]) => [c, sum / n]));
}

/** Seeded percentile-bootstrap 95% interval of the mean of `xs`; null with fewer than two values. */
export function bootstrapMeanInterval95(xs: readonly number[], random: () => number, resamples = BOOTSTRAP_RESAMPLES): [number, number] | null {
  if (xs.length < 2) return null;
  const pool = [...xs];
  const means = new Array<number>(resamples);
  for (let i = 0; i < resamples; i++) means[i] = mean(sampleWithReplacement(pool, pool.length, random));
  means.sort((a, b) => a - b);
  return [quantileSorted(means, 0.025), quantileSorted(means, 0.975)];
}

export interface PairedInput {
  submission: number;
  episodes: readonly { caseIndex: number; return: number }[];
}

/**
 * `subject` − `against` on their shared cases. With nothing shared, `meanDifference` and `ci95`
 * are null and `resubmitCases` names the cases of `against` to run for a paired comparison.
 */
export function pairedComparison(subject: PairedInput, against: PairedInput, random: () => number, resamples = BOOTSTRAP_RESAMPLES): PairedComparison {
  const mine = returnsByCase(subject.episodes);
  const theirs = returnsByCase(against.episodes);
  const shared = [...mine.keys()].filter((c) => theirs.has(c)).sort((a, b) => a - b);
  const diffs = shared.map((c) => mine.get(c)! - theirs.get(c)!);
  return {
    against: against.submission,
    shared: shared.length,
    meanDifference: diffs.length ? mean(diffs) : null,
    ci95: bootstrapMeanInterval95(diffs, random, resamples),
    ...(shared.length === 0 ? { resubmitCases: formatCaseRanges([...theirs.keys()].sort((a, b) => a - b)) } : {}),
  };
}

/** One comparison as a line: "vs parent #3: +12 [+4, +20] on 8 shared cases". */
export function pairedLine(label: string, c: PairedComparison, delta: (x: number | null | undefined) => string): string {
  if (c.shared === 0 || c.meanDifference === null) {
    return `vs ${label} #${c.against}: no shared cases, so no paired comparison; resubmit on its cases (${c.resubmitCases ?? '—'}) to compare`;
  }
  const ci = c.ci95 ? ` [${delta(c.ci95[0])}, ${delta(c.ci95[1])}]` : ' (one case: no interval)';
  const verdict = c.ci95 && (c.ci95[0] > 0 || c.ci95[1] < 0) ? (c.ci95[0] > 0 ? ', better' : ', worse') : '';
  return `vs ${label} #${c.against}: ${delta(c.meanDifference)}${ci} on ${c.shared} shared case${c.shared === 1 ? '' : 's'}${verdict}`;
}
