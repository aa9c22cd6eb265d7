/**
 * Replays classic-control golden traces one step at a time: load the recorded state, apply the
 * recorded action, compare with the recorded step (state and reward to 1e-12 relative,
 * observations to one float32 ulp, flags exactly). Free rollouts would drift where V8's sin/cos
 * differ from glibc's by an ulp, which is why the comparison restarts from each recorded state.
 */
import type { EnvRegistry } from '../core/registry';
import { GoldenFormatError, type TraceResult } from './types';

interface ClassicTrace {
  name: string;
  initial_state: number[];
  initial_obs: number[];
  actions: (number | number[])[];
  steps: { obs: number[][]; state: number[][]; reward: number[]; terminated: boolean[]; truncated: boolean[] };
}

const REL_TOL = 1e-12;

export function replayClassicTrace(registry: EnvRegistry, envId: string, raw: unknown): TraceResult {
  const trace = checkTrace(raw);
  const { env } = registry.make(envId);
  const continuous = env.actionSpace.describe().type === 'Box';
  env.reset({ seed: 0 });
  const n = trace.actions.length;
  const fail = (step: number, what: string): TraceResult => ({ name: trace.name, passed: false, steps: n, failure: `step ${step}: ${what}` });

  env.setState(stateFor(envId, trace.initial_state, false));
  env.setElapsedSteps(0);
  for (let t = 0; t < n; t++) {
    const before = t === 0 ? trace.initial_state : (trace.steps.state[t - 1] as number[]);
    env.setState(stateFor(envId, before, t > 0));
    env.setElapsedSteps(t);
    const a = trace.actions[t] as number | number[];
    const action = continuous ? Float64Array.of(Math.fround(Array.isArray(a) ? (a[0] as number) : a)) : a;
    const r = env.step(action);
    const obs = r.observation as ArrayLike<number>;
    const expObs = trace.steps.obs[t] as number[];
    for (let i = 0; i < expObs.length; i++) {
      if (!withinUlp32(obs[i] as number, expObs[i] as number)) return fail(t + 1, `obs[${i}] expected ${expObs[i]} got ${obs[i]}`);
    }
    const state = flatState(env.getState());
    const expState = trace.steps.state[t] as number[];
    for (let i = 0; i < expState.length; i++) {
      if (!closeRel(state[i] as number, expState[i] as number)) return fail(t + 1, `state[${i}] expected ${expState[i]} got ${state[i]}`);
    }
    if (!closeRel(r.reward, trace.steps.reward[t] as number)) return fail(t + 1, `reward expected ${trace.steps.reward[t]} got ${r.reward}`);
    if (r.terminated !== trace.steps.terminated[t]) return fail(t + 1, `terminated expected ${trace.steps.terminated[t]} got ${r.terminated}`);
    if (r.truncated !== trace.steps.truncated[t]) return fail(t + 1, `truncated expected ${trace.steps.truncated[t]} got ${r.truncated}`);
  }
  return { name: trace.name, passed: true, steps: n };
}

/** MountainCarContinuous keeps float64 right after reset and float32 after every step. */
function stateFor(envId: string, values: number[], afterStep: boolean): unknown {
  if (envId.startsWith('MountainCarContinuous')) return { position: values[0], velocity: values[1], float32: afterStep };
  return values;
}

function flatState(s: unknown): number[] {
  const inner = (s as { inner?: unknown }).inner ?? s;
  if (Array.isArray(inner)) return inner as number[];
  const o = inner as { position: number; velocity: number };
  return [o.position, o.velocity];
}

function closeRel(actual: number, expected: number): boolean {
  return Math.abs(actual - expected) <= REL_TOL * Math.max(1, Math.abs(expected));
}

/** Equal within one float32 ulp (both values are float32-representable doubles). */
function withinUlp32(actual: number, expected: number): boolean {
  if (actual === expected) return true;
  if (!Number.isFinite(actual) || !Number.isFinite(expected)) return false;
  const buf = new Float32Array(2);
  const ints = new Int32Array(buf.buffer);
  buf[0] = actual;
  buf[1] = expected;
  const ia = ints[0] as number;
  const ie = ints[1] as number;
  // Map sign-magnitude to a monotonic integer line.
  const ma = ia < 0 ? -2147483648 - ia : ia;
  const me = ie < 0 ? -2147483648 - ie : ie;
  return Math.abs(ma - me) <= 1;
}

function checkTrace(raw: unknown): ClassicTrace {
  const t = raw as Partial<ClassicTrace>;
  const name = typeof t?.name === 'string' ? t.name : '(unnamed)';
  if (!Array.isArray(t?.initial_state)) throw new GoldenFormatError(`trace ${name}: missing initial_state`);
  if (!Array.isArray(t.actions)) throw new GoldenFormatError(`trace ${name}: missing actions`);
  const s = t.steps;
  if (!s || !Array.isArray(s.obs) || !Array.isArray(s.state) || !Array.isArray(s.reward) || !Array.isArray(s.terminated) || !Array.isArray(s.truncated)) {
    throw new GoldenFormatError(`trace ${name}: steps must have obs, state, reward, terminated, truncated arrays`);
  }
  for (const key of ['obs', 'state', 'reward', 'terminated', 'truncated'] as const) {
    if (s[key].length !== t.actions.length) throw new GoldenFormatError(`trace ${name}: steps.${key} has ${s[key].length} entries for ${t.actions.length} actions`);
  }
  return t as ClassicTrace;
}
