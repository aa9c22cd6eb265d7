/**
 * Lane geometry: a lane is a centre curve with a width. Each lane converts between world
 * positions and local (longitudinal, lateral) coordinates and gives its heading, the way
 * HighwayEnv's straight, sine and circular lanes do.
 */
import { wrapToPi, type Vec2 } from './math';

export const DEFAULT_LANE_WIDTH = 4;
/** Margin past both ends of a lane where a vehicle still counts as on it [m]. */
const VEHICLE_LENGTH = 5;

export enum LineType {
  None = 0,
  Striped = 1,
  Continuous = 2,
  ContinuousLine = 3,
}

export interface LaneOptions {
  width?: number;
  lineTypes?: readonly [LineType, LineType];
  forbidden?: boolean;
  speedLimit?: number;
  priority?: number;
}

const scratch: [number, number] = [0, 0];

/**
 * Lane geometry for renderers: `s` straight from p[0..1] to p[2..3]; `n` the same with a sine
 * offset amp·sin(pul·s + ph) to the left-hand normal; `c` an arc of radius r around c from
 * angle a[0] to a[1] (increasing when cw). `w` is the width, `lt` the left and right line types.
 */
export type LaneShape =
  | { t: 's'; p: [number, number, number, number]; w: number; lt: [LineType, LineType] }
  | { t: 'n'; p: [number, number, number, number]; amp: number; pul: number; ph: number; w: number; lt: [LineType, LineType] }
  | { t: 'c'; c: [number, number]; r: number; a: [number, number]; cw: boolean; w: number; lt: [LineType, LineType] };

export abstract class Lane {
  abstract readonly length: number;
  readonly width: number;
  readonly lineTypes: readonly [LineType, LineType];
  readonly forbidden: boolean;
  readonly speedLimit: number;
  readonly priority: number;

  constructor(opts: LaneOptions) {
    this.width = opts.width ?? DEFAULT_LANE_WIDTH;
    this.lineTypes = opts.lineTypes ?? [LineType.Striped, LineType.Striped];
    this.forbidden = opts.forbidden ?? false;
    this.speedLimit = opts.speedLimit ?? 20;
    this.priority = opts.priority ?? 0;
  }

  abstract position(longitudinal: number, lateral: number): [number, number];
  /** A JSON description for drawing the lane (replay snapshots). */
  abstract shape(): LaneShape;
  /** (longitudinal, lateral) of a world position; hot paths pass `out` to avoid allocating. */
  abstract localCoordinates(x: number, y: number, out?: [number, number]): [number, number];
  abstract headingAt(longitudinal: number): number;

  widthAt(_longitudinal: number): number {
    return this.width;
  }

  onLane(longitudinal: number, lateral: number, margin = 0): boolean {
    return Math.abs(lateral) <= this.widthAt(longitudinal) / 2 + margin && -VEHICLE_LENGTH <= longitudinal && longitudinal < this.length + VEHICLE_LENGTH;
  }

  onLaneAt(x: number, y: number, margin = 0): boolean {
    const local = this.localCoordinates(x, y, scratch);
    return this.onLane(local[0], local[1], margin);
  }

  isReachableFrom(x: number, y: number): boolean {
    if (this.forbidden) return false;
    const [s, r] = this.localCoordinates(x, y);
    return Math.abs(r) <= 2 * this.widthAt(s) && 0 <= s && s < this.length + VEHICLE_LENGTH;
  }

  afterEnd(x: number, y: number): boolean {
    const [s] = this.localCoordinates(x, y);
    return s > this.length - VEHICLE_LENGTH / 2;
  }

  /** L1 distance from a position to the lane. */
  distance(x: number, y: number): number {
    const [s, r] = this.localCoordinates(x, y);
    return Math.abs(r) + Math.max(s - this.length, 0) + Math.max(0 - s, 0);
  }

  /** Distance plus the heading mismatch (radians, weight 1), used to pick a vehicle's lane. */
  distanceWithHeading(x: number, y: number, heading: number | null): number {
    if (heading === null) return this.distance(x, y);
    const local = this.localCoordinates(x, y, scratch);
    const s = local[0];
    const r = local[1];
    const angle = Math.abs(wrapToPi(heading - this.headingAt(s)));
    return Math.abs(r) + Math.max(s - this.length, 0) + Math.max(0 - s, 0) + angle;
  }
}

export class StraightLane extends Lane {
  readonly start: Vec2;
  readonly end: Vec2;
  readonly heading: number;
  readonly length: number;
  readonly dirX: number;
  readonly dirY: number;

  constructor(start: Vec2, end: Vec2, opts: LaneOptions = {}) {
    super(opts);
    this.start = [start[0], start[1]];
    this.end = [end[0], end[1]];
    const dx = end[0] - start[0];
    const dy = end[1] - start[1];
    this.heading = Math.atan2(dy, dx);
    this.length = Math.sqrt(dx * dx + dy * dy);
    this.dirX = dx / this.length;
    this.dirY = dy / this.length;
  }

  position(longitudinal: number, lateral: number): [number, number] {
    // direction_lateral = (-dirY, dirX)
    return [this.start[0] + longitudinal * this.dirX + lateral * -this.dirY, this.start[1] + longitudinal * this.dirY + lateral * this.dirX];
  }

  headingAt(_longitudinal: number): number {
    return this.heading;
  }

  shape(): LaneShape {
    return { t: 's', p: [this.start[0], this.start[1], this.end[0], this.end[1]], w: this.width, lt: [...this.lineTypes] };
  }

  localCoordinates(x: number, y: number, out: [number, number] = [0, 0]): [number, number] {
    const dx = x - this.start[0];
    const dy = y - this.start[1];
    out[0] = dx * this.dirX + dy * this.dirY;
    out[1] = dx * -this.dirY + dy * this.dirX;
    return out;
  }
}

/** A straight lane whose centre oscillates sideways: lateral offset amplitude·sin(pulsation·s + phase). */
export class SineLane extends StraightLane {
  constructor(
    start: Vec2,
    end: Vec2,
    readonly amplitude: number,
    readonly pulsation: number,
    readonly phase: number,
    opts: LaneOptions = {},
  ) {
    super(start, end, opts);
  }

  override position(longitudinal: number, lateral: number): [number, number] {
    return super.position(longitudinal, lateral + this.amplitude * Math.sin(this.pulsation * longitudinal + this.phase));
  }

  override shape(): LaneShape {
    return { t: 'n', p: [this.start[0], this.start[1], this.end[0], this.end[1]], amp: this.amplitude, pul: this.pulsation, ph: this.phase, w: this.width, lt: [...this.lineTypes] };
  }

  override headingAt(longitudinal: number): number {
    return this.heading + Math.atan(this.amplitude * this.pulsation * Math.cos(this.pulsation * longitudinal + this.phase));
  }

  override localCoordinates(x: number, y: number, out: [number, number] = [0, 0]): [number, number] {
    super.localCoordinates(x, y, out);
    out[1] = out[1] - this.amplitude * Math.sin(this.pulsation * out[0] + this.phase);
    return out;
  }
}

/** An arc of a circle, run counter-clockwise in world angles when `clockwise` is false. */
export class CircularLane extends Lane {
  readonly center: Vec2;
  readonly direction: 1 | -1;
  readonly length: number;

  constructor(
    center: Vec2,
    readonly radius: number,
    readonly startPhase: number,
    readonly endPhase: number,
    readonly clockwise = true,
    opts: LaneOptions = {},
  ) {
    super(opts);
    this.center = [center[0], center[1]];
    this.direction = clockwise ? 1 : -1;
    this.length = radius * (endPhase - startPhase) * this.direction;
  }

  position(longitudinal: number, lateral: number): [number, number] {
    const phi = (this.direction * longitudinal) / this.radius + this.startPhase;
    const r = this.radius - lateral * this.direction;
    return [this.center[0] + r * Math.cos(phi), this.center[1] + r * Math.sin(phi)];
  }

  shape(): LaneShape {
    return { t: 'c', c: [this.center[0], this.center[1]], r: this.radius, a: [this.startPhase, this.endPhase], cw: this.clockwise, w: this.width, lt: [...this.lineTypes] };
  }

  headingAt(longitudinal: number): number {
    const phi = (this.direction * longitudinal) / this.radius + this.startPhase;
    return phi + (Math.PI / 2) * this.direction;
  }

  localCoordinates(x: number, y: number, out: [number, number] = [0, 0]): [number, number] {
    const dx = x - this.center[0];
    const dy = y - this.center[1];
    let phi = Math.atan2(dy, dx);
    phi = this.startPhase + wrapToPi(phi - this.startPhase);
    const r = Math.sqrt(dx * dx + dy * dy);
    out[0] = this.direction * (phi - this.startPhase) * this.radius;
    out[1] = this.direction * (this.radius - r);
    return out;
  }
}
