/** The run's report (`.policyforge/report.json`): built from the journal's state once selection and assessment are done. */
import type { CandidateResult, CurvePoint, RunReport } from '../protocol/feedback';
import type { SubmissionBrief } from '../protocol/run';
import { bestSoFar, failuresOf } from '../stats/bestSubmission';
import { comparableEpisodes } from '../stats/bestTrain';
import { writeJsonAtomic } from './atomicFs';
import { withBaselineRecords } from './baselineRecords';
import type { RunConfig } from './config';
import type { Diagnose, RunContext } from './runContext';
import type { RunState } from './runState';
import { runFailureReturn } from './scoring';

/**
 * Writes the report (durably) and journals `completed` the first time. Run diagnostics are
 * optional: when they fail, the report goes without them.
 */
export async function writeReport(ctx: RunContext, diagnose?: Diagnose): Promise<RunReport> {
  // Budget-matched baselines computed after an earlier finish stay in a report rebuilt from the journal.
  const report = withBaselineRecords(buildReport(ctx.config, ctx.state, runFailureReturn(ctx)), ctx.paths.root, ctx.seeds.fingerprint());
  if (diagnose) {
    try {
      report.diagnostics = await diagnose(ctx.paths.root);
    } catch (e) {
      ctx.log(`run diagnostics failed (the report goes on without them): ${String(e)}`);
    }
  }
  writeJsonAtomic(ctx.paths.report, report);
  if (!ctx.state.completed) ctx.record({ type: 'completed' });
  return report;
}

export function buildReport(config: RunConfig, s: RunState, failureReturn?: number): RunReport {
  const fin = s.finish;
  if (!fin) throw new Error('the run has no report before it is finished');
  const history = [...s.submissions.values()].sort((a, b) => a.submission - b.submission);
  const candidates: CandidateResult[] = fin.candidates
    .map((n) => s.submissions.get(n)!)
    .map((sub) => {
      const v = s.validated.get(sub.checkpoint);
      return {
        submission: sub.submission,
        checkpoint: sub.checkpoint,
        validationMean: v?.mean ?? NaN,
        validationStderr: v?.stderr ?? NaN,
        trainMean: sub.mean,
        ...(v ? { validationCount: v.count, validationOkCount: v.okCount } : {}),
      };
    });
  // Best so far along the budget, by the one best-submission rule every view uses.
  const curve = (meanOf: (h: SubmissionBrief) => number | undefined, failures: (h: SubmissionBrief) => number): CurvePoint[] =>
    bestSoFar(history, meanOf, failures).flatMap((p) => (p.bestSubmission === null ? [] : [{ budgetUsed: p.item.budgetUsed, submission: p.item.submission, value: p.best }]));
  const selected = s.selected?.submission ?? null;
  const minEpisodes = comparableEpisodes(config);
  return {
    envId: config.envId,
    completedAt: new Date().toISOString(),
    budget: { total: config.budget, used: s.used, remaining: config.budget - s.used },
    selectionMode: fin.mode,
    ...(s.selected?.evidence ? { selection: s.selected.evidence } : {}),
    ...(s.revalidated.size
      ? {
          elite: fin.candidates
            .map((n) => s.submissions.get(n)!)
            .filter((sub, i, all) => s.revalidated.has(sub.checkpoint) && all.findIndex((o) => o.checkpoint === sub.checkpoint) === i)
            .map((sub) => ({ submission: sub.submission, checkpoint: sub.checkpoint, validationMean: s.validated.get(sub.checkpoint)?.mean ?? NaN, freshMean: s.revalidated.get(sub.checkpoint)!.stats.mean, freshCases: s.revalidated.get(sub.checkpoint)!.stats.count })),
        }
      : {}),
    selected,
    ...(s.selected?.reason ? { reason: s.selected.reason } : {}),
    ...(selected !== null ? { selectedCheckpoint: s.submissions.get(selected)!.checkpoint } : {}),
    ...(failureReturn !== undefined ? { failureReturn } : {}),
    candidates,
    heldOut: s.assessed,
    ...(s.starter ? { starterHeldOut: s.starter.stats } : {}),
    ...(s.baselines.size ? { baselines: Object.fromEntries([...s.baselines].map(([name, b]) => [name, { heldOut: b.stats, ...(b.error ? { error: b.error } : {}) }])) } : {}),
    validationCurve: curve(
      (h) => (fin.candidates.includes(h.submission) ? s.validated.get(h.checkpoint)?.mean : undefined),
      (h) => {
        const v = s.validated.get(h.checkpoint);
        return v ? failuresOf(v) : 0;
      },
    ),
    // The train curve follows the best train mean `status` names: comparable submissions only.
    trainCurve: curve((h) => (h.count >= minEpisodes ? h.mean : undefined), failuresOf),
  };
}
