/**
 * Real Box2D trajectories for replay tests and screenshots: the environment run under a fixed
 * action pattern (engine pulses for the lander, a sine gait for the walker, steady gas with a
 * slow steer for the car), recorded the way the sandbox records them (JSON snapshot after
 * reset and after every step).
 */
import { createRegistry } from '../../../src/envs';
import type { Trajectory, TrajectoryStep } from '../../../src/protocol/episodes';

const json = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (_k, x: unknown) => (ArrayBuffer.isView(x) ? Array.from(x as Float64Array) : x)));

function actionAt(envId: string, t: number): number | number[] {
  switch (envId) {
    case 'LunarLander-v3':
      return t % 4 === 0 ? 2 : t % 7 === 0 ? 1 : 0;
    case 'BipedalWalker-v3':
      return [Math.sin(t / 6), Math.cos(t / 6), -Math.sin(t / 6), -Math.cos(t / 6)];
    case 'CarRacing-v3':
      return [0.15 * Math.sin(t / 20), 0.4, 0];
    default:
      throw new Error(`no action pattern for ${envId}`);
  }
}

export function box2dTrajectory(envId: 'LunarLander-v3' | 'BipedalWalker-v3' | 'CarRacing-v3', seed: number, maxSteps = 80): Trajectory {
  const { env } = createRegistry().make(envId);
  let observation = json(env.reset({ seed }).observation);
  const initialSnapshot = json(env.snapshot());
  const steps: TrajectoryStep[] = [];
  for (let t = 0; t < maxSteps; t++) {
    const action = actionAt(envId, t);
    const r = env.step(Array.isArray(action) ? Float64Array.from(action) : action);
    steps.push({ observation, action, reward: r.reward, terminated: r.terminated, truncated: r.truncated, snapshot: json(env.snapshot()) });
    observation = json(r.observation);
    if (r.terminated || r.truncated) break;
  }
  return { initialSnapshot, steps, truncated: false };
}
