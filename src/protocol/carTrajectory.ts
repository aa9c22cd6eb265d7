/**
 * CarRacing trajectories as the runner stores them (`carracing-delta/1`): the track once per
 * episode, then per step the car (hull and wheels) and the tiles it touched for the first time.
 * `expandCarSteps` turns that back into the plain steps exactly as the environment produced them:
 * the environment builds its snapshots with `carSnapshot` as well.
 *
 * Why not the plain form: each plain snapshot repeated the fifty-odd track polygons near the car,
 * about 6.5 KB of a 7 KB step, and the track never changes within an episode. Neither form keeps
 * the 96×96×3 frame: the replay draws the scene from the car and the track.
 */
import { z } from 'zod';
import { describeIssues } from './documents';
import type { TrajectoryStep } from './episodes';
import { poseStepFields } from './poseTrajectory';

/** The `format` of a trajectory written this way (header line and RecordedTrajectory). */
export const CAR_DELTA_FORMAT = 'carracing-delta/1';

/** A snapshot carries the track polygons with a vertex within this many units of the hull in x and y (about the frame's view). */
export const CAR_SNAPSHOT_REACH = 60;

/** A road tile or a kerb: its four corners at full precision (x, y, x, y, …). */
export interface CarTrackPolygon {
  points: readonly number[];
  /** The tile's index, or -1 for a kerb. */
  tile: number;
  kerb: 'red' | 'white' | null;
}

export interface CarHull {
  x: number;
  y: number;
  angle: number;
  vx: number;
  vy: number;
  w: number;
}

export interface CarWheel {
  x: number;
  y: number;
  angle: number;
  omega: number;
  phase: number;
  jointAngle: number;
}

/** The car at one instant: time since reset [s], the hull, the four wheels (front left, front right, rear left, rear right). */
export interface CarPose {
  t: number;
  hull: CarHull;
  wheels: readonly CarWheel[];
}

const round2 = (v: number): number => Math.round(v * 100) / 100;

/** The snapshot the replay draws: the car, the tile counts, and the polygons near the car (vertices to 0.01) with their visited flag. */
export function carSnapshot(track: readonly CarTrackPolygon[], tileCount: number, pose: CarPose, visited: (tile: number) => boolean, tilesVisited: number): Record<string, unknown> {
  const { x: hx, y: hy } = pose.hull;
  const polygons: { points: number[]; kerb: 'red' | 'white' | null; visited: boolean }[] = [];
  for (const p of track) {
    let near = false;
    for (let i = 0; i < p.points.length && !near; i += 2) near = Math.abs((p.points[i] as number) - hx) < CAR_SNAPSHOT_REACH && Math.abs((p.points[i + 1] as number) - hy) < CAR_SNAPSHOT_REACH;
    if (near) polygons.push({ points: p.points.map(round2), kerb: p.kerb, visited: p.tile >= 0 && visited(p.tile) });
  }
  return { kind: 'carracing', t: pose.t, hull: { ...pose.hull }, wheels: pose.wheels.map((w) => ({ ...w })), tilesVisited, tileCount, polygons };
}

/** [x, y, angle, vx, vy, w] as a step line stores the hull. */
export function hullRow(h: CarHull): number[] {
  return [h.x, h.y, h.angle, h.vx, h.vy, h.w];
}

/** [x, y, angle, omega, phase, jointAngle] as a step line stores a wheel. */
export function wheelRow(w: CarWheel): number[] {
  return [w.x, w.y, w.angle, w.omega, w.phase, w.jointAngle];
}

const hullTuple = z.tuple([z.number(), z.number(), z.number(), z.number(), z.number(), z.number()]);
const hullObject = z.object({ x: z.number(), y: z.number(), angle: z.number(), vx: z.number(), vy: z.number(), w: z.number() });
const wheelObject = z.object({ x: z.number(), y: z.number(), angle: z.number(), omega: z.number(), phase: z.number(), jointAngle: z.number() });
const tileIndices = z.array(z.number().int().nonnegative());
/** The step fields the Box2D pose layouts share, less `next`: CarRacing keeps no observation. */
const { next: _next, ...stepFields } = poseStepFields;

/** The header's `initialSnapshot`: the whole track, the tile count, the car after reset and the tiles visited during reset. */
export const carStartSchema = z.looseObject({
  track: z.array(z.object({ points: z.array(z.number()).length(8), tile: z.number().int().min(-1), kerb: z.enum(['red', 'white']).nullable() })),
  tileCount: z.number().int().nonnegative(),
  t: z.number(),
  hull: hullObject,
  wheels: z.array(wheelObject).length(4),
  visited: tileIndices,
});

/**
 * One step line: the action and its reward always, the flags only when true, `info` only when it
 * differs from the step before, then the car after the step (`t`, `hull`, `wheels` as rows) and
 * `visited`, the tiles touched for the first time in this step, only when there are any.
 */
export const carDeltaStepSchema = z.looseObject({
  ...stepFields,
  t: z.number(),
  hull: hullTuple,
  wheels: z.array(z.tuple([z.number(), z.number(), z.number(), z.number(), z.number(), z.number()])).length(4),
  visited: tileIndices.optional(),
});

/**
 * The plain trajectory of a `carracing-delta/1` one (steps without observations, as CarRacing's
 * plain steps are). Throws an Error naming the step when the data does not fit the format.
 */
export function expandCarSteps(initial: unknown, steps: readonly unknown[]): { initialSnapshot: unknown; steps: TrajectoryStep[] } {
  const start = carStartSchema.safeParse(initial);
  if (!start.success) throw new Error(`the header's initialSnapshot is not a CarRacing track (${describeIssues(start.error, 'initialSnapshot', 2)})`);
  const { track, tileCount } = start.data;
  const seen = new Set<number>(start.data.visited);
  const isVisited = (tile: number): boolean => seen.has(tile);
  const initialSnapshot = carSnapshot(track, tileCount, start.data, isVisited, seen.size);
  let info: Record<string, unknown> | undefined;
  const out = steps.map((raw, i) => {
    const parsed = carDeltaStepSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`step ${i + 1} is not a CarRacing step (${describeIssues(parsed.error, 'step', 2)})`);
    const s = parsed.data;
    if (s.info !== undefined) info = Object.keys(s.info).length === 0 ? undefined : s.info;
    for (const tile of s.visited ?? []) seen.add(tile);
    const [x, y, angle, vx, vy, w] = s.hull;
    const pose: CarPose = { t: s.t, hull: { x, y, angle, vx, vy, w }, wheels: s.wheels.map(([wx, wy, wa, omega, phase, jointAngle]) => ({ x: wx, y: wy, angle: wa, omega, phase, jointAngle })) };
    const step: TrajectoryStep = { action: s.action, reward: s.reward, terminated: s.terminated === true, truncated: s.truncated === true };
    if (info !== undefined) step.info = info;
    step.snapshot = carSnapshot(track, tileCount, pose, isVisited, seen.size);
    return step;
  });
  return { initialSnapshot, steps: out };
}
