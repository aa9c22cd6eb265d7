/**
 * Driving episodes recorded twice by the sandbox's own recorder, as `highway-delta/1` and in the
 * plain layout, under a fixed action pattern that changes lanes and speeds (and, for parking,
 * steers toward and past the goal) so vehicles crash, spawn and leave.
 */
import type { Env } from '../../../src/envs/core/env';
import { createRegistry } from '../../../src/envs';
import type { RecordedTrajectory } from '../../../src/protocol/episodes';
import { jsonText, TrajectoryRecorder } from '../../../src/sandbox/worker/trajectory';

const registry = createRegistry();

export interface RecordedDriving {
  plain: RecordedTrajectory;
  compact: RecordedTrajectory;
}

/** The plain and stored recordings of one episode of `id`, at most `maxSteps` steps. */
export function recordDriving(id: string, seed: number, maxSteps = 200): RecordedDriving {
  const { env } = registry.make(id);
  const recorder = new TrajectoryRecorder(maxSteps, true);
  const plainRecorder = new TrajectoryRecorder(maxSteps, true);
  let obs = env.reset({ seed }).observation;
  recorder.initial(env);
  // Seen through an object that offers no deltaRecorder(), the plain recorder keeps every step whole.
  // Its first snapshot is the one the stored header took (the road goes into the first snapshot only).
  const first = recorder.trajectory.initialSnapshot;
  plainRecorder.initial({ snapshot: () => first } as unknown as Env);
  for (let t = 0; t < maxSteps; t++) {
    const a = id === 'parking-v0' ? Float64Array.from([Math.sin(0.2 * t + seed), Math.cos(0.3 * t)]) : ([0, 2, 1, 3, 4, 1, 1, 2][(t + seed) % 8] as number) % (env.actionSpace as unknown as { n: number }).n;
    const seen = recorder.seen(obs)!;
    const plainSeen = jsonText(obs);
    const r = env.step(a);
    recorder.push(seen, a, r.reward, r.terminated, r.truncated, r.info, () => env.snapshot?.());
    plainRecorder.push(plainSeen, a, r.reward, r.terminated, r.truncated, r.info, () => env.snapshot?.());
    obs = r.observation;
    if (r.terminated || r.truncated) break;
  }
  return { plain: plainRecorder.trajectory, compact: recorder.trajectory };
}

/** Bytes of a recorded trajectory as the file holds it (header's initialSnapshot plus the step lines). */
export function trajectoryBytes(t: RecordedTrajectory): number {
  return t.stepsJsonl.length + JSON.stringify(t.initialSnapshot ?? null).length;
}
