/**
 * MuJoCo episodes recorded twice by the sandbox's own recorder, as the environment's stored
 * format and in the plain layout, under an open-loop sine gait (phase-shifted per actuator):
 * enough motion that a walker travels, falls or flips and an arm moves.
 */
import * as assert from 'node:assert/strict';
import type { Env } from '../../../src/envs/core/env';
import { resolveParams } from '../../../src/envs/core/params';
import { Box } from '../../../src/envs/core/spaces';
import { mujocoEnvironments } from '../../../src/envs/mujoco';
import { loadMujoco } from '../../../src/envs/mujoco/engine';
import type { RecordedTrajectory, TrajectoryStep } from '../../../src/protocol/episodes';
import { toJson } from '../../../src/sandbox/worker/observationCopy';
import { jsonText, TrajectoryRecorder } from '../../../src/sandbox/worker/trajectory';

export interface Recorded {
  /** As the environment produced it, every step whole (observation, full `info`), as a file holds it. */
  plain: { initialSnapshot: unknown; steps: TrajectoryStep[] };
  plainBytes: number;
  compact: RecordedTrajectory;
  /** The recorded Env, for its `rewardTerms`. */
  env: Env & { rewardTerms: readonly string[] };
}

/** One episode of `id`, at most `maxSteps` steps (the environment's own limit applies first). */
export async function recordMujoco(id: string, seed: number, maxSteps: number): Promise<Recorded> {
  await loadMujoco();
  const def = mujocoEnvironments.find((d) => d.id === id);
  if (!def) throw new Error(`no MuJoCo environment ${id}`);
  await def.load?.();
  const env = def.create(resolveParams(id, def.params)) as Env & { rewardTerms: readonly string[] };
  if (!(env.actionSpace instanceof Box)) throw new Error(`${id}: a Box action space was expected`);
  const high = env.actionSpace.high;
  const recorder = new TrajectoryRecorder(maxSteps, true);
  const plainRecorder = new TrajectoryRecorder(maxSteps, true);
  let obs = env.reset({ seed }).observation;
  recorder.initial(env);
  // Seen through an object that offers no deltaRecorder(), the plain recorder keeps every step whole.
  plainRecorder.initial({ snapshot: () => env.snapshot?.() } as unknown as Env);
  const initialSnapshot = JSON.parse(JSON.stringify(plainRecorder.trajectory.initialSnapshot)) as unknown;
  const steps: TrajectoryStep[] = [];
  for (let t = 0; t < maxSteps && t < (def.maxEpisodeSteps ?? Infinity); t++) {
    const a = Float64Array.from(high, (h, i) => h * Math.sin(0.6 * t + (i * Math.PI) / 3 + seed));
    const seen = toJson(obs);
    const seenText = recorder.seen(obs);
    const plainSeen = jsonText(obs);
    const r = env.step(a);
    const step: TrajectoryStep = { observation: seen, action: toJson(a), reward: r.reward, terminated: r.terminated, truncated: r.truncated };
    if (Object.keys(r.info).length > 0) step.info = toJson(r.info) as Record<string, unknown>;
    step.snapshot = toJson(env.snapshot?.());
    // As a file holds it: JSON has no -0.
    steps.push(JSON.parse(JSON.stringify(step)) as TrajectoryStep);
    assert.equal(seenText, '', 'the stored layout does not keep the observation');
    recorder.push(seenText!, a, r.reward, r.terminated, r.truncated, r.info, () => env.snapshot?.());
    plainRecorder.push(plainSeen, a, r.reward, r.terminated, r.truncated, r.info, () => env.snapshot?.());
    obs = r.observation;
    if (r.terminated || r.truncated) break;
  }
  const p = plainRecorder.trajectory;
  return { plain: { initialSnapshot, steps }, plainBytes: p.stepsJsonl.length + JSON.stringify(p.initialSnapshot ?? null).length, compact: recorder.trajectory, env };
}

