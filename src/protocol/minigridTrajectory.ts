/**
 * MiniGrid (and BabyAI) trajectories as the runner stores them: the world once, then what each
 * step changed. This module is what the environments write with; `trajectoryReaders/minigrid.ts`
 * turns that back into the plain steps (the observation the policy saw, the world snapshot after
 * the step), exactly as the environment produced them, so a reader (the replay panel, tests)
 * sees the same trajectory either way. The layout is documented for agents in
 * `src/envs/minigrid/README.md` ("Trajectory files").
 *
 * Why not the plain form: each plain step carried the 147-value image and a whole world
 * snapshot, ~1 KB, where the change is usually a pose.
 */

/** The `format` of a trajectory written this way (header line and RecordedTrajectory). */
export const MINIGRID_DELTA_FORMAT = 'minigrid-delta/1';

/** The agent's view is VIEW × VIEW cells. */
export const VIEW = 7;

/** The view rows of a 7×7 visibility mask indexed i*7+j (MiniGridEnv.viewMask). */
export function viewRowsOf(mask: ArrayLike<number>): number[] {
  const rows: number[] = [];
  for (let j = 0; j < VIEW; j++) {
    let r = 0;
    for (let i = 0; i < VIEW; i++) if (mask[i * VIEW + j] !== 0) r |= 1 << i;
    rows.push(r);
  }
  return rows;
}
