/**
 * What a runner does on start, before it takes any request, to turn whatever a crash left into a
 * consistent run. The journal says what happened; the files are checked against it:
 *
 * - a `submit_started` without an outcome is completed when its feedback was renamed into place
 *   and its checkpoint exists (the crash fell between the rename and the charge), and rolled back
 *   otherwise (its files removed, `submit_rolled_back` journaled, nothing charged);
 * - temp dirs of feedback and checkpoints that never completed are removed;
 * - `feedback/latest.json` is written again from the latest submission (it is not fsynced).
 *
 * Resuming an interrupted finish is the run's job (run.ts), once this is done.
 */
import { replaceJson } from './atomicFs';
import type { RunContext } from './runContext';
import { charge } from './submission';

/** Recovers the run; returns notes for `status.recovery`, one per repair. */
export function recover(ctx: RunContext): string[] {
  const notes: string[] = [];
  ctx.record({ type: 'runner_started', pid: process.pid });
  const pending = ctx.state.pending;
  if (pending) {
    const summary = ctx.feedback.read(pending.submission);
    if (summary && summary.checkpoint === pending.checkpoint && ctx.checkpoints.has(pending.checkpoint)) {
      charge(ctx, summary);
      notes.push(`submission ${pending.submission} had finished when the runner stopped; it was completed on restart`);
    } else {
      ctx.feedback.remove(pending.submission);
      ctx.record({ type: 'submit_rolled_back', submission: pending.submission, why: 'the runner stopped while the submission was running' });
      notes.push(`submission ${pending.submission} was interrupted when the runner stopped; it was rolled back and not charged`);
    }
  }
  ctx.feedback.cleanTemp();
  ctx.checkpoints.cleanTemp();
  const last = Math.max(0, ...ctx.state.submissions.keys(), ...ctx.state.practice.keys());
  const latest = last > 0 ? ctx.feedback.read(last) : undefined;
  if (latest) replaceJson(ctx.paths.latest, latest);
  if (ctx.state.finish && !ctx.state.completed) notes.push('validation/assessment was interrupted; it resumes now');
  return notes;
}
