/**
 * MuJoCo (Gymnasium v5 and Fetch) trajectories as the runner stores them: the scene once per
 * episode, then per step the action, the reward, the reward terms and qpos in thousandths.
 * `expandMujocoSteps` turns that back into the plain steps the replay reads.
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
import { z } from 'zod';
import { describeIssues } from './documents';
import type { TrajectoryStep } from './episodes';

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

const code = z.number().int().nullable();
const value = z.number().nullable();

/** The header's `initialSnapshot`: qpos after reset (thousandths), the names of the reward terms, and the scene. */
export const mujocoStartSchema = z.looseObject({
  qpos: z.array(code).min(1),
  qposScale: z.literal(QPOS_SCALE),
  terms: z.array(z.string()),
  scene: z.looseObject({ nq: z.number().int() }),
});

/**
 * One step line: the action and reward (4 decimals), the flags only when true, `terms` (the
 * values of the header's reward terms, in its order, 4 decimals) and `qpos` after the step
 * (thousandths).
 */
export const mujocoDeltaStepSchema = z.looseObject({
  action: z.unknown(),
  reward: value,
  terminated: z.boolean().optional(),
  truncated: z.boolean().optional(),
  terms: z.array(value),
  qpos: z.array(code),
});

function decode(codes: readonly (number | null)[]): (number | null)[] {
  return codes.map((c) => (c === null ? null : c / QPOS_SCALE));
}

/**
 * The plain trajectory of a `mujoco-delta/1` one: the initial snapshot `{ qpos, scene }`, and per
 * step the action, reward, flags, `info` (the reward terms) and the snapshot `{ qpos }`. Throws
 * an Error naming the step when the data does not fit the format.
 */
export function expandMujocoSteps(initial: unknown, steps: readonly unknown[]): { initialSnapshot: unknown; steps: TrajectoryStep[] } {
  const start = mujocoStartSchema.safeParse(initial);
  if (!start.success) throw new Error(`the header's initialSnapshot is not a MuJoCo scene (${describeIssues(start.error, 'initialSnapshot', 2)})`);
  const { terms, scene } = start.data;
  const nq = start.data.qpos.length;
  if (scene.nq !== nq) throw new Error(`the header's qpos has ${nq} values, its scene's model ${scene.nq}`);
  const out = steps.map((raw, i): TrajectoryStep => {
    const parsed = mujocoDeltaStepSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`step ${i + 1} is not a MuJoCo step (${describeIssues(parsed.error, 'step', 2)})`);
    const s = parsed.data;
    if (s.qpos.length !== nq) throw new Error(`step ${i + 1} has ${s.qpos.length} qpos values, not ${nq}`);
    if (s.terms.length !== terms.length) throw new Error(`step ${i + 1} has ${s.terms.length} reward terms, not ${terms.length} (${terms.join(', ')})`);
    const step: TrajectoryStep = { action: s.action, reward: s.reward as number, terminated: s.terminated === true, truncated: s.truncated === true };
    if (terms.length > 0) step.info = Object.fromEntries(terms.map((t, k) => [t, s.terms[k]]));
    step.snapshot = { qpos: decode(s.qpos) };
    return step;
  });
  return { initialSnapshot: { qpos: decode(start.data.qpos), scene }, steps: out };
}
