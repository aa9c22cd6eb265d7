/**
 * Running one admitted submission and charging it. The order is what makes the charge safe:
 *
 * 1. `submit_started` is journaled; the checkpoint is written (on the thread pool, beside the batch).
 * 2. The batch runs; each episode's files are written and fsynced as it finishes.
 * 3. The checkpoint is awaited, the summary built, the edit analysis awaited.
 * 4. The feedback is committed: written, fsynced and renamed into place (feedbackStore.ts).
 * 5. `submitted` is journaled: that line is the charge.
 *
 * A failure at any step before 5 rolls the submission back in one place: its temp files go, a
 * `submit_rolled_back` line says why, and nothing is charged. A crash before 5 is rolled back,
 * or completed if its feedback was already in place, by recovery.ts.
 */
import type { EpisodeRecord } from '../protocol/episodes';
import type { SubmissionSummary } from '../protocol/feedback';
import type { ProgressNotification } from '../protocol/run';
import { declaredSkills } from '../skills';
import { skillRates } from '../skills/rates';
import { bundleProbes } from '../sandbox';
import { attributeEpisodes } from '../stats/attribution';
import { scoreEpisodes } from '../stats/failureScore';
import { returnStats, statusCounts } from '../stats/returnStats';
import type { Admitted } from './admission';
import { batchRequest } from './batches';
import { pairedFeedback } from './pairedFeedback';
import { practiceBatch, practiceBudgetState } from './practice';
import { RunError } from './runError';
import type { AnalyzeEdit, RunContext } from './runContext';
import { runFailureReturn } from './scoring';
import { trace } from './trace';

/** The submission whose batch is running: what `status` shows and `cancel` aborts. */
export interface RunningSubmission {
  readonly submission: number;
  done: number;
  readonly total: number;
  readonly abort: AbortController;
}

export interface SubmissionHooks {
  analyzeEdit?: AnalyzeEdit;
  progress(p: ProgressNotification): void;
  /** The batch started: it can be cancelled from now on. */
  started(r: RunningSubmission): void;
  /** The batch ended, with all its episodes or not (cancelled, failed). */
  ended(completed: boolean): void;
}

type Stage = 'batch' | 'checkpoint' | 'feedback';

export async function runSubmission(ctx: RunContext, admitted: Admitted, hooks: SubmissionHooks): Promise<SubmissionSummary> {
  const { bundle, cases } = admitted;
  // Practice submissions share the numbering (and feedback/submit-NNNN) with the run's own.
  const n = Math.max(0, ...ctx.state.submissions.keys(), ...ctx.state.practice.keys()) + 1;
  const parent = parentOf(ctx);
  const practice = admitted.practice;
  ctx.record({ type: 'submit_started', submission: n, checkpoint: bundle.id, parent, cases, note: admitted.note, ...(practice ? { practice: practice.params } : {}) });
  // The sources are read now, so the checkpoint is what was built even if policy/ changes meanwhile.
  const checkpointSaved = ctx.checkpoints.save(bundle);
  checkpointSaved.catch(() => undefined); // Awaited after the batch.
  // The edit analysis reads both checkpoints: it starts once this one is on disk.
  const editAnalyzed = checkpointSaved.then(() => analyze(ctx, hooks.analyzeEdit, parent, bundle.id), () => undefined);
  const running: RunningSubmission = { submission: n, done: 0, total: cases.length, abort: new AbortController() };
  const pending = ctx.feedback.begin(n);
  const started = performance.now();
  let stage: Stage = 'batch';
  try {
    hooks.started(running);
    hooks.progress({ phase: 'submit', submission: n, done: 0, total: cases.length });
    const records = await ctx.executor.runBatch({
      ...(practice ? practiceBatch(ctx.config, ctx.seeds, bundle, cases, practice) : batchRequest(ctx.config, ctx.seeds, bundle, 'train', cases)),
      signal: running.abort.signal,
      onEpisode: (r) => {
        pending.add(r);
        hooks.progress({ phase: 'submit', submission: n, done: ++running.done, total: cases.length });
      },
    });
    if (running.abort.signal.aborted || records.length !== cases.length) throw new RunError('cancelled', `submission ${n} was cancelled before it finished; nothing was charged`);
    hooks.ended(true);
    trace(`batch ${(performance.now() - started).toFixed(1)} ms`);
    stage = 'checkpoint';
    await checkpointSaved;
    const summary = buildSummary(ctx, n, parent, admitted, records, performance.now() - started, pending.files(records));
    // A practice batch ran another environment: no paired difference from the run's submissions means anything.
    if (!practice) summary.paired = pairedFeedback(ctx, summary);
    const tEdit = performance.now();
    const edit = await editAnalyzed;
    if (edit) summary.edit = edit;
    trace(`wait for the edit analysis ${(performance.now() - tEdit).toFixed(1)} ms`);
    stage = 'feedback';
    const tCommit = performance.now();
    await pending.commit(summary);
    trace(`feedback commit ${(performance.now() - tCommit).toFixed(1)} ms`);
    charge(ctx, summary);
    return summary;
  } catch (e) {
    if (stage === 'batch') hooks.ended(false);
    await pending.abandon();
    if (stage === 'feedback') ctx.feedback.remove(n);
    // Nothing left writing when the rollback is reported (a checkpoint without a charge is harmless).
    await Promise.allSettled([checkpointSaved, editAnalyzed]);
    const failure = rollbackError(n, stage, e, running.abort.signal.aborted);
    ctx.record({ type: 'submit_rolled_back', submission: n, why: failure.why });
    throw failure.error;
  }
}

/** The charge: one journal line, written only once the checkpoint and the feedback are durable. */
export function charge(ctx: RunContext, summary: SubmissionSummary): void {
  const charged = summary.charged ?? summary.episodes.filter((e) => e.status !== 'runner_fault').length;
  ctx.record({
    type: 'submitted',
    submission: summary.submission,
    checkpoint: summary.checkpoint,
    parent: summary.parent ?? null,
    cases: summary.cases,
    charged,
    mean: summary.stats.mean,
    okCount: summary.stats.okCount,
    count: summary.stats.count,
    budgetUsed: ctx.state.used + (summary.practice ? 0 : charged),
    editClass: summary.edit?.class,
    ...(summary.practice ? { practice: summary.practice.params } : {}),
  });
}

/** The submission a new one descends from: the one restored last, else the latest. */
function parentOf(ctx: RunContext): number | null {
  if (ctx.state.restoredFrom !== null) return ctx.state.restoredFrom;
  const last = Math.max(0, ...ctx.state.submissions.keys());
  return last > 0 ? last : null;
}

function rollbackError(n: number, stage: Stage, e: unknown, aborted: boolean): { why: string; error: RunError } {
  const message = e instanceof Error ? e.message : String(e);
  if (stage === 'batch' && (aborted || (e instanceof RunError && e.reason === 'cancelled'))) {
    return { why: 'cancelled', error: e instanceof RunError ? e : new RunError('cancelled', `submission ${n} was cancelled; nothing was charged`) };
  }
  switch (stage) {
    case 'batch':
      return { why: `sandbox failure: ${message}`, error: new RunError('internal', `the sandbox failed while running submission ${n} (nothing was charged): ${message}`) };
    case 'checkpoint':
      return { why: `checkpoint write failed: ${message}`, error: new RunError('internal', `could not save the checkpoint of submission ${n} (nothing was charged): ${message}`) };
    case 'feedback':
      return { why: `feedback write failed: ${message}`, error: new RunError('internal', `could not write feedback for submission ${n} (nothing was charged): ${message}`) };
  }
}

async function analyze(ctx: RunContext, analyzeEdit: AnalyzeEdit | undefined, parent: number | null, checkpoint: string): Promise<SubmissionSummary['edit'] | undefined> {
  if (!analyzeEdit) return undefined;
  try {
    const parentCk = parent !== null ? ctx.state.submissions.get(parent)?.checkpoint : undefined;
    return await analyzeEdit(parentCk ? ctx.paths.checkpointDir(parentCk) : null, ctx.paths.checkpointDir(checkpoint), parent);
  } catch (e) {
    ctx.log(`edit analysis failed (feedback goes on without it): ${String(e)}`);
    return undefined;
  }
}

function buildSummary(ctx: RunContext, n: number, parent: number | null, admitted: Admitted, records: readonly EpisodeRecord[], wallMs: number, files: SubmissionSummary['files']): SubmissionSummary {
  const charged = records.filter((r) => r.status !== 'runner_fault').length;
  const practice = admitted.practice;
  const used = ctx.state.used + (practice ? 0 : charged);
  const failureReturn = runFailureReturn(ctx);
  // Failed episodes score the failure return in the mean; their partial returns stay beside it.
  const scored = scoreEpisodes(records, failureReturn);
  const notes = [admitted.note, admitted.typeErrors > 0 ? `${admitted.typeErrors} type error(s) reported by the build` : undefined].filter((s): s is string => !!s);
  return {
    submission: n,
    checkpoint: admitted.bundle.id,
    createdAt: new Date().toISOString(),
    envId: ctx.config.envId,
    cases: admitted.cases,
    episodes: scored.map((r) => ({
      caseIndex: r.caseIndex,
      status: r.status,
      return: r.return,
      ...(r.partialReturn !== undefined ? { partialReturn: r.partialReturn } : {}),
      length: r.length,
      terminated: r.terminated,
      truncated: r.truncated,
      wallMs: r.wallMs,
      ...(r.error ? { error: r.error } : {}),
      ...(r.skills ? { skills: r.skills } : {}),
    })),
    stats: returnStats(scored),
    ...skillsOf(ctx, records),
    ...attributionOf(admitted.bundle.code, scored),
    failureReturn,
    statusCounts: statusCounts(records),
    wallMs: Math.round(wallMs),
    budget: { total: ctx.config.budget, used, remaining: ctx.config.budget - used },
    parent,
    charged,
    ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
    files,
    ...(practice
      ? {
          practice: {
            params: practice.params,
            budget: practiceBudgetState(ctx.config, ctx.state, charged),
            ...(practice.skill !== undefined ? { skill: practice.skill } : {}),
            ...(practice.reason !== undefined ? { reason: practice.reason } : {}),
          },
        }
      : {}),
  };
}

/** Which functions and branches ran in the failed or low-return episodes (src/stats/attribution.ts), when the batch recorded coverage. */
function attributionOf(code: string, scored: readonly EpisodeRecord[]): Pick<SubmissionSummary, 'attribution'> {
  if (!scored.some((r) => r.coverage !== undefined)) return {};
  const attribution = attributeEpisodes(bundleProbes(code).probes, scored.map((r) => ({ status: r.status, score: r.return, ...(r.coverage ? { coverage: r.coverage } : {}) })));
  return attribution ? { attribution } : {};
}

/** The family's skill rates over the batch, when it declares skills. */
function skillsOf(ctx: RunContext, records: readonly EpisodeRecord[]): Pick<SubmissionSummary, 'skills'> {
  const declared = declaredSkills(ctx.config.envId, ctx.registry.get(ctx.config.envId).family);
  const rates = skillRates(declared, records);
  return rates.length > 0 ? { skills: rates } : {};
}
