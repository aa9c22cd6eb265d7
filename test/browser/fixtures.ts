/**
 * Recorded data for the panel tests and screenshots that the shared webview fixtures do not
 * cover: a MiniGrid episode recorded from the real environment (observations, snapshots, action
 * indices), a failed episode, and a run whose returns live in 0..1 as MiniGrid's do.
 */
import { EnvRegistry } from '../../src/envs/core/registry';
import { minigridEnvironments } from '../../src/envs/minigrid';
import type { EpisodeSummary, SubmissionSummary } from '../../src/protocol/feedback';
import type { Trajectory, TrajectoryStep } from '../../src/protocol/episodes';

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** Copies an observation out of the environment's reused buffers, as the sandbox records it. */
function toJson(o: unknown): unknown {
  if (ArrayBuffer.isView(o)) return Array.from(o as unknown as ArrayLike<number>);
  if (Array.isArray(o)) return o.map(toJson);
  if (typeof o === 'object' && o !== null) return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, toJson(v)]));
  return o;
}

/**
 * One episode of a MiniGrid environment under a seeded policy that mostly walks forward and
 * turns, picks up and toggles now and then: every action name shows up within a few steps.
 */
export function recordMiniGridEpisode(envId = 'MiniGrid-DoorKey-6x6-v0', seed = 5, maxSteps = 40): Trajectory {
  const registry = new EnvRegistry();
  registry.registerAll(minigridEnvironments);
  const { env } = registry.make(envId);
  const r = rng(seed);
  const reset = env.reset({ seed });
  const initialSnapshot = toJson(env.inner.snapshot?.());
  let observation = toJson(reset.observation);
  const steps: TrajectoryStep[] = [];
  // left, right, forward, pickup, toggle: forward half the time.
  const choices = [0, 1, 2, 2, 2, 2, 3, 5];
  for (let t = 0; t < maxSteps; t++) {
    const action = t < 2 ? [2, 1][t]! : choices[Math.floor(r() * choices.length)]!;
    const res = env.step(action);
    steps.push({ observation, action, reward: res.reward, terminated: res.terminated, truncated: res.truncated, snapshot: toJson(env.inner.snapshot?.()) });
    observation = toJson(res.observation);
    if (res.terminated || res.truncated) break;
  }
  return { initialSnapshot, steps, truncated: false };
}

/** The first `steps` steps of an episode whose policy then threw. */
export function failedEpisode(trajectory: Trajectory, steps: number, caseIndex = 2): { episode: EpisodeSummary; trajectory: Trajectory } {
  const kept = trajectory.steps.slice(0, steps);
  return {
    trajectory: { ...trajectory, steps: kept },
    episode: {
      caseIndex,
      status: 'exception',
      return: kept.reduce((a, s) => a + s.reward, 0),
      length: kept.length,
      terminated: false,
      truncated: false,
      wallMs: 3,
      error: { message: "TypeError: Cannot read properties of undefined (reading 'color')", location: { file: 'policy/policy.ts', line: 27, column: 14 } },
    },
  };
}

/** The run with every episode's return mapped by `f`, and the statistics recomputed. */
export function mapReturns(subs: readonly SubmissionSummary[], f: (ret: number, e: EpisodeSummary, s: SubmissionSummary) => number): SubmissionSummary[] {
  return subs.map((s) => {
    const episodes = s.episodes.map((e) => ({ ...e, return: f(e.return, e, s) }));
    const rets = episodes.map((e) => e.return);
    const mean = rets.reduce((a, b) => a + b, 0) / rets.length;
    const std = Math.sqrt(rets.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, rets.length - 1));
    return { ...s, envId: 'MiniGrid-DoorKey-6x6-v0', episodes, stats: { ...s.stats, mean, std, stderr: std / Math.sqrt(rets.length), min: Math.min(...rets), max: Math.max(...rets) } };
  });
}

/** MiniGrid-like returns: every ok episode reaches the goal in 0.93..0.97, failures score 0. */
export function miniGridReturns(subs: readonly SubmissionSummary[]): SubmissionSummary[] {
  const r = rng(11);
  return mapReturns(subs, (_ret, e) => (e.status === 'ok' ? 0.93 + 0.04 * r() : 0));
}
