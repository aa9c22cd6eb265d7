/**
 * merge-v0: a two-lane highway joined by an access ramp (straight, then a sine-shaped bend,
 * then a short merge lane closed by an obstacle). Three IDM vehicles on the highway and one on
 * the ramp. Reward: collision, right lane, speed, lane-change and an altruistic penalty for slow
 * vehicles on the merge lane, mapped to [0, 1]. Ends on a crash or past x = 370 m; never truncated.
 */
import { DiscreteMetaAction } from '../actions';
import { ControlledVehicle, DEFAULT_TARGET_SPEEDS, MDPVehicle } from '../controlled';
import { DrivingEnv, type SceneState, type TimingConfig } from '../drivingEnv';
import { IDMVehicle } from '../idm';
import { LineType, SineLane, StraightLane } from '../lanes';
import { lmap } from '../math';
import { RoadNetwork, sameLane, type LaneIndex } from '../network';
import { Obstacle } from '../objects';
import { KinematicsObservation, type KinematicsConfig } from '../observation';

export interface MergeConfig extends TimingConfig {
  collisionReward: number;
  rightLaneReward: number;
  highSpeedReward: number;
  rewardSpeedRange: readonly [number, number];
  mergingSpeedReward: number;
  laneChangeReward: number;
  observation: KinematicsConfig;
}

/** Section lengths: before, converging, merge, after [m]. */
const ENDS = [150, 80, 80, 150] as const;
const MERGE_LANE: LaneIndex = ['b', 'c', 2];

export class MergeEnv extends DrivingEnv<Float64Array> {
  readonly observationSpace;

  constructor(readonly config: MergeConfig) {
    super(config, new DiscreteMetaAction(DEFAULT_TARGET_SPEEDS));
    this.kinematics = new KinematicsObservation(config.observation);
    this.observationSpace = this.kinematics.space;
  }

  protected buildNetwork(_state: SceneState): void {
    const net = new RoadNetwork();
    const [c, s, n] = [LineType.ContinuousLine, LineType.Striped, LineType.None];
    const y = [0, 4];
    const lineType = [
      [c, s],
      [n, c],
    ] as const;
    const lineTypeMerge = [
      [c, s],
      [n, s],
    ] as const;
    const x1 = ENDS[0] + ENDS[1];
    const x2 = x1 + ENDS[2];
    const x3 = x2 + ENDS[3];
    for (let i = 0; i < 2; i++) {
      const yi = y[i] as number;
      net.addLane('a', 'b', new StraightLane([0, yi], [x1, yi], { lineTypes: lineType[i] }));
      net.addLane('b', 'c', new StraightLane([x1, yi], [x2, yi], { lineTypes: lineTypeMerge[i] }));
      net.addLane('c', 'd', new StraightLane([x2, yi], [x3, yi], { lineTypes: lineType[i] }));
    }
    const amplitude = 3.25;
    const ljk = new StraightLane([0, 6.5 + 4 + 4], [ENDS[0], 6.5 + 4 + 4], { lineTypes: [c, c], forbidden: true });
    const lkb = new SineLane(ljk.position(ENDS[0], -amplitude), ljk.position(x1, -amplitude), amplitude, (2 * Math.PI) / (2 * ENDS[1]), Math.PI / 2, { lineTypes: [c, c], forbidden: true });
    const bendEnd = lkb.position(ENDS[1], 0);
    const lbc = new StraightLane(bendEnd, [bendEnd[0] + ENDS[2], bendEnd[1] + 0], { lineTypes: [n, c], forbidden: true });
    net.addLane('j', 'k', ljk);
    net.addLane('k', 'b', lkb);
    net.addLane('b', 'c', lbc);
    this.road = this.newRoad(net);
    this.road.objects.push(new Obstacle(this.road, lbc.position(ENDS[2], 0)));
  }

  protected buildScene(): void {
    this.buildNetwork({} as SceneState);
    const road = this.road;
    const ego = new MDPVehicle(road, road.network.getLane(['a', 'b', 1]).position(30.0, 0.0), 0, 30.0);
    road.vehicles.push(ego);
    this.ego = ego;
    for (const [position, speed] of [
      [90.0, 29.0],
      [70.0, 31.0],
      [5.0, 31.5],
    ] as const) {
      const lane = road.network.getLane(['a', 'b', road.rng.integers(0, 2)]);
      const p = lane.position(position + road.rng.uniform(-5.0, 5.0), 0.0);
      road.vehicles.push(new IDMVehicle(road, p, 0, speed + road.rng.uniform(-1.0, 1.0)));
    }
    const merging = new IDMVehicle(road, road.network.getLane(['j', 'k', 0]).position(110.0, 0.0), 0, 20.0);
    merging.targetSpeed = 30.0;
    road.vehicles.push(merging);
  }

  observe(): Float64Array {
    return (this.kinematics as KinematicsObservation).observe(this.road, this.ego, this.random);
  }

  protected rewardTerms(action: unknown): Record<string, number> {
    const ego = this.ego;
    let merging = 0;
    for (const v of this.road.vehicles) {
      if (v.laneIndex && sameLane(v.laneIndex, MERGE_LANE) && v instanceof ControlledVehicle) merging += (v.targetSpeed - v.speed) / v.targetSpeed;
    }
    const [lo, hi] = this.config.rewardSpeedRange;
    return {
      collision_reward: ego.crashed ? 1 : 0,
      right_lane_reward: (ego.laneIndex as LaneIndex)[2] / 1,
      high_speed_reward: lmap(ego.speed, lo, hi, 0, 1),
      lane_change_reward: action === 0 || action === 2 ? 1 : 0,
      merging_speed_reward: merging,
    };
  }

  protected reward(_action: unknown, terms: Record<string, number> | null): number {
    const t = terms ?? {};
    const c = this.config;
    const r =
      0 +
      c.collisionReward * (t['collision_reward'] as number) +
      c.rightLaneReward * (t['right_lane_reward'] as number) +
      c.highSpeedReward * (t['high_speed_reward'] as number) +
      c.laneChangeReward * (t['lane_change_reward'] as number) +
      c.mergingSpeedReward * (t['merging_speed_reward'] as number);
    return lmap(r, c.collisionReward + c.mergingSpeedReward, c.highSpeedReward + c.rightLaneReward, 0, 1);
  }

  protected isTerminated(): boolean {
    return this.ego.crashed || this.ego.position[0] > 370;
  }

  protected isTruncated(): boolean {
    return false;
  }
}
