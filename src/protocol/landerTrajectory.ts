/**
 * LunarLander trajectories as the runner stores them: the moon and the body shapes once per
 * episode, then per step the three bodies' poses, the leg contacts, the engine power and the
 * observation. `expandLanderSteps` turns that back into the plain steps exactly as the
 * environment produced them (it draws its snapshots with the same functions).
 *
 * Why not the plain form: each plain snapshot repeated the moon, which never changes within an
 * episode, and the world vertices of three polygons, which follow from their poses.
 */
import { z } from 'zod';
import { describeIssues } from './documents';
import type { TrajectoryStep } from './episodes';
import { expandPoseSteps, poseStepFields } from './poseTrajectory';
import { worldPolygon } from './walkerTrajectory';

/** The `format` of a trajectory written this way (header line and RecordedTrajectory). */
export const LANDER_DELTA_FORMAT = 'lunarlander-delta/1';

/** The moon as the replay draws it. */
export interface LanderMoon {
  terrain: [number, number][];
  helipadX1: number;
  helipadX2: number;
  helipadY: number;
}

/** Body-local polygon vertices (x, y, x, y, …): every polygon of the lander, then the left and right leg's. */
export interface LanderShapes {
  lander: readonly (readonly number[])[];
  legs: readonly (readonly number[])[];
}

/** What moves: [x, y, angle] of the lander, left leg, right leg; leg contacts; last engine power [main, side]. */
export interface LanderPose {
  bodies: readonly (readonly number[])[];
  groundContact: readonly boolean[];
  enginePower: readonly number[];
}

/** The snapshot the replay draws. */
export function landerSnapshot(moon: LanderMoon, shapes: LanderShapes, pose: LanderPose): Record<string, unknown> {
  return {
    kind: 'lunarlander',
    world: moon,
    lander: shapes.lander.map((p) => worldPolygon(p, pose.bodies[0]!)),
    legs: shapes.legs.map((p, i) => worldPolygon(p, pose.bodies[i + 1]!)),
    groundContact: [...pose.groundContact],
    enginePower: [...pose.enginePower],
  };
}

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
