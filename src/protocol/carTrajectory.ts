/**
 * CarRacing trajectories as the runner stores them (`carracing-delta/1`): the track once per
 * episode, then per step the car (hull and wheels) and the tiles it touched for the first time.
 * `trajectoryReaders/car.ts` turns that back into the plain steps exactly as the environment produced them:
 * the environment builds its snapshots with `carSnapshot` as well.
 *
 * Why not the plain form: each plain snapshot repeated the fifty-odd track polygons near the car,
 * about 6.5 KB of a 7 KB step, and the track never changes within an episode. Neither form keeps
 * the 96×96×3 frame: the replay draws the scene from the car and the track.
 */

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
