/**
 * Whether a submit may run, checked in the protocol's fixed order: phase, schema, case list and
 * pool, episodes per submit, submission limit, budget, build. The first failed check becomes a
 * `RunError`; the run journals it as a rejection, which costs nothing.
 */
import type { EnvRegistry } from '../envs/core/registry';
import { parseCaseRanges } from '../protocol/caseRanges';
import { describeZodError, SubmitParamsSchema } from '../protocol/run';
import type { PolicyBundle } from '../sandbox/types';
import type { RunConfig } from './config';
import type { EpisodeExecutor } from './executor';
import { admitPracticeConfig, practiceBudgetOf, type PracticeAdmission } from './practice';
import { RunError } from './runError';
import type { RunState } from './runState';

export interface Admitted {
  bundle: PolicyBundle;
  cases: number[];
  note?: string;
  /** Type errors the build reported (a policy with type errors still runs). */
  typeErrors: number;
  /** A practice submit: its configuration, checked (practice.ts). */
  practice?: PracticeAdmission;
}

export async function admitSubmit(raw: unknown, config: RunConfig, state: RunState, executor: EpisodeExecutor, root: string, registry?: EnvRegistry): Promise<Admitted> {
  if (state.phase !== 'agent') throw new RunError('runFinished', `the agent phase is over (run is ${state.phase}); see \`policyforge report\``);
  const parsed = SubmitParamsSchema.safeParse(raw ?? {});
  if (!parsed.success) throw new RunError('malformedRequest', `malformed submit: ${describeZodError(parsed.error)}`);
  const p = parsed.data;
  if (p.config !== undefined && !registry) throw new RunError('malformedRequest', 'this runner takes no practice submits', { field: 'config' });
  const practice = p.config !== undefined && registry ? admitPracticeConfig(p.config, config, registry) : undefined;
  const cases = p.cases !== undefined ? listedCases(p.cases, config.poolSize) : nextCases(p.episodes ?? 0, config.poolSize, practice ? state.practiceCases : state.usedCases);
  if (cases.length < config.minEpisodesPerSubmit || cases.length > config.maxEpisodesPerSubmit) {
    throw new RunError('episodesOutOfBounds', `${cases.length} episodes per submit is outside ${config.minEpisodesPerSubmit}-${config.maxEpisodesPerSubmit}`, {
      episodes: cases.length,
      min: config.minEpisodesPerSubmit,
      max: config.maxEpisodesPerSubmit,
    });
  }
  if (state.submissions.size >= config.maxSubmissions) throw new RunError('submissionLimit', `the run allows ${config.maxSubmissions} submissions and all were used`, { maxSubmissions: config.maxSubmissions });
  const remaining = practice ? practiceBudgetOf(config) - state.practiceUsed : config.budget - state.used;
  const which = practice ? 'practice budget' : 'budget';
  if (remaining <= 0 || cases.length > remaining) {
    throw new RunError('budgetExhausted', remaining <= 0 ? `the ${which} is exhausted` : `${cases.length} episodes requested but only ${remaining} remain in the ${which}`, {
      requested: cases.length,
      remaining,
    });
  }
  const built = await executor.build(root, p.strict ? { typeCheck: true } : undefined);
  if (!built.ok) {
    const first = built.diagnostics.find((d) => d.severity === 'error');
    throw new RunError('bundleDoesNotBuild', `policy/ does not build${first ? `: ${first.file}:${first.line}:${first.column} ${first.message}` : ''}`, { diagnostics: built.diagnostics });
  }
  const typeErrors = built.diagnostics.filter((d) => d.kind === 'type' && d.severity === 'error');
  if (p.strict && typeErrors.length > 0) {
    const first = typeErrors[0]!;
    throw new RunError('typeErrors', `policy/ has ${typeErrors.length} type error(s), and a strict submit refuses them (nothing was charged): ${first.file}:${first.line}:${first.column} ${first.message}`, {
      diagnostics: built.diagnostics,
    });
  }
  return { bundle: built.bundle, cases, note: p.note, typeErrors: typeErrors.length, ...(practice ? { practice } : {}) };
}

/** Cases named by the submit, as a list or as ranges text, each inside the pool. */
function listedCases(listed: number[] | string, poolSize: number): number[] {
  let cases: number[];
  if (typeof listed === 'string') {
    const r = parseCaseRanges(listed);
    // An unreadable list is a malformed request; only a readable index past the pool is out of pool.
    if (!r.ok) throw new RunError('malformedRequest', `bad case list: ${r.message}`, { field: 'cases' });
    cases = r.cases;
  } else cases = listed;
  const bad = cases.find((i) => i < 0 || i >= poolSize);
  if (bad !== undefined) throw new RunError('indexOutOfPool', `case index ${bad} is outside the pool 0-${poolSize - 1}`, { index: bad, poolSize });
  return cases;
}

/** `n` cases the run has not used yet, lowest first; once the pool is used up, cycling from 0 again. */
export function nextCases(n: number, poolSize: number, used: ReadonlySet<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < poolSize && out.length < n; i++) if (!used.has(i)) out.push(i);
  for (let i = 0; out.length < n; i = (i + 1) % poolSize) out.push(i);
  return out;
}
