/**
 * Reads `lunarlander-delta/1` trajectories (the layout `../landerTrajectory.ts` defines) back into
 * plain steps, drawing each snapshot with the environment's own `landerSnapshot`.
 */
import { z } from 'zod';
import { describeIssues } from '../documents';
import type { TrajectoryStep } from '../episodes';
import { landerSnapshot } from '../landerTrajectory';
import { expandPoseSteps, poseStepFields } from './pose';

const nums = z.array(z.number());
const poseShape = {
  bodies: z.array(z.tuple([z.number(), z.number(), z.number()])).length(3),
  groundContact: z.array(z.boolean()).length(2),
  enginePower: z.tuple([z.number(), z.number()]),
};

/** The header's `initialSnapshot`: the moon, the body shapes, the pose after reset and the first observation. */
export const landerStartSchema = z.looseObject({
  world: z.object({ terrain: z.array(z.tuple([z.number(), z.number()])), helipadX1: z.number(), helipadX2: z.number(), helipadY: z.number() }),
  shapes: z.object({ lander: z.array(nums).min(1), legs: z.array(nums).length(2) }),
  observation: nums,
  ...poseShape,
});

/**
 * One step line: the action and its reward always, the flags only when true, `info` only when it
 * differs from the step before, `next` (the observation after the step) and the pose after it.
 */
export const landerDeltaStepSchema = z.looseObject({
  ...poseStepFields,
  ...poseShape,
});

/**
 * The plain trajectory of a `lunarlander-delta/1` one. Throws an Error naming the step when the
 * data does not fit the format.
 */
export function expandLanderSteps(initial: unknown, steps: readonly unknown[]): { initialSnapshot: unknown; steps: TrajectoryStep[] } {
  const start = landerStartSchema.safeParse(initial);
  if (!start.success) throw new Error(`the header's initialSnapshot is not a LunarLander world (${describeIssues(start.error, 'initialSnapshot', 2)})`);
  const { world, shapes } = start.data;
  const out = expandPoseSteps('LunarLander', landerDeltaStepSchema, start.data.observation, steps, (s) => landerSnapshot(world, shapes, s));
  return { initialSnapshot: landerSnapshot(world, shapes, start.data), steps: out };
}
