/**
 * The static sizes of Gymnasium's MuJoCo v5 models: spaces and layouts are built from these, so
 * listing environments and generating types never instantiate the engine (a test checks them
 * against the compiled models).
 *
 * The tasks (planar.ts, ant.ts, humanoid.ts, pendulums.ts, arms.ts) take every Gymnasium v5
 * constructor argument as an option with its default; tuple arguments (ranges) are split into
 * `_min` and `_max`, and an unbounded end is ±Number.MAX_VALUE (parameters are JSON numbers; the
 * comparisons come out the same as with infinities for any finite state).
 */
import type { ModelInfo } from './mujocoEnv';

export const MODELS = {
  ant: { file: 'gymnasium/ant.xml', nq: 15, nv: 14, nu: 8, nbody: 14, ctrlLimit: 1, timestep: 0.01, view: { track: 'torso', distance: 4 } },
  halfCheetah: { file: 'gymnasium/half_cheetah.xml', nq: 9, nv: 9, nu: 6, nbody: 8, ctrlLimit: 1, timestep: 0.01, view: { track: 'torso', distance: 4 } },
  hopper: { file: 'gymnasium/hopper.xml', nq: 6, nv: 6, nu: 3, nbody: 5, ctrlLimit: 1, timestep: 0.002, view: { track: 'torso', distance: 3 } },
  humanoid: { file: 'gymnasium/humanoid.xml', nq: 24, nv: 23, nu: 17, nbody: 14, ctrlLimit: 0.4, timestep: 0.003, view: { track: 'torso', distance: 4 } },
  humanoidStandup: { file: 'gymnasium/humanoidstandup.xml', nq: 24, nv: 23, nu: 17, nbody: 14, ctrlLimit: 0.4, timestep: 0.003, view: { track: 'torso', distance: 4 } },
  invertedDoublePendulum: { file: 'gymnasium/inverted_double_pendulum.xml', nq: 3, nv: 3, nu: 1, nbody: 4, ctrlLimit: 1, timestep: 0.01, view: { lookat: [0, 0, 0.5], distance: 4.1 } },
  invertedPendulum: { file: 'gymnasium/inverted_pendulum.xml', nq: 2, nv: 2, nu: 1, nbody: 3, ctrlLimit: 3, timestep: 0.02, view: { lookat: [0, 0, 0.3], distance: 2.5 } },
  pusher: { file: 'gymnasium/pusher_v5.xml', nq: 11, nv: 11, nu: 7, nbody: 13, ctrlLimit: 2, timestep: 0.01, view: { lookat: [0.2, -0.3, 0], distance: 2.5 } },
  reacher: { file: 'gymnasium/reacher.xml', nq: 4, nv: 4, nu: 2, nbody: 5, ctrlLimit: 1, timestep: 0.01, view: { lookat: [0, 0, 0], distance: 0.9 } },
  swimmer: { file: 'gymnasium/swimmer.xml', nq: 5, nv: 5, nu: 2, nbody: 4, ctrlLimit: 1, timestep: 0.01, view: { track: 'torso', distance: 3 } },
  walker2d: { file: 'gymnasium/walker2d_v5.xml', nq: 9, nv: 9, nu: 6, nbody: 8, ctrlLimit: 1, timestep: 0.002, view: { track: 'torso', distance: 4 } },
} as const satisfies Record<string, ModelInfo>;

/** Gymnasium's `observation_structure`: how many values each part contributes, in order. */
export type ObservationStructure = Readonly<Record<string, number>>;
/** The structure of a task whose observation may leave out the first qpos entries (`exclude_current_positions_from_observation`). */
export type PositionsStructure = ObservationStructure & { readonly skipped_qpos: number };
