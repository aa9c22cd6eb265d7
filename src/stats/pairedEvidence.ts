/**
 * The paired evidence a submission's feedback carries: its difference from its parent and from
 * the best train mean before it, on shared cases, and the text every surface prints for it.
 */
import type { PairedEvidence, SubmissionSummary } from '../protocol/feedback';
import { pairedComparison, pairedLine, type PairedInput } from './paired';

/**
 * `random(against)` gives the bootstrap's random source for one comparison; seeding it from the
 * two submission numbers makes the interval the same every time the feedback is rebuilt.
 */
export function pairedEvidence(subject: PairedInput, parent: PairedInput | null, bestSoFar: PairedInput | null, random: (against: number) => () => number): PairedEvidence {
  return {
    parent: parent ? pairedComparison(subject, parent, random(parent.submission)) : null,
    bestSoFar: bestSoFar ? pairedComparison(subject, bestSoFar, random(bestSoFar.submission)) : null,
  };
}

/** Lines for `policyforge feedback`, the MCP and LM tools: one per comparison ("vs parent #3: +12 [+4, +20] on 8 shared cases"). */
export function pairedLines(s: Pick<SubmissionSummary, 'paired'>, delta: (x: number | null | undefined) => string): string[] {
  const p = s.paired;
  if (!p) return [];
  const out: string[] = [];
  if (p.parent) out.push(pairedLine('parent', p.parent, delta));
  if (p.bestSoFar && p.bestSoFar.against !== p.parent?.against) out.push(pairedLine('best so far', p.bestSoFar, delta));
  else if (p.bestSoFar) out.push(`(parent #${p.bestSoFar.against} is also the best so far)`);
  return out;
}
