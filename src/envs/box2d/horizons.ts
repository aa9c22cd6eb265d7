/**
 * The documented agreement horizon of every recorded Box2D golden trace
 * (`test/fixtures/golden/box2d_*.json`; README, "Agreement horizons"): how many steps of its free
 * rollout stay within the family's default tolerances before float64 arithmetic leaves pybox2d's
 * float32 trajectory. The rollout is deterministic, so reaching the horizon is the pass mark for
 * `policyforge golden` and the unit tests, and a shorter agreement is a regression.
 *
 * A trace is recognised by its env id, `continuous` flag, name, reset seed and length together,
 * so another trace that happens to share a name is held to its whole length.
 */

export interface DocumentedHorizon {
  envId: string;
  /** The trace's `make_kwargs` set `continuous: true` (Gymnasium records both landers as LunarLander-v3). */
  continuous: boolean;
  name: string;
  resetSeed: number;
  /** Steps recorded in the trace. */
  length: number;
  /** Steps that must agree; equal to `length` when the whole episode does. */
  horizon: number;
}

const row = (envId: string, continuous: boolean, name: string, resetSeed: number, length: number, horizon: number): DocumentedHorizon => ({ envId, continuous, name, resetSeed, length, horizon });

export const DOCUMENTED_HORIZONS: readonly DocumentedHorizon[] = [
  // Where LunarLander ends early it is at touchdown: contact solving amplifies the arithmetic
  // difference (heuristic_1 lands), or the lander's sleep comes one step apart.
  row('LunarLander-v3', false, 'random_0', 3000, 62, 62),
  row('LunarLander-v3', false, 'heuristic_1', 3001, 311, 173),
  row('LunarLander-v3', false, 'noisy_heuristic_2', 3002, 116, 116),
  row('LunarLander-v3', false, 'noop_3', 3003, 79, 79),
  row('LunarLander-v3', true, 'random_0', 3100, 99, 99),
  row('LunarLander-v3', true, 'heuristic_1', 3101, 230, 202),
  row('LunarLander-v3', true, 'extreme_2', 3102, 74, 74),
  row('LunarLander-v3', true, 'noisy_heuristic_3', 3103, 220, 219),
  // Box2D 2.3's own sources built with float64 leave the walker traces at these same steps.
  row('BipedalWalker-v3', false, 'random_0', 3200, 89, 56),
  row('BipedalWalker-v3', false, 'sine_1', 3201, 34, 34),
  row('BipedalWalker-v3', false, 'extreme_2', 3202, 101, 77),
  // CarRacing: rewards and flags for the whole trace (frames have their own pixel test).
  row('CarRacing-v3', false, 'follow_0', 3300, 250, 250),
  row('CarRacing-v3', false, 'random_1', 3301, 250, 250),
];

/** The documented horizon of a recorded trace, or undefined for any other trace. */
export function documentedHorizon(envId: string, trace: { name?: unknown; reset_seed?: unknown; make_kwargs?: Record<string, unknown>; steps?: unknown[] }): DocumentedHorizon | undefined {
  const continuous = trace.make_kwargs?.['continuous'] === true;
  return DOCUMENTED_HORIZONS.find(
    (d) =>
      d.envId === envId &&
      d.continuous === continuous &&
      d.name === trace.name &&
      d.resetSeed === trace.reset_seed &&
      d.length === trace.steps?.length,
  );
}
