/**
 * Things on the road: the rectangle every vehicle and obstacle is, and HighwayEnv's collision
 * rule. Two objects collide when their rectangles overlap (separating-axis test); when they would
 * overlap within the next time step at their current velocities, each is pushed back by half the
 * minimum translation (all of it against an obstacle), applied on the object's next step.
 */
import type { Lane } from './lanes';
import { norm2 } from './math';
import type { LaneIndex } from './network';
import type { Road } from './road';

const scratch: [number, number] = [0, 0];

export type ObjectKind = 'vehicle' | 'obstacle' | 'landmark';

export abstract class RoadObject {
  abstract readonly kind: ObjectKind;
  length = 2;
  width = 2;
  position: [number, number];
  heading: number;
  speed: number;
  laneIndex: LaneIndex | null;
  lane: Lane | null;
  readonly collidable = true;
  solid = true;
  /** When false the object does not test its own collisions (others may still hit it). */
  checkCollisions = true;
  crashed = false;
  hit = false;
  /** A pending push from a predicted collision, applied on the next step. */
  impact: [number, number] | null = null;

  constructor(
    readonly road: Road,
    position: readonly [number, number],
    heading = 0,
    speed = 0,
  ) {
    this.position = [position[0], position[1]];
    this.heading = heading;
    this.speed = speed;
    this.laneIndex = road.network.closestLaneIndex(this.position[0], this.position[1], heading);
    this.lane = road.network.getLane(this.laneIndex);
  }

  private diagonalOf: [number, number, number] = [NaN, NaN, NaN];

  get diagonal(): number {
    // Cached: the collision pre-check reads it for every pair, every simulation step.
    const c = this.diagonalOf;
    if (c[0] !== this.length || c[1] !== this.width) this.diagonalOf = [this.length, this.width, Math.sqrt(this.length ** 2 + this.width ** 2)];
    return this.diagonalOf[2];
  }

  directionX(): number {
    return Math.cos(this.heading);
  }

  directionY(): number {
    return Math.sin(this.heading);
  }

  /** Corners in order rear-right, rear-left, front-left, front-right, then the first again. */
  polygon(): number[][] {
    const c = Math.cos(this.heading);
    const s = Math.sin(this.heading);
    const hl = this.length / 2;
    const hw = this.width / 2;
    const local = [
      [-hl, -hw],
      [-hl, hw],
      [hl, hw],
      [hl, -hw],
    ] as const;
    const pts = local.map(([px, py]) => [c * px + -s * py + this.position[0], s * px + c * py + this.position[1]]);
    pts.push(pts[0] as number[]);
    return pts;
  }

  /** Signed distance to another object along a lane (this object's lane by default). */
  laneDistanceTo(other: RoadObject, lane: Lane | null = this.lane): number {
    if (!lane) return NaN;
    const theirs = lane.localCoordinates(other.position[0], other.position[1], scratch)[0];
    return theirs - lane.localCoordinates(this.position[0], this.position[1], scratch)[0];
  }

  get onRoad(): boolean {
    return (this.lane as Lane).onLaneAt(this.position[0], this.position[1]);
  }

  velocityX(): number {
    return this.speed * Math.cos(this.heading);
  }

  velocityY(): number {
    return this.speed * Math.sin(this.heading);
  }

  handleCollisions(other: RoadObject, dt: number): void {
    if (other === this || !(this.checkCollisions || other.checkCollisions)) return;
    if (!(this.collidable && other.collidable)) return;
    // Fast spherical pre-check: most pairs are far apart.
    const dist = norm2(other.position[0] - this.position[0], other.position[1] - this.position[1]);
    if (dist > (this.diagonal + other.diagonal) / 2 + this.speed * dt) return;
    const [intersecting, willIntersect, translation] = polygonsIntersecting(this.polygon(), other.polygon(), this.velocityX() * dt, this.velocityY() * dt, other.velocityX() * dt, other.velocityY() * dt);
    if (willIntersect && translation) {
      if (this.solid && other.solid) {
        if (other.kind === 'obstacle') this.impact = translation;
        else if (this.kind === 'obstacle') other.impact = translation;
        else {
          this.impact = [translation[0] / 2, translation[1] / 2];
          other.impact = [-translation[0] / 2, -translation[1] / 2];
        }
      }
    }
    if (intersecting) {
      if (this.solid && other.solid) {
        this.crashed = true;
        other.crashed = true;
      }
      if (!this.solid) this.hit = true;
      if (!other.solid) other.hit = true;
    }
  }
}

export class Obstacle extends RoadObject {
  readonly kind = 'obstacle';
}

/** A non-solid marker (the parking goal): it is hit, never crashed into. */
export class Landmark extends RoadObject {
  readonly kind = 'landmark';
  constructor(road: Road, position: readonly [number, number], heading = 0, speed = 0) {
    super(road, position, heading, speed);
    this.solid = false;
  }
}

function project(polygon: number[][], ax: number, ay: number): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  let first = true;
  for (const p of polygon) {
    const v = (p[0] as number) * ax + (p[1] as number) * ay;
    if (first || v < min) min = v;
    if (first || v > max) max = v;
    first = false;
  }
  return [min, max];
}

function intervalDistance(minA: number, maxA: number, minB: number, maxB: number): number {
  return minA < minB ? minB - maxA : minA - maxB;
}

/**
 * Separating-axis test of two closed polygons (last point repeats the first), with A moving by
 * (dax, day) and B by (dbx, dby) over the step: are they intersecting now, will they within the
 * step, and the minimum translation pushing A out of B.
 */
export function polygonsIntersecting(a: number[][], b: number[][], dax: number, day: number, dbx: number, dby: number): [boolean, boolean, [number, number] | null] {
  let intersecting = true;
  let willIntersect = true;
  let minDistance = Infinity;
  let axis: [number, number] | null = null;
  outer: for (const polygon of [a, b]) {
    for (let i = 0; i + 1 < polygon.length; i++) {
      const p1 = polygon[i] as number[];
      const p2 = polygon[i + 1] as number[];
      let nx = -(p2[1] as number) + (p1[1] as number);
      let ny = (p2[0] as number) - (p1[0] as number);
      const n = norm2(nx, ny);
      nx /= n;
      ny /= n;
      let [minA, maxA] = project(a, nx, ny);
      const [minB, maxB] = project(b, nx, ny);
      if (intervalDistance(minA, maxA, minB, maxB) > 0) intersecting = false;
      const vp = nx * (dax - dbx) + ny * (day - dby);
      if (vp < 0) minA += vp;
      else maxA += vp;
      const distance = intervalDistance(minA, maxA, minB, maxB);
      if (distance > 0) willIntersect = false;
      if (!intersecting && !willIntersect) break outer;
      if (Math.abs(distance) < minDistance) {
        minDistance = Math.abs(distance);
        const cx = meanOf4(a, 0) - meanOf4(b, 0);
        const cy = meanOf4(a, 1) - meanOf4(b, 1);
        axis = cx * nx + cy * ny > 0 ? [nx, ny] : [-nx, -ny];
      }
    }
  }
  const translation = willIntersect && axis ? ([minDistance * axis[0], minDistance * axis[1]] as [number, number]) : null;
  return [intersecting, willIntersect, translation];
}

function meanOf4(p: number[][], k: 0 | 1): number {
  return ((((p[0] as number[])[k] as number) + ((p[1] as number[])[k] as number) + ((p[2] as number[])[k] as number) + ((p[3] as number[])[k] as number)) / 4);
}
