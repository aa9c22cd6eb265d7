/**
 * The autotune agent: a (1+1) evolution strategy over the policy's tunable literals, driven only
 * through the run protocol. Every candidate runs on the same training cases as its parent (a
 * matched comparison), the parent is replaced when the child does at least as well, and the step
 * size follows the 1/5 success rule. It spends the whole budget; the runner's hidden validation
 * then picks the submission that generalises best. What it tunes: `literals.ts`; a policy with
 * nothing tunable gets the whole budget as evidence for itself, and the first progress line says so.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Rng } from '../../envs/core/rng';
import type { SubmissionSummary } from '../../protocol/feedback';
import type { RunnerClient } from '../../runner/client';
import { applyValues, findTunableLiterals, formatLiteral, type TunableLiteral } from './literals';

export interface AutotuneOptions {
  /** Episodes per submission (the matched case set). Default 8. */
  batch?: number;
  /** Initial relative step size. Default 0.5. */
  sigma?: number;
  seed?: number;
  log?: (line: string) => void;
}

export interface AutotuneResult {
  submissions: number;
  best: { submission: number; mean: number; values: number[] };
  literals: number;
}

export async function runAutotune(client: RunnerClient, workspace: string, opts: AutotuneOptions = {}): Promise<AutotuneResult> {
  const log = opts.log ?? (() => undefined);
  const info = await client.info();
  const policyFile = path.join(workspace, 'policy', 'policy.ts');
  const base = fs.readFileSync(policyFile, 'utf8');
  const literals = findTunableLiterals(base);
  const rng = new Rng(opts.seed ?? 1);
  let status = await client.status();
  const batch = Math.max(info.minEpisodesPerSubmit, Math.min(opts.batch ?? 8, info.maxEpisodesPerSubmit, status.budget.remaining));
  const cases = Array.from({ length: batch }, (_, i) => i % info.poolSize);
  log(
    literals.length > 0
      ? `autotune: tunes ${literals.length} decimal literal(s) in policy/policy.ts (${describeLiterals(literals)}); integers and code stay as they are; batches of ${batch} on cases 0-${batch - 1}`
      : `autotune: nothing to tune in policy/policy.ts: it tunes decimal literals (0.5, -2.0, 1e-3) and leaves integers and code alone, so it spends the budget on evidence for the starting policy`,
  );

  const submit = async (values: number[], note: string, useCases: number[] | number): Promise<SubmissionSummary> => {
    fs.writeFileSync(policyFile, applyValues(base, literals, values));
    return client.submit(typeof useCases === 'number' ? { episodes: useCases, note } : { cases: useCases, note });
  };
  const score = (s: SubmissionSummary): number => (s.stats.okCount === s.stats.count ? s.stats.mean : -Infinity);

  let parentValues = literals.map((l) => l.value);
  const first = await submit(parentValues, 'autotune: starting point', cases);
  let parent = { submission: first.submission, mean: score(first), values: parentValues };
  log(`  #${first.submission} start  mean ${first.stats.mean.toFixed(2)}`);
  let sigma = opts.sigma ?? 0.5;
  let count = 1;
  status = await client.status();
  while (literals.length > 0 && status.phase === 'agent' && status.budget.remaining >= batch) {
    const child = parentValues.map((v) => v + sigma * Math.max(Math.abs(v), 0.5) * gaussian(rng));
    const s = await submit(child, `autotune: sigma ${sigma.toFixed(3)}`, cases);
    count++;
    const accepted = score(s) >= parent.mean;
    const comparedWith = parent;
    if (accepted) {
      parentValues = child;
      parent = { submission: s.submission, mean: score(s), values: child };
      sigma *= 1.5;
    } else {
      sigma *= 0.85;
      // Record that the next child descends from the parent, not from this rejected one.
      await client.restore(parent.submission);
    }
    log(`  #${s.submission} ${accepted ? 'accept' : 'reject'} mean ${s.stats.mean.toFixed(2)} (parent #${comparedWith.submission} ${comparedWith.mean.toFixed(2)}), sigma ${sigma.toFixed(3)}`);
    status = s.budget.remaining > 0 ? await client.status() : { ...status, budget: s.budget };
  }
  // Leftover budget (smaller than a batch, or no literals at all): more evidence for the best.
  while (status.phase === 'agent' && status.budget.remaining >= info.minEpisodesPerSubmit && status.budget.remaining > 0) {
    const n = Math.min(status.budget.remaining, info.maxEpisodesPerSubmit);
    const s = await submit(parentValues, 'autotune: best so far on unused cases', n);
    count++;
    log(`  #${s.submission} best on ${n} more case(s): mean ${s.stats.mean.toFixed(2)}`);
    status = await client.status();
  }
  fs.writeFileSync(policyFile, applyValues(base, literals, parentValues));
  return { submissions: count, best: parent, literals: literals.length };
}

const LISTED_LITERALS = 6;

/** "0.2 (line 68), 0.5 (line 79)", the first few only. */
function describeLiterals(literals: readonly TunableLiteral[]): string {
  const listed = literals.slice(0, LISTED_LITERALS).map((l) => `${formatLiteral(l.value)} (line ${l.line})`);
  const more = literals.length - listed.length;
  return more > 0 ? `${listed.join(', ')} and ${more} more` : listed.join(', ');
}

function gaussian(rng: Rng): number {
  const u = Math.max(rng.random(), 1e-12);
  const v = rng.random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
