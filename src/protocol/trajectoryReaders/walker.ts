/**
 * Reads `bipedalwalker-delta/1` trajectories (the layout `../walkerTrajectory.ts` defines) back into
 * plain steps, drawing each snapshot with the environment's own `walkerSnapshot`.
 */
import { z } from 'zod';
import { describeIssues } from '../documents';
import type { TrajectoryStep } from '../episodes';
import { walkerSnapshot, type WalkerPose } from '../walkerTrajectory';
import { expandPoseSteps, poseStepFields } from './pose';

const nums = z.array(z.number());
const poseShape = {
  bodies: z.array(z.tuple([z.number(), z.number(), z.number()])).length(5),
  groundContact: z.array(z.boolean()).length(2),
  lidar: nums,
};

/** The header's `initialSnapshot`: the ground, the pose after reset, and the first observation. */
export const walkerStartSchema = z.looseObject({
  terrainX: nums,
  terrainY: nums,
  obstacles: z.array(z.array(z.tuple([z.number(), z.number()]))),
  lidarRange: z.number(),
  shapes: z.array(nums).length(5),
  observation: nums,
  ...poseShape,
});

/**
 * One step line: the action and its reward always, the flags only when true, `info` only when it
 * differs from the step before, the pose after the step, and `next`, the observation after it
 * (what the policy sees at the following step).
 */
export const walkerDeltaStepSchema = z.looseObject({
  ...poseStepFields,
  ...poseShape,
});

function poseOf(s: WalkerPose): WalkerPose {
  return { bodies: s.bodies, groundContact: s.groundContact, lidar: s.lidar };
}

/**
 * The plain trajectory of a `bipedalwalker-delta/1` one. Throws an Error naming the step when
 * the data does not fit the format.
 */
export function expandWalkerSteps(initial: unknown, steps: readonly unknown[]): { initialSnapshot: unknown; steps: TrajectoryStep[] } {
  const start = walkerStartSchema.safeParse(initial);
  if (!start.success) throw new Error(`the header's initialSnapshot is not a BipedalWalker world (${describeIssues(start.error, 'initialSnapshot', 2)})`);
  const ground = start.data;
  if (ground.terrainX.length !== ground.terrainY.length) throw new Error(`the header's terrain has ${ground.terrainX.length} x and ${ground.terrainY.length} y values`);
  const out = expandPoseSteps('BipedalWalker', walkerDeltaStepSchema, ground.observation, steps, (s) => walkerSnapshot(ground, poseOf(s)));
  return { initialSnapshot: walkerSnapshot(ground, poseOf(ground)), steps: out };
}
