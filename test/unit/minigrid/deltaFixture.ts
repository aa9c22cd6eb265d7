/**
 * MiniGrid episodes recorded twice by the sandbox's own recorder, in the plain layout and as the
 * world plus changes (minigrid-delta/1), and the trajectory file the runner writes of the latter.
 */
import * as assert from 'node:assert/strict';
import { EnvRegistry } from '../../../src/envs/core/registry';
import { Rng } from '../../../src/envs/core/rng';
import { minigridEnvironments } from '../../../src/envs/minigrid';
import type { MiniGridObservation } from '../../../src/envs/minigrid/minigridEnv';
import type { RecordedTrajectory, TrajectoryStep } from '../../../src/protocol/episodes';
import { toJson } from '../../../src/sandbox/worker/observationCopy';
import { jsonText, TrajectoryRecorder } from '../../../src/sandbox/worker/trajectory';

const registry = new EnvRegistry();
registry.registerAll(minigridEnvironments);

/** A random policy that picks up, drops and toggles often enough to change the world. */
function act(obs: MiniGridObservation, rng: Rng): number {
  const front = obs.image[(3 * 7 + 5) * 3]!;
  const u = rng.integers(0, 100);
  if ((front === 5 || front === 6 || front === 7) && u < 50) return 3;
  if ((front === 4 || front === 7) && u < 60) return 5;
  if (u < 6) return 4;
  return rng.integers(0, 3);
}

export interface Recorded {
  plain: { initialSnapshot: unknown; steps: TrajectoryStep[] };
  plainBytes: number;
  compact: RecordedTrajectory;
}

export function record(id: string, seed: number, maxSteps = 5000): Recorded {
  const { env } = registry.make(id);
  const rng = new Rng(seed);
  const recorder = new TrajectoryRecorder(maxSteps, true);
  const plainRecorder = new TrajectoryRecorder(maxSteps, true);
  let obs = env.reset({ seed }).observation as MiniGridObservation;
  recorder.initial(env);
  const initialSnapshot = toJson(env.snapshot());
  const steps: TrajectoryStep[] = [];
  for (let t = 0; t < maxSteps; t++) {
    const seen = toJson(obs);
    const seenText = recorder.seen(obs);
    const plainSeen = jsonText(obs);
    const a = act(obs, rng);
    const r = env.step(a);
    const step: TrajectoryStep = { observation: seen, action: a, reward: r.reward, terminated: r.terminated, truncated: r.truncated };
    if (Object.keys(r.info).length > 0) step.info = toJson(r.info) as Record<string, unknown>;
    step.snapshot = toJson(env.snapshot());
    steps.push(step);
    assert.equal(seenText, '', 'the delta layout does not keep the observation');
    recorder.push(seenText!, a, r.reward, r.terminated, r.truncated, r.info, () => env.snapshot());
    plainRecorder.push(plainSeen, a, r.reward, r.terminated, r.truncated, r.info, () => env.snapshot());
    obs = r.observation as MiniGridObservation;
    if (r.terminated || r.truncated) break;
  }
  return { plain: { initialSnapshot, steps }, plainBytes: plainRecorder.trajectory.stepsJsonl.length, compact: recorder.trajectory };
}


/** The file the runner writes for a recorded trajectory: a header line (with `format`), then the step lines. */
export function trajectoryFileText(t: RecordedTrajectory, length: number): string {
  const header = { caseIndex: 0, status: 'ok', return: 0, length, terminated: false, truncated: false, trajectoryTruncated: t.truncated, format: t.format, initialSnapshot: t.initialSnapshot };
  return `${JSON.stringify(header)}\n${t.stepsJsonl}\n`;
}
