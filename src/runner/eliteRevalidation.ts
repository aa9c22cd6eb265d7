/**
 * Elite re-evaluation (any selection mode): before the choice, the top k candidates by
 * validation mean run again on fresh validation cases (indices after the first V), so a
 * checkpoint that was lucky on a few episodes cannot win on them. The elite then compete on all
 * their validation episodes, first and fresh; the other candidates drop out. Each re-run is
 * journaled as it completes, so a restart resumes with the rest.
 */
import type { EpisodeRecord } from '../protocol/episodes';
import type { ReturnStats } from '../protocol/feedback';
import type { SubmissionBrief } from '../protocol/run';
import type { PolicyBundle } from '../sandbox/types';
import { bestSubmission, failuresOf } from '../stats/bestSubmission';
import { scoreEpisodes, scoredReturnStats } from '../stats/failureScore';
import { returnStats } from '../stats/returnStats';
import type { RunContext } from './runContext';
import type { ValidatedCandidate } from './selection';

/** The top `k` checkpoints by validation mean, by the protocol's ranking rule. */
export function eliteCheckpoints(ctx: RunContext, candidates: readonly number[], k: number): string[] {
  const pool = candidates.map((n) => ctx.state.submissions.get(n)!).filter((s) => ctx.state.validated.has(s.checkpoint));
  const out: SubmissionBrief[] = [];
  const left = [...new Map(pool.map((s) => [s.checkpoint, s])).values()];
  while (out.length < k && left.length > 0) {
    const best = bestSubmission(left, (s) => ctx.state.validated.get(s.checkpoint)!.mean, (s) => failuresOf(ctx.state.validated.get(s.checkpoint)!))!;
    out.push(best);
    left.splice(left.indexOf(best), 1);
  }
  return out.map((s) => s.checkpoint);
}

export type RunHidden = (bundle: PolicyBundle, indices: readonly number[]) => Promise<EpisodeRecord[]>;

/** Re-runs the elite not re-run yet on validation cases V..V+E−1 and journals each. */
export async function revalidateElite(ctx: RunContext, failureReturn: number, run: RunHidden): Promise<void> {
  const k = ctx.config.eliteK;
  const fin = ctx.state.finish!;
  if (!k) return;
  const V = ctx.config.validationCases;
  const E = ctx.config.eliteCases ?? V;
  const fresh = Array.from({ length: E }, (_, i) => V + i);
  for (const ck of eliteCheckpoints(ctx, fin.candidates, k)) {
    if (ctx.state.revalidated.has(ck)) continue;
    const records = await run(ctx.checkpoints.load(ck), fresh);
    const returns = scoreEpisodes([...records].sort((a, b) => a.caseIndex - b.caseIndex), failureReturn).map((r) => r.return);
    ctx.record({ type: 'revalidated', checkpoint: ck, stats: scoredReturnStats(records, failureReturn), returns });
  }
}

/** The candidates selection sees: with an elite, only the elite, on first and fresh validation episodes together. */
export function selectionCandidates(ctx: RunContext, all: ValidatedCandidate[]): ValidatedCandidate[] {
  if (!ctx.config.eliteK || ctx.state.revalidated.size === 0) return all;
  return all.flatMap((c) => {
    const again = ctx.state.revalidated.get(c.checkpoint);
    const first = ctx.state.validatedReturns.get(c.checkpoint);
    if (!again || !first || !c.validation) return [];
    const returns = [...first, ...again.returns];
    const merged: ReturnStats = { ...returnStats(returns.map((r) => ({ return: r, status: 'ok' as const }))), okCount: c.validation.okCount + again.stats.okCount };
    return [{ ...c, validation: merged, returns }];
  });
}
