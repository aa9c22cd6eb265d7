/**
 * A road with right-of-way rules (the intersection). Twice a second, vehicles that were told to
 * yield resume at their lane's speed limit, then every pair whose predicted paths conflict within
 * 3 s is resolved: the one on the lower-priority lane (or, on equal priority, the one behind)
 * yields by targeting zero speed, unless it is the agent's vehicle.
 */
import { ControlledVehicle, MDPVehicle } from './controlled';
import { norm2 } from './math';
import { Road } from './road';
import type { Vehicle } from './vehicle';

const REGULATION_FREQUENCY = 2;
const YIELD_DURATION = 0.0;
const PREDICTION_TIMES: readonly number[] = Array.from({ length: 11 }, (_, i) => 0.25 + i * 0.25);

export class RegulatedRoad extends Road {
  /** Simulation steps since the road was built (the scene warm-up included). */
  steps = 0;
  readonly yielding = new Map<Vehicle, number>();

  override step(dt: number): void {
    this.steps++;
    if (this.steps % Math.trunc(1 / dt / REGULATION_FREQUENCY) === 0) this.enforceRoadRules();
    super.step(dt);
  }

  enforceRoadRules(): void {
    for (const v of this.vehicles) {
      const timer = this.yielding.get(v);
      if (timer === undefined) continue;
      if (timer >= YIELD_DURATION * REGULATION_FREQUENCY) {
        if (v instanceof ControlledVehicle && v.lane) v.targetSpeed = v.lane.speedLimit;
        this.yielding.delete(v);
      } else this.yielding.set(v, timer + 1);
    }
    const vs = this.vehicles;
    // Predictions depend only on poses, speeds and routes, which this pass does not change:
    // compute each once instead of once per pair.
    const paths = vs.map(predicted);
    for (let i = 0; i < vs.length - 1; i++) {
      for (let j = i + 1; j < vs.length; j++) {
        const a = vs[i] as Vehicle;
        const b = vs[j] as Vehicle;
        if (!conflictPossible(a, b, paths[i] as Path, paths[j] as Path)) continue;
        const y = yieldingOf(a, b);
        if (y instanceof ControlledVehicle && !(y instanceof MDPVehicle)) {
          y.targetSpeed = 0;
          this.yielding.set(y, 0);
        }
      }
    }
  }
}

function yieldingOf(v1: Vehicle, v2: Vehicle): Vehicle {
  const p1 = (v1.lane as NonNullable<Vehicle['lane']>).priority;
  const p2 = (v2.lane as NonNullable<Vehicle['lane']>).priority;
  if (p1 > p2) return v2;
  if (p1 < p2) return v1;
  return frontDistance(v1, v2) > frontDistance(v2, v1) ? v1 : v2;
}

function frontDistance(a: Vehicle, b: Vehicle): number {
  return Math.cos(a.heading) * (b.position[0] - a.position[0]) + Math.sin(a.heading) * (b.position[1] - a.position[1]);
}

type Path = [number, number, number][];

function predicted(v: Vehicle): Path {
  if (v instanceof ControlledVehicle) return v.predictConstantSpeed(PREDICTION_TIMES);
  throw new TypeError('right-of-way prediction needs controlled vehicles');
}

function conflictPossible(v1: Vehicle, v2: Vehicle, t1: Path, t2: Path): boolean {
  for (let k = 0; k < t1.length; k++) {
    const [x1, y1, h1] = t1[k] as [number, number, number];
    const [x2, y2, h2] = t2[k] as [number, number, number];
    if (norm2(x2 - x1, y2 - y1) > v1.length) continue;
    const r1: Rect = [x1, y1, 1.5 * v1.length, 0.9 * v1.width, h1];
    const r2: Rect = [x2, y2, 1.5 * v2.length, 0.9 * v2.width, h2];
    if (hasCornerInside(r1, r2) || hasCornerInside(r2, r1)) return true;
  }
  return false;
}

/** center x, center y, length, width, angle */
type Rect = [number, number, number, number, number];

/** Corners, centre and edge midpoints of a rotated rectangle. */
function rectPoints([cx, cy, length, width, angle]: Rect): [number, number][] {
  const hl = length / 2;
  const hw = width / 2;
  const local: [number, number][] = [
    [-hl - 0, -0 - hw],
    [-hl + 0, -0 + hw],
    [hl + 0, 0 + hw],
    [hl - 0, 0 - hw],
    [0, 0],
    [-hl, -0],
    [hl, 0],
    [-0, -hw],
    [0, hw],
  ];
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return local.map(([px, py]) => [c * px + -s * py + cx, s * px + c * py + cy]);
}

/**
 * Is a point inside a rotated rectangle? HighwayEnv rotates the offset by +angle (not −angle)
 * before the axis-aligned test; we keep that so right-of-way decisions match.
 */
function pointInRotatedRect(px: number, py: number, [cx, cy, length, width, angle]: Rect): boolean {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const dx = px - cx;
  const dy = py - cy;
  const ux = c * dx + -s * dy;
  const uy = s * dx + c * dy;
  return -length / 2 <= ux && ux <= length / 2 && -width / 2 <= uy && uy <= width / 2;
}

function hasCornerInside(r1: Rect, r2: Rect): boolean {
  return rectPoints(r1).some(([x, y]) => pointInRotatedRect(x, y, r2));
}
