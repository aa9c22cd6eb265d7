/**
 * The end of a run: validation of the candidates on the hidden validation cases, selection of
 * the best, its assessment on the held-out cases, and the starter policy's held-out baseline.
 * Each step is journaled as it completes, so a runner that stops part-way resumes at the first
 * step not done (a checkpoint validated once is never validated again). Nothing here is charged.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RANDOM_POLICY_SOURCE } from '../envs/core/randomPolicy';
import { starterFiles } from '../envs/core/starterFiles';
import type { EpisodeRecord } from '../protocol/episodes';
import type { ReturnStats } from '../protocol/feedback';
import { describeZodError, FinishParamsSchema, type ProgressNotification } from '../protocol/run';
import type { PolicyBundle } from '../sandbox/types';
import { scoreEpisodes, scoredReturnStats } from '../stats/failureScore';
import { candidatesRequired } from '../stats/reportText';
import { batchRequest, range } from './batches';
import { revalidateElite, selectionCandidates } from './eliteRevalidation';
import { gatedRule } from './gatedSelection';
import { RunError } from './runError';
import type { RunContext } from './runContext';
import { runFailureReturn } from './scoring';
import { selectByValidation, type SelectionRule } from './selection';

export type FinishTrigger = 'finish' | 'budget';

/** Parses a finish request; throws `malformedRequest`. */
export function parseFinish(raw: unknown): { candidates?: number[] } {
  const parsed = FinishParamsSchema.safeParse(raw ?? {});
  if (!parsed.success) throw new RunError('malformedRequest', `malformed finish: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

/** Ends the agent phase: journals `finished` with the candidates to validate (unless a finish is already journaled). */
export function beginFinish(ctx: RunContext, params: { candidates?: number[] }, trigger: FinishTrigger): void {
  if (ctx.state.finish) return;
  const practised = (params.candidates ?? []).filter((n) => ctx.state.practice.has(n));
  if (practised.length) throw new RunError('unknownSubmission', `submission(s) ${practised.join(', ')} are practice submissions, which are never selected; name run submissions`, { candidates: practised });
  const unknown = (params.candidates ?? []).filter((n) => !ctx.state.submissions.has(n));
  if (unknown.length) throw new RunError('unknownSubmission', `candidate submission(s) ${unknown.join(', ')} do not exist`, { candidates: unknown });
  if (!params.candidates && ctx.config.selectionMode === 'candidates' && trigger === 'finish') {
    throw new RunError('malformedRequest', candidatesRequired([...ctx.state.submissions.values()].sort((a, b) => a.submission - b.submission)));
  }
  // A candidates-mode run whose budget ran out before any were named falls back to paper selection.
  const mode = params.candidates ? 'candidates' : ctx.config.selectionMode === 'gated' ? 'gated' : 'paper';
  // Every submission competes: a failed episode lowers its mean (at the failure return), it does not disqualify it.
  const candidates = params.candidates ?? [...ctx.state.submissions.values()].filter((s) => s.count > 0).map((s) => s.submission);
  ctx.record({ type: 'finished', mode, candidates, trigger });
}

export interface FinishHooks {
  progress(p: ProgressNotification): void;
  /** The runner is shutting down: stop before the next batch. */
  stopping(): boolean;
  /** Aborts the batches running when the runner shuts down (nothing of them is journaled). */
  signal?: AbortSignal;
  /** Assess the environment's starter policy too. */
  assessStarter: boolean;
  /** The selection rule (default: the protocol's, `selectByValidation`). */
  select?: SelectionRule;
}

/** Runs every step of the finish not journaled yet: validation, selection, assessment, the baselines. */
export async function validateAndAssess(ctx: RunContext, hooks: FinishHooks): Promise<void> {
  const fin = ctx.state.finish!;
  const failureReturn = runFailureReturn(ctx);
  const checkpointOf = (n: number): string => ctx.state.submissions.get(n)!.checkpoint;
  await validate(ctx, hooks, failureReturn);
  if (!ctx.state.selected) await revalidateElite(ctx, failureReturn, (bundle, indices) => runHiddenCases(ctx, hooks, bundle, indices));
  if (!ctx.state.selected) {
    const select = hooks.select ?? (fin.mode === 'gated' ? gatedRule(ctx.config.gateDelta) : selectByValidation);
    const choice = select(
      selectionCandidates(
        ctx,
        fin.candidates.map((n) => ({ submission: n, checkpoint: checkpointOf(n), validation: ctx.state.validated.get(checkpointOf(n)) ?? null, returns: ctx.state.validatedReturns.get(checkpointOf(n)) })),
      ),
    );
    ctx.record({ type: 'selected', submission: choice.submission, ...(choice.reason ? { reason: choice.reason } : {}), ...(choice.evidence ? { evidence: choice.evidence } : {}) });
  }
  const selected = ctx.state.selected!.submission;
  const H = ctx.config.heldOutCases;
  if (selected !== null && !ctx.state.assessed) {
    const progress = (done: number): void => hooks.progress({ phase: 'assessment', submission: selected, done, total: H, candidates: { done: done === H ? 1 : 0, total: 1 } });
    progress(0);
    const records = await runHidden(ctx, hooks, ctx.checkpoints.load(checkpointOf(selected)), 'assessment', H, progress);
    ctx.record({ type: 'assessed', submission: selected, stats: scoredReturnStats(records, failureReturn) });
  }
  if (hooks.assessStarter && !ctx.state.starter) ctx.record({ type: 'assessed_starter', ...(await assessStarter(ctx, hooks, failureReturn, 'starter')) });
  // The uniform random policy on the same held-out cases: the budget-free floor beside the starter.
  if (hooks.assessStarter && !ctx.state.baselines.has('uniform-random')) ctx.record({ type: 'assessed_baseline', name: 'uniform-random', ...(await assessStarter(ctx, hooks, failureReturn, 'uniform-random', RANDOM_POLICY_SOURCE)) });
}

/**
 * Validates every distinct candidate checkpoint not validated yet, all at once: the pool shares
 * its workers among concurrent batches, so no worker waits while one candidate's last episodes
 * run. Each candidate is journaled as soon as its episodes are done, so a restart resumes with
 * the rest. Progress counts candidates and episodes done.
 */
async function validate(ctx: RunContext, hooks: FinishHooks, failureReturn: number): Promise<void> {
  const fin = ctx.state.finish!;
  const checkpointOf = (n: number): string => ctx.state.submissions.get(n)!.checkpoint;
  const checkpoints = [...new Set(fin.candidates.map(checkpointOf))];
  const todo = checkpoints.filter((ck) => !ctx.state.validated.has(ck));
  if (todo.length === 0) return;
  const V = ctx.config.validationCases;
  const total = checkpoints.length * V;
  let done = (checkpoints.length - todo.length) * V;
  let candidatesDone = checkpoints.length - todo.length;
  const report = (): void => hooks.progress({ phase: 'validation', submission: null, done, total, candidates: { done: candidatesDone, total: checkpoints.length } });
  if (hooks.stopping()) throw new RunError('internal', 'runner is shutting down');
  report();
  const results = await Promise.allSettled(
    todo.map(async (ck) => {
      const records = await runHidden(ctx, hooks, ctx.checkpoints.load(ck), 'validation', V, () => {
        done++;
        report();
      });
      const returns = scoreEpisodes([...records].sort((a, b) => a.caseIndex - b.caseIndex), failureReturn).map((r) => r.return);
      ctx.record({ type: 'validated', submission: fin.candidates.find((n) => checkpointOf(n) === ck)!, checkpoint: ck, stats: scoredReturnStats(records, failureReturn), returns });
      candidatesDone++;
      report();
    }),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Validation cases by index (elite re-evaluation's fresh ones); throws when the runner shut down under it. */
async function runHiddenCases(ctx: RunContext, hooks: FinishHooks, bundle: PolicyBundle, indices: readonly number[]): Promise<EpisodeRecord[]> {
  if (hooks.stopping()) throw new RunError('internal', 'runner is shutting down');
  const records = await ctx.executor.runBatch({ ...batchRequest(ctx.config, ctx.seeds, bundle, 'validation', indices), ...(hooks.signal ? { signal: hooks.signal } : {}) });
  if (hooks.signal?.aborted || records.length !== indices.length) throw new RunError('internal', 'runner is shutting down');
  return records;
}

/** One hidden batch (validation or assessment cases 0..n-1); throws when the runner shut down under it. */
async function runHidden(ctx: RunContext, hooks: FinishHooks, bundle: PolicyBundle, split: 'validation' | 'assessment', n: number, onDone?: (done: number) => void): Promise<EpisodeRecord[]> {
  let d = 0;
  const records = await ctx.executor.runBatch({
    ...batchRequest(ctx.config, ctx.seeds, bundle, split, range(n)),
    ...(hooks.signal ? { signal: hooks.signal } : {}),
    onEpisode: () => onDone?.(++d),
  });
  if (hooks.signal?.aborted || records.length !== n) throw new RunError('internal', 'runner is shutting down');
  return records;
}

/** The environment's starter policy (or `policySource` in its place, named `baseline`) on the held-out cases: a baseline the report compares to. */
async function assessStarter(ctx: RunContext, hooks: FinishHooks, failureReturn: number, baseline: string, policySource?: string): Promise<{ stats: ReturnStats | null; error?: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyforge-starter-'));
  try {
    const { definition, params, env } = ctx.registry.make(ctx.config.envId, ctx.config.params);
    for (const [rel, content] of Object.entries(starterFiles(definition, params, env))) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), content);
    }
    if (policySource !== undefined) fs.writeFileSync(path.join(dir, 'policy', 'policy.ts'), policySource);
    const built = await ctx.executor.build(dir);
    if (!built.ok) return { stats: null, error: `starter policy does not build: ${built.diagnostics[0]?.message ?? 'unknown error'}` };
    const H = ctx.config.heldOutCases;
    // A baseline's progress is an assessment of no submission, named so each baseline counts as its own batch.
    const progress = (done: number): void => hooks.progress({ phase: 'assessment', submission: null, baseline, done, total: H });
    progress(0);
    const records = await runHidden(ctx, hooks, built.bundle, 'assessment', H, progress);
    return { stats: scoredReturnStats(records, failureReturn) };
  } catch (e) {
    if (hooks.signal?.aborted) throw e;
    return { stats: null, error: String(e) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
