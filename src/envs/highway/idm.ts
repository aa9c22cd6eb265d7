/**
 * Traffic: the Intelligent Driver Model for speed, and MOBIL for lane changes (at most once per
 * second, only when the gain beats a threshold and the new follower is not made to brake hard).
 * The model constants are per vehicle because some scenes (the intersection) retune them.
 */
import { ControlledVehicle, MAX_STEERING_ANGLE } from './controlled';
import { clip, notZero, pyMod, sign } from './math';
import { sameLane, sameRoad, type LaneIndex, type Route } from './network';
import type { RoadObject } from './objects';
import type { Road } from './road';
import { Vehicle } from './vehicle';

export interface IdmParams {
  accMax: number;
  comfortAccMax: number;
  comfortAccMin: number;
  distanceWanted: number;
  timeWanted: number;
  politeness: number;
  laneChangeMinAccGain: number;
  laneChangeMaxBrakingImposed: number;
  laneChangeDelay: number;
}

export const DEFAULT_IDM: Readonly<IdmParams> = {
  accMax: 6.0,
  comfortAccMax: 3.0,
  comfortAccMin: -5.0,
  distanceWanted: 5.0 + 5.0,
  timeWanted: 1.5,
  politeness: 0.0,
  laneChangeMinAccGain: 0.2,
  laneChangeMaxBrakingImposed: 2.0,
  laneChangeDelay: 1.0,
};

export const DELTA_RANGE: readonly [number, number] = [3.5, 4.5];

export class IDMVehicle extends ControlledVehicle {
  /** Exponent of the free-road term; randomized per vehicle in [3.5, 4.5]. */
  delta = 4.0;
  enableLaneChange: boolean;
  timer: number;
  params: IdmParams;

  constructor(
    road: Road,
    position: readonly [number, number],
    heading = 0,
    speed = 0,
    opts: { targetLaneIndex?: LaneIndex | null; targetSpeed?: number | null; route?: Route | null; enableLaneChange?: boolean; timer?: number | null; params?: IdmParams } = {},
  ) {
    super(road, position, heading, speed, opts.targetLaneIndex ?? null, opts.targetSpeed ?? null, opts.route ?? null);
    this.params = opts.params ?? { ...DEFAULT_IDM };
    this.enableLaneChange = opts.enableLaneChange ?? true;
    // Python's `timer or …`: a zero timer is recomputed too.
    this.timer = opts.timer || pyMod((this.position[0] + this.position[1]) * Math.PI, this.params.laneChangeDelay);
  }

  override get className(): string {
    return 'IDMVehicle';
  }

  randomizeBehavior(draw: (low: number, high: number) => number): void {
    this.delta = draw(DELTA_RANGE[0], DELTA_RANGE[1]);
  }

  override act(): void {
    if (this.crashed) return;
    this.followRoad();
    if (this.enableLaneChange) this.changeLanePolicy();
    const steering = clip(this.steeringControl(this.targetLaneIndex), -MAX_STEERING_ANGLE, MAX_STEERING_ANGLE);
    let [front, rear] = this.road.neighbourVehicles(this, this.laneIndex as LaneIndex);
    let acceleration = this.acceleration(this, front, rear);
    if (!sameLane(this.laneIndex as LaneIndex, this.targetLaneIndex)) {
      [front, rear] = this.road.neighbourVehicles(this, this.targetLaneIndex);
      acceleration = Math.min(acceleration, this.acceleration(this, front, rear));
    }
    acceleration = clip(acceleration, -this.params.accMax, this.params.accMax);
    this.action = { steering, acceleration };
  }

  override step(dt: number): void {
    this.timer += dt;
    super.step(dt);
  }

  /** IDM acceleration of `ego` behind `front` (with this vehicle's constants and exponent). */
  acceleration(ego: RoadObject | null, front: RoadObject | null = null, _rear: RoadObject | null = null): number {
    if (!ego || !(ego instanceof Vehicle)) return 0;
    const p = this.params;
    let egoTarget = ego instanceof ControlledVehicle ? ego.targetSpeed : 0;
    if (ego.lane) egoTarget = clip(egoTarget, 0, ego.lane.speedLimit);
    let acc = p.comfortAccMax * (1 - Math.pow(Math.max(ego.speed, 0) / Math.abs(notZero(egoTarget)), this.delta));
    if (front) {
      const d = ego.laneDistanceTo(front);
      const ratio = this.desiredGap(ego, front) / notZero(d);
      acc -= p.comfortAccMax * (ratio * ratio);
    }
    return acc;
  }

  desiredGap(ego: RoadObject, front: RoadObject): number {
    const p = this.params;
    const ab = -p.comfortAccMax * p.comfortAccMin;
    const c = Math.cos(ego.heading);
    const s = Math.sin(ego.heading);
    const dv = (ego.speed * c - front.velocityX()) * c + (ego.speed * s - front.velocityY()) * s;
    return p.distanceWanted + ego.speed * p.timeWanted + (ego.speed * dv) / (2 * Math.sqrt(ab));
  }

  private changeLanePolicy(): void {
    const lane = this.laneIndex as LaneIndex;
    if (!sameLane(lane, this.targetLaneIndex)) {
      // Abort a lane change when someone else is already moving into the same lane just ahead.
      if (sameRoad(lane, this.targetLaneIndex)) {
        for (const v of this.road.vehicles) {
          if (v !== this && !sameLane(v.laneIndex as LaneIndex, this.targetLaneIndex) && v instanceof ControlledVehicle && sameLane(v.targetLaneIndex, this.targetLaneIndex)) {
            const d = this.laneDistanceTo(v);
            const dStar = this.desiredGap(this, v);
            if (0 < d && d < dStar) {
              this.targetLaneIndex = lane;
              break;
            }
          }
        }
      }
      return;
    }
    if (!(this.params.laneChangeDelay < this.timer)) return;
    this.timer = 0;
    for (const candidate of this.road.network.sideLanes(lane)) {
      if (!this.road.network.getLane(candidate).isReachableFrom(this.position[0], this.position[1])) continue;
      if (Math.abs(this.speed) < 1) continue;
      if (this.mobil(candidate)) this.targetLaneIndex = candidate;
    }
  }

  private mobil(candidate: LaneIndex): boolean {
    const p = this.params;
    const [newPreceding, newFollowing] = this.road.neighbourVehicles(this, candidate);
    const newFollowingA = this.acceleration(newFollowing, newPreceding);
    const newFollowingPredA = this.acceleration(newFollowing, this);
    if (newFollowingPredA < -p.laneChangeMaxBrakingImposed) return false;
    const [oldPreceding, oldFollowing] = this.road.neighbourVehicles(this, this.laneIndex as LaneIndex);
    const selfPredA = this.acceleration(this, newPreceding);
    const routeHead = this.route && this.route.length > 0 ? this.route[0] : null;
    if (routeHead && routeHead[2] !== null) {
      if (sign(candidate[2] - this.targetLaneIndex[2]) !== sign(routeHead[2] - this.targetLaneIndex[2])) return false;
      if (selfPredA < -p.laneChangeMaxBrakingImposed) return false;
    } else {
      const selfA = this.acceleration(this, oldPreceding);
      const oldFollowingA = this.acceleration(oldFollowing, this);
      const oldFollowingPredA = this.acceleration(oldFollowing, oldPreceding);
      const jerk = selfPredA - selfA + p.politeness * (newFollowingPredA - newFollowingA + oldFollowingPredA - oldFollowingA);
      if (jerk < p.laneChangeMinAccGain) return false;
    }
    return true;
  }
}
