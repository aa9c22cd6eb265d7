/**
 * A real driving trajectory for replay tests and screenshots: the environment run with a fixed
 * action pattern, snapshots recorded the way the sandbox records them (JSON after reset and
 * after every step).
 */
import { createRegistry } from '../../../src/envs';
import type { Trajectory, TrajectoryStep } from '../../../src/protocol/episodes';

const json = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (_k, x: unknown) => (ArrayBuffer.isView(x) ? Array.from(x as Float64Array) : x)));

export function drivingTrajectory(envId: string, seed: number, maxSteps = 60): Trajectory {
  const { env } = createRegistry().make(envId);
  env.reset({ seed });
  const initialSnapshot = json(env.snapshot());
  const steps: TrajectoryStep[] = [];
  for (let t = 0; t < maxSteps; t++) {
    const observation = json((env.inner as unknown as { observe(): unknown }).observe());
    const action = envId === 'parking-v0' ? [0.3, t < 10 ? 0.5 : -0.2] : 1;
    const r = env.step(envId === 'parking-v0' ? Float64Array.from(action as number[]) : action);
    steps.push({ observation, action, reward: r.reward, terminated: r.terminated, truncated: r.truncated, snapshot: json(env.snapshot()) });
    if (r.terminated || r.truncated) break;
  }
  return { initialSnapshot, steps, truncated: false };
}
