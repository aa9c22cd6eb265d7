/**
 * LunarLander trajectories as the runner stores them: the moon and the body shapes once per
 * episode, then per step the three bodies' poses, the leg contacts, the engine power and the
 * observation. `trajectoryReaders/lander.ts` turns that back into the plain steps exactly as the
 * environment produced them (it draws its snapshots with the same functions).
 *
 * Why not the plain form: each plain snapshot repeated the moon, which never changes within an
 * episode, and the world vertices of three polygons, which follow from their poses.
 */
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
