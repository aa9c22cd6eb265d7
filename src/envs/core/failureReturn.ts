/**
 * The failure return: what a failed episode scores in every mean (train feedback, the best train
 * mean, validation, assessment). An environment declares the worst return an episode can get
 * within its time limit, so failing is never better than finishing: Acrobot −500 (−1 for each
 * of 500 steps), CartPole 0, MiniGrid 0. A task without a lower bound declares a finite one and
 * says how it was reached; the scoring rule (`src/stats/failureScore.ts`) keeps a partial return
 * that is already lower, so a failure never scores above what the episode had reached.
 */
import type { ParamValues } from './params';

export type FailureReturn = number | ((params: ParamValues) => number);

/** The definition fields the failure return is read from. */
interface Declares {
  readonly id: string;
  readonly failureReturn?: FailureReturn;
  readonly rewardRange?: readonly [number, number];
  readonly maxEpisodeSteps?: number | null;
}

/**
 * The failure return of `def` under `params`. A plugin written before the field existed gets
 * the per-step minimum reward × the step limit when both are finite; otherwise this throws,
 * naming the environment.
 */
export function failureReturnOf(def: Declares, params: ParamValues): number {
  const declared = def.failureReturn;
  const value = typeof declared === 'function' ? declared(params) : declared ?? derived(def);
  if (value === undefined || !Number.isFinite(value)) {
    throw new Error(
      `environment ${def.id} declares no finite failureReturn${declared === undefined ? ' (and its rewardRange minimum × maxEpisodeSteps is not finite)' : ` (got ${String(value)})`}: declare the worst return an episode can get within its time limit`,
    );
  }
  return value;
}

/** Whether `def` has a failure return, declared or derived, without calling a declared function. */
export function hasFailureReturn(def: Declares): boolean {
  if (typeof def.failureReturn === 'function') return true;
  if (typeof def.failureReturn === 'number') return Number.isFinite(def.failureReturn);
  return def.failureReturn === undefined && derived(def) !== undefined;
}

function derived(def: Declares): number | undefined {
  const low = def.rewardRange?.[0];
  const steps = def.maxEpisodeSteps;
  if (typeof low !== 'number' || typeof steps !== 'number') return undefined;
  const v = low * steps;
  // −0 would print as "-0" in a table.
  return Number.isFinite(v) ? v + 0 : undefined;
}
