/**
 * What the Box2D layouts that store poses share (walker.ts, lander.ts and car.ts here): each
 * step line holds the action, its reward, the flags only when true, `info` only when it differs
 * from the step before, `next` (the observation after the step) and the environment's pose
 * fields; the header holds the first observation. `expandPoseSteps` rebuilds the plain steps.
 */
import { z } from 'zod';
import { describeIssues } from '../documents';
import type { TrajectoryStep } from '../episodes';

/** The fields every pose-layout step line has, beside the environment's own pose fields. */
export const poseStepFields = {
  action: z.unknown(),
  reward: z.number(),
  terminated: z.boolean().optional(),
  truncated: z.boolean().optional(),
  info: z.record(z.string(), z.unknown()).optional(),
  next: z.array(z.number()),
};

/**
 * The plain steps: each step's observation is the previous line's `next` (the header's
 * `firstObservation` for step 1), and its snapshot is `snapshotOf` the step's pose. Throws an
 * Error naming the step (as "`envName` step") that does not fit `stepSchema`.
 */
export function expandPoseSteps<S extends z.infer<z.ZodObject<typeof poseStepFields>>>(
  envName: string,
  stepSchema: z.ZodType<S>,
  firstObservation: unknown,
  steps: readonly unknown[],
  snapshotOf: (step: S) => unknown,
): TrajectoryStep[] {
  let observation = firstObservation;
  let info: Record<string, unknown> | undefined;
  return steps.map((raw, i) => {
    const parsed = stepSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`step ${i + 1} is not a ${envName} step (${describeIssues(parsed.error, 'step', 2)})`);
    const s = parsed.data;
    if (s.info !== undefined) info = Object.keys(s.info).length === 0 ? undefined : s.info;
    const step: TrajectoryStep = { observation, action: s.action, reward: s.reward, terminated: s.terminated === true, truncated: s.truncated === true };
    if (info !== undefined) step.info = info;
    step.snapshot = snapshotOf(s);
    observation = s.next;
    return step;
  });
}
