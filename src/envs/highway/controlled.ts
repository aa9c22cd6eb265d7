/**
 * Vehicles driven by low-level controllers: a proportional speed controller and a cascaded
 * lateral-position → heading → steering controller that tracks a target lane. The MDP vehicle
 * (the ego vehicle of the discrete tasks) takes meta-actions: change lane, or step its target
 * speed through a fixed list.
 */
import { clip, notZero, roundHalfEven, wrapToPi } from './math';
import type { LaneIndex, Route } from './network';
import type { Road } from './road';
import { Vehicle } from './vehicle';

const scratch: [number, number] = [0, 0];

export type MetaAction = 'LANE_LEFT' | 'IDLE' | 'LANE_RIGHT' | 'FASTER' | 'SLOWER';

const TAU_ACC = 0.6;
const TAU_HEADING = 0.2;
const TAU_LATERAL = 0.6;
const TAU_PURSUIT = 0.5 * TAU_HEADING;
const KP_A = 1 / TAU_ACC;
const KP_HEADING = 1 / TAU_HEADING;
const KP_LATERAL = 1 / TAU_LATERAL;
export const MAX_STEERING_ANGLE = Math.PI / 3;
const DELTA_SPEED = 5;

export class ControlledVehicle extends Vehicle {
  targetLaneIndex: LaneIndex;
  targetSpeed: number;
  route: Route | null;

  constructor(road: Road, position: readonly [number, number], heading = 0, speed = 0, targetLaneIndex: LaneIndex | null = null, targetSpeed: number | null = null, route: Route | null = null) {
    super(road, position, heading, speed);
    this.targetLaneIndex = targetLaneIndex ?? (this.laneIndex as LaneIndex);
    // Python's `target_speed or speed`: a zero target falls back to the current speed.
    this.targetSpeed = targetSpeed || this.speed;
    this.route = route;
  }

  override get className(): string {
    return 'ControlledVehicle';
  }

  /** Routes from the current lane to a destination node (breadth-first, sorted neighbours). */
  planRouteTo(destination: string): void {
    const current = this.laneIndex as LaneIndex;
    let path: string[] = [];
    if (this.road.network.graph.has(current[1])) path = this.road.network.shortestPath(current[1], destination);
    this.route = [current];
    for (let i = 0; i + 1 < path.length; i++) this.route.push([path[i] as string, path[i + 1] as string, null]);
  }

  override act(action?: MetaAction | null | { steering: number; acceleration: number }): void {
    this.followRoad();
    if (action === 'FASTER') this.targetSpeed += DELTA_SPEED;
    else if (action === 'SLOWER') this.targetSpeed -= DELTA_SPEED;
    else if (action === 'LANE_RIGHT' || action === 'LANE_LEFT') {
      const [from, to, id] = this.targetLaneIndex;
      const count = this.road.network.lanesOf(from, to).length;
      const target: LaneIndex = [from, to, clip(id + (action === 'LANE_RIGHT' ? 1 : -1), 0, count - 1)];
      if (this.road.network.getLane(target).isReachableFrom(this.position[0], this.position[1])) this.targetLaneIndex = target;
    }
    const steering = clip(this.steeringControl(this.targetLaneIndex), -MAX_STEERING_ANGLE, MAX_STEERING_ANGLE);
    super.act({ steering, acceleration: this.speedControl(this.targetSpeed) });
  }

  /** At the end of the target lane, switch to the next one (by route, else the nearest). */
  followRoad(): void {
    if (this.road.network.getLane(this.targetLaneIndex).afterEnd(this.position[0], this.position[1])) {
      this.targetLaneIndex = this.road.network.nextLane(this.targetLaneIndex, this.route, this.position[0], this.position[1]);
    }
  }

  steeringControl(target: LaneIndex): number {
    const lane = this.road.network.getLane(target);
    const local = lane.localCoordinates(this.position[0], this.position[1], scratch);
    const s = local[0];
    const r = local[1];
    const futureHeading = lane.headingAt(s + this.speed * TAU_PURSUIT);
    const lateralSpeedCommand = -KP_LATERAL * r;
    const headingCommand = Math.asin(clip(lateralSpeedCommand / notZero(this.speed), -1, 1));
    const headingRef = futureHeading + clip(headingCommand, -Math.PI / 4, Math.PI / 4);
    const headingRateCommand = KP_HEADING * wrapToPi(headingRef - this.heading);
    const slipAngle = Math.asin(clip((this.length / 2 / notZero(this.speed)) * headingRateCommand, -1, 1));
    const steering = Math.atan(2 * Math.tan(slipAngle));
    return clip(steering, -MAX_STEERING_ANGLE, MAX_STEERING_ANGLE);
  }

  speedControl(targetSpeed: number): number {
    return KP_A * (targetSpeed - this.speed);
  }

  /** Poses along the planned route (or the current lane) at constant speed, at each time. */
  predictConstantSpeed(times: readonly number[]): [number, number, number][] {
    const lane = this.lane as NonNullable<typeof this.lane>;
    const [s] = lane.localCoordinates(this.position[0], this.position[1]);
    const current = this.laneIndex as LaneIndex;
    const route = this.route && this.route.length > 0 ? this.route : [current];
    return times.map((t) => this.road.network.positionHeadingAlongRoute(route, s + this.speed * t, 0, current));
  }
}

export const DEFAULT_TARGET_SPEEDS: readonly number[] = [20, 25, 30];

export class MDPVehicle extends ControlledVehicle {
  readonly targetSpeeds: readonly number[];
  speedIndex: number;

  constructor(road: Road, position: readonly [number, number], heading = 0, speed = 0, targetSpeeds: readonly number[] = DEFAULT_TARGET_SPEEDS, targetLaneIndex: LaneIndex | null = null, targetSpeed: number | null = null, route: Route | null = null) {
    super(road, position, heading, speed, targetLaneIndex, targetSpeed, route);
    this.targetSpeeds = targetSpeeds;
    this.speedIndex = this.speedToIndex(this.targetSpeed);
    this.targetSpeed = this.indexToSpeed(this.speedIndex);
  }

  override get className(): string {
    return 'MDPVehicle';
  }

  override act(action?: MetaAction | null): void {
    if (action === 'FASTER') this.speedIndex = this.speedToIndex(this.speed) + 1;
    else if (action === 'SLOWER') this.speedIndex = this.speedToIndex(this.speed) - 1;
    else {
      super.act(action);
      return;
    }
    this.speedIndex = clip(this.speedIndex, 0, this.targetSpeeds.length - 1);
    this.targetSpeed = this.indexToSpeed(this.speedIndex);
    super.act();
  }

  indexToSpeed(index: number): number {
    return this.targetSpeeds[index] as number;
  }

  /** The closest allowed speed's index (the list is assumed evenly spaced). */
  speedToIndex(speed: number): number {
    const ts = this.targetSpeeds;
    const x = (speed - (ts[0] as number)) / ((ts[ts.length - 1] as number) - (ts[0] as number));
    return clip(roundHalfEven(x * (ts.length - 1)), 0, ts.length - 1);
  }
}
