/**
 * BipedalWalker (and hardcore) trajectories as the runner stores them: the generated ground once
 * and the body shapes once per episode, then per step only what moves: each body's pose, contacts,
 * lidar, and the observation. `trajectoryReaders/walker.ts` turns that back into the plain
 * steps (the observation the policy saw, the snapshot after the step) exactly as the environment
 * produced them, so a reader (the replay panel, tests) sees the same trajectory either way.
 *
 * Why not the plain form: each plain snapshot repeated the terrain window around the hull and
 * the obstacles in it, which never change within an episode, and the world vertices of five
 * polygons, which follow from their poses. The environment draws its own snapshots with
 * worldPolygon and walkerSnapshot, so the expansion is exact by construction.
 */

/** The `format` of a trajectory written this way (header line and RecordedTrajectory). */
export const WALKER_DELTA_FORMAT = 'bipedalwalker-delta/1';

/** Half the width of the terrain window a snapshot carries around the hull, in metres. */
const WINDOW = 12;

/** The generated ground of an episode, at full precision (the window is chosen on these values), and the body shapes. */
export interface WalkerGround {
  terrainX: readonly number[];
  terrainY: readonly number[];
  /** Stumps, stairs and pit walls (hardcore), each as [x, y] points. */
  obstacles: readonly (readonly (readonly number[])[])[];
  lidarRange: number;
  /** Body-local polygon vertices (x, y, x, y, …): the hull, then left upper, left lower, right upper, right lower leg. */
  shapes: readonly (readonly number[])[];
}

/** What moves: [x, y, angle] of the hull and the four leg segments, the lower legs' contacts, the lidar fractions. */
export interface WalkerPose {
  bodies: readonly (readonly number[])[];
  groundContact: readonly boolean[];
  lidar: readonly number[];
}

function round4(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}

/** World vertices of a body-local polygon at pose [x, y, angle], in Box2D's transform arithmetic. */
export function worldPolygon(local: readonly number[], pose: readonly number[]): number[] {
  const [x, y, a] = pose as [number, number, number];
  const c = Math.cos(a);
  const s = Math.sin(a);
  const out: number[] = [];
  for (let i = 0; i + 1 < local.length; i += 2) {
    const vx = local[i]!;
    const vy = local[i + 1]!;
    out.push(c * vx - s * vy + x, s * vx + c * vy + y);
  }
  return out;
}

/** The snapshot the replay draws: the walker's polygons, and the ground within ±12 m of the hull (rounded to 0.1 mm). */
export function walkerSnapshot(ground: WalkerGround, pose: WalkerPose): Record<string, unknown> {
  const hull = pose.bodies[0]!;
  const hx = hull[0]!;
  const terrain: number[] = [];
  ground.terrainX.forEach((x, i) => {
    if (Math.abs(x - hx) <= WINDOW) terrain.push(round4(x), round4(ground.terrainY[i]!));
  });
  const obstacles = ground.obstacles.filter((p) => p.some(([x]) => Math.abs(x! - hx) <= WINDOW)).map((p) => p.flatMap(([x, y]) => [round4(x!), round4(y!)]));
  return {
    kind: 'bipedalwalker',
    terrain,
    obstacles,
    lidarRange: ground.lidarRange,
    hull: worldPolygon(ground.shapes[0]!, hull),
    legs: [1, 2, 3, 4].map((k) => worldPolygon(ground.shapes[k]!, pose.bodies[k]!)),
    groundContact: [...pose.groundContact],
    lidar: [...pose.lidar],
    hullPosition: [hull[0], hull[1]],
  };
}
