/** The gated selection rule (src/stats/selectionGate.ts) over validated candidates, with its evidence for report.json. */
import { gateSelection } from '../stats/selectionGate';
import type { SelectionRule } from './selection';

export function gatedRule(delta: number | undefined): SelectionRule {
  return (candidates) => {
    const usable = candidates.flatMap((c) => (c.returns && c.returns.length >= 2 ? [{ submission: c.submission, returns: c.returns }] : []));
    const { submission, evidence } = gateSelection(usable, delta);
    if (submission !== null) return { submission, evidence };
    const reason =
      candidates.length === 0 ? 'no submission was made' : 'no candidate has per-case validation returns on two or more cases, so the gate could not compare halves';
    return { submission: null, reason, evidence };
  };
}
