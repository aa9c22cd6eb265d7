/**
 * MuJoCo episodes recorded from the real environments for the replay's browser tests and
 * screenshots: observations, actions and snapshots exactly as the sandbox records them (the first
 * snapshot carries the scene, later ones only qpos).
 */
import { resolveParams } from '../../src/envs/core/params';
import { Box } from '../../src/envs/core/spaces';
import { mujocoEnvironments } from '../../src/envs/mujoco';
import { loadMujoco } from '../../src/envs/mujoco/engine';
import type { Trajectory, TrajectoryStep } from '../../src/protocol/episodes';

function toJson(o: unknown): unknown {
  if (ArrayBuffer.isView(o)) return Array.from(o as unknown as ArrayLike<number>);
  if (Array.isArray(o)) return o.map(toJson);
  if (typeof o === 'object' && o !== null) return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, toJson(v)]));
  return o;
}

/**
 * `steps` steps of `envId` under an open-loop sine gait (phase-shifted per actuator), or under
 * `act` when given: enough motion that a walker travels and an arm moves.
 */
export async function recordMujocoEpisode(envId: string, seed: number, steps: number, act?: (obs: unknown, t: number) => Float64Array): Promise<Trajectory> {
  await loadMujoco();
  const def = mujocoEnvironments.find((d) => d.id === envId);
  if (!def) throw new Error(`no MuJoCo environment ${envId}`);
  await def.load?.();
  const env = def.create(resolveParams(envId, def.params));
  const reset = env.reset({ seed });
  const initialSnapshot = toJson(env.snapshot?.());
  let observation = toJson(reset.observation);
  const out: TrajectoryStep[] = [];
  if (!(env.actionSpace instanceof Box)) throw new Error(`${envId}: a Box action space was expected`);
  const high = env.actionSpace.high;
  const nu = high.length;
  for (let t = 0; t < steps; t++) {
    const action = act?.(observation, t) ?? Float64Array.from({ length: nu }, (_, i) => (high[i] as number) * Math.sin(0.6 * t + (i * Math.PI) / 3));
    const res = env.step(action);
    out.push({ observation, action: Array.from(action), reward: res.reward, terminated: res.terminated, truncated: res.truncated, snapshot: toJson(env.snapshot?.()) });
    observation = toJson(res.observation);
    if (res.terminated || res.truncated) break;
  }
  return { initialSnapshot, steps: out, truncated: false };
}
