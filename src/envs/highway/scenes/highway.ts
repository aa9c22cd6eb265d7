/**
 * highway-v0 and highway-fast-v0: a straight multi-lane highway with IDM/MOBIL traffic spawned
 * ahead of the ego vehicle. Reward: collision, right-most lane and high forward speed terms,
 * normalized to [0, 1], times "on road". Ends on a crash (or leaving the road, if configured);
 * truncated at `duration` seconds. The fast variant checks collisions only for the ego vehicle.
 */
import { DiscreteMetaAction } from '../actions';
import { DEFAULT_TARGET_SPEEDS, MDPVehicle } from '../controlled';
import { DrivingEnv, type SceneState, type TimingConfig } from '../drivingEnv';
import { IDMVehicle } from '../idm';
import { clip, lmap } from '../math';
import { RoadNetwork, type LaneIndex } from '../network';
import { KinematicsObservation, type KinematicsConfig } from '../observation';
import { randomSpawn } from '../spawn';
import type { Vehicle } from '../vehicle';

export interface HighwayConfig extends TimingConfig {
  lanesCount: number;
  vehiclesCount: number;
  duration: number;
  egoSpacing: number;
  vehiclesDensity: number;
  initialLaneId: number | null;
  collisionReward: number;
  rightLaneReward: number;
  highSpeedReward: number;
  laneChangeReward: number;
  rewardSpeedRange: readonly [number, number];
  normalizeReward: boolean;
  offroadTerminal: boolean;
  /** highway-fast-v0: only the ego vehicle checks collisions. */
  egoCollisionsOnly: boolean;
  observation: KinematicsConfig;
}

export class HighwayEnv extends DrivingEnv<Float64Array> {
  readonly observationSpace;
  readonly obsType: KinematicsObservation;

  constructor(readonly config: HighwayConfig) {
    super(config, new DiscreteMetaAction(DEFAULT_TARGET_SPEEDS));
    this.obsType = new KinematicsObservation(config.observation);
    this.kinematics = this.obsType;
    this.observationSpace = this.obsType.space;
  }

  protected buildNetwork(_state: SceneState): void {
    this.road = this.newRoad(RoadNetwork.straight(this.config.lanesCount, 0, 10000, 30));
  }

  protected buildScene(): void {
    this.buildNetwork({} as SceneState);
    const road = this.road;
    const start = randomSpawn(road, { speed: 25.0, laneId: this.config.initialLaneId, spacing: this.config.egoSpacing });
    const ego = new MDPVehicle(road, start.position, start.heading, start.speed);
    this.configureVehicle(ego, true);
    road.vehicles.push(ego);
    this.ego = ego;
    for (let i = 0; i < this.config.vehiclesCount; i++) {
      const p = randomSpawn(road, { spacing: 1 / this.config.vehiclesDensity });
      const v = new IDMVehicle(road, p.position, p.heading, p.speed);
      v.randomizeBehavior((lo, hi) => road.rng.uniform(lo, hi));
      this.configureVehicle(v, false);
      road.vehicles.push(v);
    }
  }

  protected override configureVehicle(v: Vehicle, isEgo: boolean): void {
    if (this.config.egoCollisionsOnly && !isEgo) v.checkCollisions = false;
  }

  observe(): Float64Array {
    return this.obsType.observe(this.road, this.ego, this.random);
  }

  protected rewardTerms(_action: unknown): Record<string, number> {
    const ego = this.ego;
    const sides = this.road.network.allSideLanes(ego.laneIndex as LaneIndex).length;
    const lane = ego instanceof MDPVehicle ? ego.targetLaneIndex[2] : (ego.laneIndex as LaneIndex)[2];
    const forwardSpeed = ego.speed * Math.cos(ego.heading);
    const [lo, hi] = this.config.rewardSpeedRange;
    return {
      collision_reward: ego.crashed ? 1 : 0,
      right_lane_reward: lane / Math.max(sides - 1, 1),
      high_speed_reward: clip(lmap(forwardSpeed, lo, hi, 0, 1), 0, 1),
      on_road_reward: ego.onRoad ? 1 : 0,
    };
  }

  protected reward(_action: unknown, terms: Record<string, number> | null): number {
    const t = terms ?? {};
    const c = this.config;
    let r = 0 + c.collisionReward * (t['collision_reward'] as number) + c.rightLaneReward * (t['right_lane_reward'] as number) + c.highSpeedReward * (t['high_speed_reward'] as number) + 0 * (t['on_road_reward'] as number);
    if (c.normalizeReward) r = lmap(r, c.collisionReward, c.highSpeedReward + c.rightLaneReward, 0, 1);
    return r * (t['on_road_reward'] as number);
  }

  protected isTerminated(): boolean {
    return this.ego.crashed || (this.config.offroadTerminal && !this.ego.onRoad);
  }

  protected isTruncated(): boolean {
    return this.time >= this.config.duration;
  }
}
