/**
 * MuJoCo (Gymnasium v5 and Fetch) trajectories as the runner stores them: the scene once per
 * episode, then per step the action, the reward, the reward terms and qpos in thousandths.
 * `trajectoryReaders/mujoco.ts` turns that back into the plain steps the replay reads.
 *
 * Why not the plain form: each plain step repeated the whole observation at full precision
 * (348 numbers for Humanoid) and every `info` value, where the replay needs only the pose and an
 * agent reads the action, the reward and what it was made of. A 1000-step HalfCheetah episode
 * was 780 kB.
 *
 * What is exact and what is not:
 * - Poses are exact: the environments' own snapshots hold qpos rounded to thousandths
 *   (`replayQpos`), and the stored integers are those thousandths, so the expanded snapshot
 *   equals the environment's.
 * - The action, the reward and the reward terms are rounded to 4 decimals (`reported`); the
 *   episode's exact return is in the file's header and in summary.json.
 * - The observation and the `info` values that follow from the pose (positions, distances,
 *   velocities, tendon lengths) are not stored; the family's AGENTS.md section says how to get
 *   them. The plain steps of this format therefore carry no observation and only the terms in
 *   `info`.
 */

/** The `format` of a trajectory written this way (header line and RecordedTrajectory). */
export const MUJOCO_DELTA_FORMAT = 'mujoco-delta/1';

/** Stored qpos values are integers in these units per metre or radian: thousandths (1 mm, 1 mrad). */
export const QPOS_SCALE = 1000;
const REPORTED_SCALE = 1e4;

/** A qpos value as stored: whole thousandths (null when not finite, as JSON writes it). */
export function qposCode(v: number): number {
  return Math.round(v * QPOS_SCALE);
}

/** qpos as replay snapshots hold it: each value rounded to thousandths. */
export function replayQpos(q: ArrayLike<number>): number[] {
  const out = new Array<number>(q.length);
  for (let i = 0; i < q.length; i++) out[i] = qposCode(q[i] as number) / QPOS_SCALE;
  return out;
}

/** An action value, reward or reward term as this format stores it: rounded to 4 decimals. */
export function reported(v: number): number {
  return Math.round(v * REPORTED_SCALE) / REPORTED_SCALE;
}

