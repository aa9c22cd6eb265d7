/**
 * Replays HighwayEnv golden traces. The recorded scene after reset is loaded, then the recorded
 * actions are applied in one free rollout, with each step's recorded NumPy draws fed to a
 * scripted random source. Everything recorded must match step by step: observation, reward,
 * info (speed, crashed, reward terms, success), flags exactly, and every vehicle's state, to a
 * relative error of 1e-9. A second check rebuilds the scene with our own reset fed the recorded
 * reset draws and compares it with the recorded scene.
 */
import type { EnvRegistry } from '../core/registry';
import { GoldenFormatError, type TraceResult } from './types';

interface HighwayTrace {
  name: string;
  initial_state: { vehicles: unknown[] } & Record<string, unknown>;
  initial_obs: unknown;
  rng_reset: unknown[];
  actions: unknown[];
  steps: { obs: unknown; reward: number; terminated: boolean; truncated: boolean; info: Record<string, unknown>; state: Record<string, unknown>; rng: unknown[] }[];
}

interface DrivingEnvLike {
  observe(): unknown;
  getState(): Record<string, unknown>;
  setState(s: unknown): void;
  useScriptedDraws(d: unknown[] | null): unknown;
  readonly pendingDraws: number;
  reset(opts?: unknown): unknown;
}

export const HIGHWAY_REL_TOL = 1e-9;

/** Largest relative error seen in the last replay (for reports). */
export let lastMaxRelError = 0;

export function replayHighwayTrace(registry: EnvRegistry, envId: string, raw: unknown, opts: { checkReset?: boolean } = {}): TraceResult {
  const trace = checkTrace(raw);
  const { env } = registry.make(envId);
  const inner = env.inner as unknown as DrivingEnvLike;
  const n = trace.actions.length;
  const fail = (step: number, what: string): TraceResult => ({ name: trace.name, passed: false, steps: n, failure: `step ${step}: ${what}` });
  lastMaxRelError = 0;

  if (opts.checkReset !== false) {
    inner.useScriptedDraws(trace.rng_reset);
    env.reset({ seed: 0 });
    const left = inner.pendingDraws;
    inner.useScriptedDraws(null);
    if (left > 0) return fail(0, `reset made ${left} fewer draws than recorded`);
    const d = diff(inner.getState(), trace.initial_state, 'reset state');
    if (d) return fail(0, d);
  }

  inner.useScriptedDraws(null);
  env.reset({ seed: 0 });
  env.setState(trace.initial_state);
  env.setElapsedSteps(0);
  inner.useScriptedDraws([]);
  const obs0 = diff(normalizeObs(inner.observe()), expectedObs(trace.initial_obs), 'initial obs');
  if (obs0) return fail(0, obs0);

  for (let t = 0; t < n; t++) {
    const s = trace.steps[t] as HighwayTrace['steps'][number];
    inner.useScriptedDraws(s.rng);
    const a = trace.actions[t];
    const action = Array.isArray(a) ? Float64Array.from(a as number[]) : a;
    const r = env.step(action);
    if (inner.pendingDraws > 0) return fail(t + 1, `${inner.pendingDraws} recorded draws were not made`);
    const checks: [unknown, unknown, string][] = [
      [normalizeObs(r.observation), expectedObs(s.obs), 'obs'],
      [r.reward, s.reward, 'reward'],
      [r.terminated, s.terminated, 'terminated'],
      [r.truncated, s.truncated, 'truncated'],
      [r.info, s.info, 'info'],
      [inner.getState(), s.state, 'state'],
    ];
    for (const [actual, expected, what] of checks) {
      const d = diff(actual, expected, what);
      if (d) return fail(t + 1, d);
    }
  }
  return { name: trace.name, passed: true, steps: n };
}

function normalizeObs(o: unknown): unknown {
  if (ArrayBuffer.isView(o)) return Array.from(o as Float64Array);
  if (o && typeof o === 'object') return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, normalizeObs(v)]));
  return o;
}

function expectedObs(o: unknown): unknown {
  const x = o as { data?: unknown; shape?: unknown };
  if (x && typeof x === 'object' && Array.isArray(x.data) && Array.isArray(x.shape)) return x.data;
  return o;
}

/**
 * The first difference between `actual` and `expected`, in words; null when they agree. Only the
 * keys `expected` has are compared (our states carry a few more). Booleans, strings and integers
 * must be equal; other numbers may differ by HIGHWAY_REL_TOL relative.
 */
export function diff(actual: unknown, expected: unknown, path: string): string | null {
  if (typeof expected === 'number') {
    if (typeof actual === 'boolean' && (expected === 0 || expected === 1)) actual = actual ? 1 : 0;
    if (typeof actual !== 'number') return `${path}: expected ${expected}, got ${JSON.stringify(actual)}`;
    if (Number.isNaN(expected) && Number.isNaN(actual)) return null;
    const err = Math.abs(actual - expected) / Math.max(1, Math.abs(expected));
    if (!(err <= HIGHWAY_REL_TOL)) return `${path}: expected ${expected}, got ${actual} (relative error ${err.toExponential(2)})`;
    if (err > lastMaxRelError) lastMaxRelError = err;
    return null;
  }
  if (typeof expected === 'boolean' && (actual === 0 || actual === 1)) actual = actual === 1;
  if (expected === null || typeof expected !== 'object') {
    return actual === expected ? null : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array of ${expected.length}, got ${JSON.stringify(actual)}`;
    if (actual.length !== expected.length) return `${path}: expected ${expected.length} entries, got ${actual.length} (${JSON.stringify(actual).slice(0, 300)})`;
    for (let i = 0; i < expected.length; i++) {
      const d = diff(actual[i], expected[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (!actual || typeof actual !== 'object') return `${path}: expected an object, got ${JSON.stringify(actual)}`;
  for (const [k, v] of Object.entries(expected)) {
    const d = diff((actual as Record<string, unknown>)[k], v, `${path}.${k}`);
    if (d) return d;
  }
  return null;
}

function checkTrace(raw: unknown): HighwayTrace {
  const t = raw as Partial<HighwayTrace> | null;
  if (!t || typeof t !== 'object' || typeof t.name !== 'string') throw new GoldenFormatError('HighwayEnv trace needs a name');
  if (!t.initial_state || !Array.isArray(t.actions) || !Array.isArray(t.steps) || !Array.isArray(t.rng_reset)) {
    throw new GoldenFormatError(`HighwayEnv trace ${t.name} needs initial_state, rng_reset, actions and steps`);
  }
  if (t.steps.length !== t.actions.length) throw new GoldenFormatError(`HighwayEnv trace ${t.name}: ${t.steps.length} steps for ${t.actions.length} actions`);
  return t as HighwayTrace;
}
