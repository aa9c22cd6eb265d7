/**
 * The end of a run: validation of the candidates on the hidden validation cases, selection of
 * the best, its assessment on the held-out cases, and the starter policy's held-out baseline.
 * Each step is journaled as it completes, so a runner that stops part-way resumes at the first
 * step not done (a checkpoint validated once is never validated again). Nothing here is charged.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { starterFiles } from '../envs/core/starterFiles';
import type { ReturnStats } from '../protocol/feedback';
import { describeZodError, FinishParamsSchema, type ProgressNotification } from '../protocol/run';
import { returnStats } from '../stats/returnStats';
import { batchRequest, range } from './batches';
import { RunError } from './runError';
import type { RunContext } from './runContext';
import { selectBest } from './runState';

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
  const unknown = (params.candidates ?? []).filter((n) => !ctx.state.submissions.has(n));
  if (unknown.length) throw new RunError('unknownSubmission', `candidate submission(s) ${unknown.join(', ')} do not exist`, { candidates: unknown });
  if (!params.candidates && ctx.config.selectionMode === 'candidates' && trigger === 'finish') {
    throw new RunError('malformedRequest', 'this run selects among named candidates: give the submissions to validate (finish --candidates 3,5)');
  }
  // A candidates-mode run whose budget ran out before any were named falls back to paper selection.
  const mode = params.candidates ? 'candidates' : 'paper';
  const candidates = params.candidates ?? [...ctx.state.submissions.values()].filter((s) => s.count > 0 && s.okCount === s.count).map((s) => s.submission);
  ctx.record({ type: 'finished', mode, candidates, trigger });
}

export interface FinishHooks {
  progress(p: ProgressNotification): void;
  /** The runner is shutting down: stop before the next batch. */
  stopping(): boolean;
  /** Assess the environment's starter policy too. */
  assessStarter: boolean;
}

/** Runs every step of the finish not journaled yet: validation, selection, assessment, starter baseline. */
export async function validateAndAssess(ctx: RunContext, hooks: FinishHooks): Promise<void> {
  const fin = ctx.state.finish!;
  const checkpointOf = (n: number): string => ctx.state.submissions.get(n)!.checkpoint;
  const checkpoints = [...new Set(fin.candidates.map(checkpointOf))];
  const todo = checkpoints.filter((ck) => !ctx.state.validated.has(ck));
  const V = ctx.config.validationCases;
  const total = checkpoints.length * V;
  let done = (checkpoints.length - todo.length) * V;
  for (const ck of todo) {
    if (hooks.stopping()) throw new RunError('internal', 'runner is shutting down');
    const records = await ctx.executor.runBatch({
      ...batchRequest(ctx.config, ctx.seeds, ctx.checkpoints.load(ck), 'validation', range(V)),
      onEpisode: () => hooks.progress({ phase: 'validation', submission: null, done: ++done, total }),
    });
    ctx.record({ type: 'validated', submission: fin.candidates.find((n) => checkpointOf(n) === ck)!, checkpoint: ck, stats: returnStats(records) });
  }
  if (!ctx.state.selected) {
    const best = selectBest(fin.candidates, (n) => ctx.state.validated.get(checkpointOf(n))?.mean);
    const reason =
      best !== null
        ? undefined
        : ctx.state.submissions.size === 0
          ? 'no submission was made'
          : fin.mode === 'paper'
            ? 'no submission qualified: every submission had at least one episode that was not ok'
            : 'no candidate could be validated';
    ctx.record({ type: 'selected', submission: best, ...(reason ? { reason } : {}) });
  }
  const selected = ctx.state.selected!.submission;
  const H = ctx.config.heldOutCases;
  if (selected !== null && !ctx.state.assessed) {
    let d = 0;
    const records = await ctx.executor.runBatch({
      ...batchRequest(ctx.config, ctx.seeds, ctx.checkpoints.load(checkpointOf(selected)), 'assessment', range(H)),
      onEpisode: () => hooks.progress({ phase: 'assessment', submission: selected, done: ++d, total: H }),
    });
    ctx.record({ type: 'assessed', submission: selected, stats: returnStats(records) });
  }
  if (hooks.assessStarter && !ctx.state.starter) ctx.record({ type: 'assessed_starter', ...(await assessStarter(ctx)) });
}

/** The environment's starter policy on the held-out cases: the baseline the report compares to. */
async function assessStarter(ctx: RunContext): Promise<{ stats: ReturnStats | null; error?: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyforge-starter-'));
  try {
    const { definition, params, env } = ctx.registry.make(ctx.config.envId, ctx.config.params);
    for (const [rel, content] of Object.entries(starterFiles(definition, params, env))) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), content);
    }
    const built = await ctx.executor.build(dir);
    if (!built.ok) return { stats: null, error: `starter policy does not build: ${built.diagnostics[0]?.message ?? 'unknown error'}` };
    const records = await ctx.executor.runBatch(batchRequest(ctx.config, ctx.seeds, built.bundle, 'assessment', range(ctx.config.heldOutCases)));
    return { stats: returnStats(records) };
  } catch (e) {
    return { stats: null, error: String(e) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
