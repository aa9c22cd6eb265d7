/** The paired evidence of a new submission, against its parent and the best train mean before it (src/stats/paired.ts). */
import { Rng } from '../envs/core/rng';
import type { PairedEvidence, SubmissionSummary } from '../protocol/feedback';
import { bestSubmission } from '../stats/bestSubmission';
import { pairedEvidence } from '../stats/pairedEvidence';
import type { RunContext } from './runContext';

/** Earlier summaries are read from the feedback store; one that cannot be read is left out (null). */
export function pairedFeedback(ctx: RunContext, summary: SubmissionSummary): PairedEvidence {
  const read = (n: number | null | undefined): SubmissionSummary | null => (n ? (ctx.feedback.read(n) ?? null) : null);
  const best = bestSubmission(ctx.state.submissions.values(), (b) => b.mean);
  const rng = (against: number): (() => number) => {
    const r = new Rng(`paired:${summary.submission}:${against}`);
    return () => r.random();
  };
  return pairedEvidence(summary, read(summary.parent), read(best?.submission), rng);
}
