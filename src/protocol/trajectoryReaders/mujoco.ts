/**
 * Reads `mujoco-delta/1` trajectories (the layout `../mujocoTrajectory.ts` defines) back into
 * plain steps: per step the action, reward, flags, the reward terms as `info` and the pose.
 */
import { z } from 'zod';
import { describeIssues } from '../documents';
import type { TrajectoryStep } from '../episodes';
import { QPOS_SCALE } from '../mujocoTrajectory';

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
