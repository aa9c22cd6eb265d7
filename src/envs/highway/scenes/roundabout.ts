/**
 * roundabout-v0: a two-lane roundabout (radius 20 m) with four access roads, each a straight
 * section and a sine-shaped bend in and out. The ego vehicle enters from the south heading for
 * the north exit among four IDM vehicles with random destinations. Reward: collision, speed
 * index and lane-change terms mapped to [0, 1], times "on road". Ends on a crash; truncated at
 * `duration` seconds.
 */
import { DiscreteMetaAction } from '../actions';
import { MDPVehicle } from '../controlled';
import { DrivingEnv, type SceneState, type TimingConfig } from '../drivingEnv';
import { IDMVehicle } from '../idm';
import { CircularLane, LineType, SineLane, StraightLane } from '../lanes';
import { deg2rad, lmap } from '../math';
import { RoadNetwork, type LaneIndex } from '../network';
import { KinematicsObservation, type KinematicsConfig } from '../observation';
import type { Road } from '../road';

export interface RoundaboutConfig extends TimingConfig {
  duration: number;
  collisionReward: number;
  highSpeedReward: number;
  laneChangeReward: number;
  normalizeReward: boolean;
  /** Index into [exr, sxr, nxr] for the vehicle already in the roundabout, or null for random. */
  incomingVehicleDestination: number | null;
  targetSpeeds: readonly number[];
  observation: KinematicsConfig;
}

export const ROUNDABOUT_TARGET_SPEEDS: readonly number[] = [0, 8, 16];
const DESTINATIONS = ['exr', 'sxr', 'nxr'] as const;

export function roundaboutNetwork(): RoadNetwork {
  const net = new RoadNetwork();
  const center: [number, number] = [0, 0];
  const radius = 20;
  const alpha = 24;
  const radii = [radius, radius + 4];
  const [n, c, s] = [LineType.None, LineType.Continuous, LineType.Striped];
  const line = [
    [c, s],
    [n, c],
  ] as const;
  // Circle arcs, run counter-clockwise in screen terms: south/east/north/west, entry/exit.
  const arcs: [string, string, number, number][] = [
    ['se', 'ex', 90 - alpha, alpha],
    ['ex', 'ee', alpha, -alpha],
    ['ee', 'nx', -alpha, -90 + alpha],
    ['nx', 'ne', -90 + alpha, -90 - alpha],
    ['ne', 'wx', -90 - alpha, -180 + alpha],
    ['wx', 'we', -180 + alpha, -180 - alpha],
    ['we', 'sx', 180 - alpha, 90 + alpha],
    ['sx', 'se', 90 + alpha, 90 - alpha],
  ];
  for (const lane of [0, 1]) {
    for (const [from, to, a0, a1] of arcs) {
      net.addLane(from, to, new CircularLane(center, radii[lane] as number, deg2rad(a0), deg2rad(a1), false, { lineTypes: line[lane] }));
    }
  }
  const access = 170;
  const dev = 85;
  const a = 5;
  const deltaSt = 0.2 * dev;
  const deltaEn = dev - deltaSt;
  const w = (2 * Math.PI) / dev;
  const inPhase = -Math.PI / 2;
  const outPhase = -Math.PI / 2 + w * deltaEn;
  net.addLane('ser', 'ses', new StraightLane([2, access], [2, dev / 2], { lineTypes: [s, c] }));
  net.addLane('ses', 'se', new SineLane([2 + a, dev / 2], [2 + a, dev / 2 - deltaSt], a, w, inPhase, { lineTypes: [c, c] }));
  net.addLane('sx', 'sxs', new SineLane([-2 - a, -dev / 2 + deltaEn], [-2 - a, dev / 2], a, w, outPhase, { lineTypes: [c, c] }));
  net.addLane('sxs', 'sxr', new StraightLane([-2, dev / 2], [-2, access], { lineTypes: [n, c] }));
  net.addLane('eer', 'ees', new StraightLane([access, -2], [dev / 2, -2], { lineTypes: [s, c] }));
  net.addLane('ees', 'ee', new SineLane([dev / 2, -2 - a], [dev / 2 - deltaSt, -2 - a], a, w, inPhase, { lineTypes: [c, c] }));
  net.addLane('ex', 'exs', new SineLane([-dev / 2 + deltaEn, 2 + a], [dev / 2, 2 + a], a, w, outPhase, { lineTypes: [c, c] }));
  net.addLane('exs', 'exr', new StraightLane([dev / 2, 2], [access, 2], { lineTypes: [n, c] }));
  net.addLane('ner', 'nes', new StraightLane([-2, -access], [-2, -dev / 2], { lineTypes: [s, c] }));
  net.addLane('nes', 'ne', new SineLane([-2 - a, -dev / 2], [-2 - a, -dev / 2 + deltaSt], a, w, inPhase, { lineTypes: [c, c] }));
  net.addLane('nx', 'nxs', new SineLane([2 + a, dev / 2 - deltaEn], [2 + a, -dev / 2], a, w, outPhase, { lineTypes: [c, c] }));
  net.addLane('nxs', 'nxr', new StraightLane([2, -dev / 2], [2, -access], { lineTypes: [n, c] }));
  net.addLane('wer', 'wes', new StraightLane([-access, 2], [-dev / 2, 2], { lineTypes: [s, c] }));
  net.addLane('wes', 'we', new SineLane([-dev / 2, 2 + a], [-dev / 2 + deltaSt, 2 + a], a, w, inPhase, { lineTypes: [c, c] }));
  net.addLane('wx', 'wxs', new SineLane([dev / 2 - deltaEn, -2 - a], [-dev / 2, -2 - a], a, w, outPhase, { lineTypes: [c, c] }));
  net.addLane('wxs', 'wxr', new StraightLane([-dev / 2, -2], [-access, -2], { lineTypes: [n, c] }));
  return net;
}

/** A vehicle placed on a lane at a longitudinal position, facing along it. */
export function idmOnLane(road: Road, index: LaneIndex, longitudinal: number, speed: number): IDMVehicle {
  const lane = road.network.getLane(index);
  return new IDMVehicle(road, lane.position(longitudinal, 0), lane.headingAt(longitudinal), speed);
}

export class RoundaboutEnv extends DrivingEnv<Float64Array> {
  readonly observationSpace;

  constructor(readonly config: RoundaboutConfig) {
    super(config, new DiscreteMetaAction(config.targetSpeeds));
    this.kinematics = new KinematicsObservation(config.observation);
    this.observationSpace = this.kinematics.space;
  }

  protected buildNetwork(_state: SceneState): void {
    this.road = this.newRoad(roundaboutNetwork());
  }

  protected buildScene(): void {
    this.buildNetwork({} as SceneState);
    const road = this.road;
    const rng = road.rng;
    const positionDeviation = 2.0;
    const speedDeviation = 2.0;
    const egoLane = road.network.getLane(['ser', 'ses', 0]);
    const ego = new MDPVehicle(road, egoLane.position(125.0, 0.0), egoLane.headingAt(140.0), 8.0, this.config.targetSpeeds);
    ego.planRouteTo('nxs');
    road.vehicles.push(ego);
    this.ego = ego;

    const spawn = (index: LaneIndex, longitudinal: number, destination: () => string): void => {
      const long = longitudinal + rng.normal(0, 1) * positionDeviation;
      const v = idmOnLane(road, index, long, 16.0 + rng.normal(0, 1) * speedDeviation);
      v.planRouteTo(destination());
      v.randomizeBehavior((lo, hi) => rng.uniform(lo, hi));
      road.vehicles.push(v);
    };
    const fixed = this.config.incomingVehicleDestination;
    // The vehicle already in the roundabout, then two on the inner lane ahead and behind, then one entering from the east.
    spawn(['we', 'sx', 1], 5.0, () => (fixed !== null ? (DESTINATIONS[fixed] as string) : rng.choice(DESTINATIONS)));
    for (const i of [1, -1]) spawn(['we', 'sx', 0], 20.0 * i, () => rng.choice(DESTINATIONS));
    spawn(['eer', 'ees', 0], 50.0, () => rng.choice(DESTINATIONS));
  }

  observe(): Float64Array {
    return (this.kinematics as KinematicsObservation).observe(this.road, this.ego, this.random);
  }

  protected rewardTerms(action: unknown): Record<string, number> {
    const ego = this.ego;
    const speedIndex = ego instanceof MDPVehicle ? ego.speedIndex : 0;
    return {
      collision_reward: ego.crashed ? 1 : 0,
      high_speed_reward: speedIndex / 2,
      lane_change_reward: action === 0 || action === 2 ? 1 : 0,
      on_road_reward: ego.onRoad ? 1 : 0,
    };
  }

  protected reward(_action: unknown, terms: Record<string, number> | null): number {
    const t = terms ?? {};
    const c = this.config;
    let r = 0 + c.collisionReward * (t['collision_reward'] as number) + c.highSpeedReward * (t['high_speed_reward'] as number) + c.laneChangeReward * (t['lane_change_reward'] as number) + 0 * (t['on_road_reward'] as number);
    if (c.normalizeReward) r = lmap(r, c.collisionReward, c.highSpeedReward, 0, 1);
    return r * (t['on_road_reward'] as number);
  }

  protected isTerminated(): boolean {
    return this.ego.crashed;
  }

  protected isTruncated(): boolean {
    return this.time >= this.config.duration;
  }
}
