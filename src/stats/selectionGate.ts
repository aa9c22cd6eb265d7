/**
 * The two-stage acceptance gate (environment-grounded prompt optimization, arXiv 2606.17838) as a
 * selection rule: candidates are taken in submission order, and a candidate replaces the
 * incumbent only if it beats it by more than Δ on the first half of the validation cases and
 * again on the second half. The halves are the same hidden cases for every candidate, so each
 * difference is a paired one. Δ defaults to one standard error of the incumbent's validation mean.
 */
import type { GateStep, SelectionEvidence } from '../protocol/feedback';

export interface GateCandidate {
  submission: number;
  /** Scored return per validation case, in case order (every candidate ran the same cases). */
  returns: readonly number[];
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Standard error of the mean of `xs` (sample standard deviation over √n). */
export function stderrOf(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1) / xs.length);
}

/** First and second half of the case indices (the first half takes the smaller share of an odd count). */
function halves(xs: readonly number[]): [readonly number[], readonly number[]] {
  const cut = Math.floor(xs.length / 2);
  return [xs.slice(0, cut), xs.slice(cut)];
}

/**
 * Runs the gate over `candidates` (any order; taken by submission number). Returns the final
 * incumbent and every comparison made; candidates with fewer than two validation cases cannot be
 * split and take no part.
 */
export function gateSelection(candidates: readonly GateCandidate[], delta?: number): { submission: number | null; evidence: SelectionEvidence } {
  const usable = candidates.filter((c) => c.returns.length >= 2).sort((a, b) => a.submission - b.submission);
  const steps: GateStep[] = [];
  let incumbent = usable[0] ?? null;
  for (const c of usable.slice(1)) {
    const inc = incumbent!;
    const threshold = delta ?? stderrOf(inc.returns);
    const [cA, cB] = halves(c.returns);
    const [iA, iB] = halves(inc.returns);
    const differences: [number, number] = [mean(cA) - mean(iA), mean(cB) - mean(iB)];
    const accepted = differences[0] > threshold && differences[1] > threshold;
    steps.push({ candidate: c.submission, incumbent: inc.submission, delta: threshold, differences, accepted });
    if (accepted) incumbent = c;
  }
  return {
    submission: incumbent?.submission ?? null,
    evidence: { rule: 'gated', delta: delta ?? null, first: usable[0]?.submission ?? null, steps },
  };
}
