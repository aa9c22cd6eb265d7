/**
 * Golden replay for the Box2D family. Each trace is rebuilt from its recorded draws: our own
 * reset, fed the values Gymnasium drew, must produce the recorded world and the recorded first
 * observation. The actions are then replayed in one free rollout and every step is compared
 * with the recording until the first step that differs beyond tolerance. Box2D contact solving
 * is chaotic and planck computes in float64 where pybox2d uses float32, so a free rollout
 * leaves the recording after a while: `steps` in the result is how many steps agreed. At the
 * default tolerances a recorded trace passes when that reaches its documented horizon
 * (`horizons.ts`); any other trace, or other tolerances, must agree to its last step.
 */
import type { EnvRegistry } from '../core/registry';
import { GoldenFormatError, type TraceResult } from '../golden/types';
import { ScriptedDraws, type Draws } from './draws';
import type { Box2dTrace } from './goldenTrace';
import { documentedHorizon } from './horizons';

/** Observation tolerance: |Δ| ≤ OBS_TOL·max(1, |x|) (observations are O(1)); flags must match exactly. */
export const OBS_TOL = 1e-4;
/** Reward tolerance, absolute: LunarLander's reward is a difference of O(100) shaping terms. */
export const REWARD_TOL = 1e-2;

interface Replayable {
  draws: Draws;
}

export interface Box2dReplay extends TraceResult {
  /** Largest observation deviation seen before the horizon. */
  maxObsDev: number;
  /** The steps that must agree for this trace to pass: its documented horizon, else its length. */
  horizon: number;
}

export interface Box2dTolerances {
  obs: number;
  reward: number;
}

export function replayBox2dTrace(registry: EnvRegistry, envId: string, raw: unknown, tol: Box2dTolerances = { obs: OBS_TOL, reward: REWARD_TOL }): Box2dReplay {
  const trace = checkTrace(raw);
  const r = freeRollout(registry, envId, trace, tol);
  const documented = tol.obs === OBS_TOL && tol.reward === REWARD_TOL ? documentedHorizon(envId, trace) : undefined;
  if (r.passed || !documented) return { ...r, horizon: trace.steps.length };
  if (r.steps < documented.horizon) return { ...r, failure: `${r.failure} (documented horizon: ${documented.horizon} steps)`, horizon: documented.horizon };
  // Past the documented horizon the divergence is the known float32/float64 one, not a failure.
  const { failure, ...rest } = r;
  return { ...rest, passed: true, note: `documented horizon ${documented.horizon} of ${trace.steps.length} steps reached; then ${failure}`, horizon: documented.horizon };
}

function freeRollout(registry: EnvRegistry, envId: string, trace: Box2dTrace, tol: Box2dTolerances): Omit<Box2dReplay, 'horizon'> {
  const { env } = registry.make(envId, trace.make_kwargs);
  const inner = env.inner as unknown as Replayable;
  const draws = new ScriptedDraws(trace.rng_reset);
  inner.draws = draws;
  const n = trace.steps.length;
  let maxObsDev = 0;
  // `steps` counts the steps that agreed: a failure at step k leaves k - 1.
  const fail = (step: number, what: string): Omit<Box2dReplay, 'horizon'> => ({ name: trace.name, passed: false, steps: Math.max(0, step - 1), failure: `step ${step}: ${what}`, maxObsDev });

  const r0 = env.reset({ seed: trace.reset_seed });
  if (draws.remaining > 0) return fail(0, `reset made ${draws.remaining} fewer draws than recorded`);
  // CarRacing records frames as hashes and base64, compared by its own pixel test.
  if (Array.isArray(trace.initial_obs)) {
    const d = compareObs(r0.observation, trace.initial_obs, tol.obs);
    if (d.what) return fail(0, `initial obs ${d.what}`);
    maxObsDev = d.dev;
  }
  const continuous = env.actionSpace.describe().type === 'Box';
  for (let t = 0; t < n; t++) {
    const rec = trace.steps[t]!;
    draws.push(rec.rng ?? []);
    const a = trace.actions[t];
    let r;
    try {
      r = env.step(continuous ? Float64Array.from(a as number[]) : a);
    } catch (e) {
      return fail(t + 1, e instanceof Error ? e.message : String(e));
    }
    if (draws.remaining > 0) return fail(t + 1, `${draws.remaining} recorded draws were not made`);
    if (Array.isArray(rec.obs)) {
      const d = compareObs(r.observation, rec.obs, tol.obs);
      if (d.what) return fail(t + 1, `obs${d.what}`);
      maxObsDev = Math.max(maxObsDev, d.dev);
    }
    if (r.terminated !== rec.terminated) return fail(t + 1, `terminated expected ${rec.terminated} got ${r.terminated}`);
    if (r.truncated !== rec.truncated) return fail(t + 1, `truncated expected ${rec.truncated} got ${r.truncated}`);
    if (!(Math.abs(r.reward - rec.reward) <= tol.reward)) return fail(t + 1, `reward expected ${rec.reward} got ${r.reward}`);
  }
  return { name: trace.name, passed: true, steps: n, maxObsDev };
}

function compareObs(actual: unknown, expected: readonly number[], tol: number): { dev: number; what?: string } {
  const a = actual as ArrayLike<number>;
  if (!a || a.length !== expected.length) return { dev: Infinity, what: ` length expected ${expected.length} got ${a?.length}` };
  let dev = 0;
  for (let i = 0; i < expected.length; i++) {
    const d = Math.abs((a[i] as number) - (expected[i] as number));
    if (!(d <= tol * Math.max(1, Math.abs(expected[i] as number)))) return { dev: d, what: `[${i}] expected ${expected[i]} got ${a[i]}` };
    dev = Math.max(dev, d);
  }
  return { dev };
}

function checkTrace(raw: unknown): Box2dTrace {
  const t = raw as Partial<Box2dTrace>;
  if (!t || typeof t !== 'object' || !Array.isArray(t.actions) || !Array.isArray(t.steps) || !Array.isArray(t.rng_reset)) {
    throw new GoldenFormatError('Box2D trace needs actions, steps and rng_reset');
  }
  return { ...t, make_kwargs: t.make_kwargs ?? {}, name: typeof t.name === 'string' ? t.name : 'trace' } as Box2dTrace;
}
