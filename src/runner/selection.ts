/**
 * Selection: which validated candidate the run assesses. The entry point is one function over
 * the validated candidates, so other selection rules (a gate, an elite re-evaluation) plug in
 * beside the protocol's rule with the same signature.
 *
 * The protocol's rule (`selectByValidation`): the highest validation mean, failed episodes
 * scored at the environment's failure return; on equal means fewer failed episodes; then the
 * later submission (src/stats/bestSubmission.ts). A run with at least one validated candidate
 * always selects one: a failed episode lowers a candidate's mean, it does not disqualify it.
 */
import type { ReturnStats, SelectionEvidence } from '../protocol/feedback';
import { bestSubmission, failuresOf } from '../stats/bestSubmission';

export interface ValidatedCandidate {
  submission: number;
  checkpoint: string;
  /** Validation stats (failures scored), or null when the candidate could not be validated. */
  validation: ReturnStats | null;
  /** Scored return per validation case, in case order (absent in journals older than gated selection). */
  returns?: readonly number[];
}

export interface Selection {
  /** The selected submission, or null with `reason`. */
  submission: number | null;
  reason?: string;
  /** What a rule other than the protocol's saw, for report.json. */
  evidence?: SelectionEvidence;
}

/** A selection rule: the run assesses what it returns. */
export type SelectionRule = (candidates: readonly ValidatedCandidate[]) => Selection;

export const selectByValidation: SelectionRule = (candidates) => {
  const best = bestSubmission(
    candidates.filter((c) => c.validation !== null && c.validation.count > 0),
    (c) => c.validation!.mean,
    (c) => failuresOf(c.validation!),
  );
  if (best) return { submission: best.submission };
  return { submission: null, reason: candidates.length === 0 ? 'no submission was made' : 'no candidate could be validated' };
};

