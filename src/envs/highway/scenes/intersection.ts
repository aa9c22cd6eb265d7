/**
 * intersection-v0: a four-way crossing of two-lane roads with right-of-way (east–west has
 * priority; left turns yield). The ego vehicle comes from the south and must turn left to exit
 * west (`o1`), choosing only its speed (SLOWER, IDLE, FASTER). Traffic spawns at random entries
 * with random exits, warms up for 3 s before the episode, and keeps arriving after every step
 * (probability 0.6); vehicles that leave are removed. Reward: −5 on a crash, else speed in
 * [7, 9] m/s mapped to [0, 1], and 1 once arrived; times "on road". Ends on a crash or arrival;
 * truncated at `duration`.
 */
import { DiscreteMetaAction } from '../actions';
import { ControlledVehicle, MDPVehicle } from '../controlled';
import { DrivingEnv, type SceneState, type TimingConfig } from '../drivingEnv';
import { DEFAULT_IDM, IDMVehicle, type IdmParams } from '../idm';
import { CircularLane, DEFAULT_LANE_WIDTH, LineType, StraightLane } from '../lanes';
import { clip, deg2rad, lmap, norm2, type Vec2 } from '../math';
import { RoadNetwork, type LaneIndex } from '../network';
import { KinematicsObservation, type KinematicsConfig } from '../observation';
import { RegulatedRoad } from '../regulation';
import type { StepResult } from '../../core/env';
import type { Vehicle } from '../vehicle';

export interface IntersectionConfig extends TimingConfig {
  duration: number;
  /** Exit node of the ego route, or null for a random one of o1..o3. */
  destination: string | null;
  initialVehicleCount: number;
  spawnProbability: number;
  collisionReward: number;
  highSpeedReward: number;
  arrivedReward: number;
  rewardSpeedRange: readonly [number, number];
  normalizeReward: boolean;
  offroadTerminal: boolean;
  observation: KinematicsConfig;
}

export const INTERSECTION_TARGET_SPEEDS: readonly number[] = [0, 4.5, 9];
/** Traffic here keeps a short jam distance and brakes gently but accelerates hard. */
const INTERSECTION_IDM: IdmParams = { ...DEFAULT_IDM, distanceWanted: 7, comfortAccMax: 6, comfortAccMin: -3 };
const WARMUP_SECONDS = 3;

function rotate(angle: number, [x, y]: Vec2): [number, number] {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return [c * x + -s * y, s * x + c * y];
}

export function intersectionNetwork(): RoadNetwork {
  const lw = DEFAULT_LANE_WIDTH;
  const rightTurnRadius = lw + 5;
  const leftTurnRadius = rightTurnRadius + lw;
  const outer = rightTurnRadius + lw / 2;
  const access = 50 + 50;
  const net = new RoadNetwork();
  const [n, c, s] = [LineType.None, LineType.Continuous, LineType.Striped];
  for (let corner = 0; corner < 4; corner++) {
    const angle = deg2rad(90 * corner);
    const priority = corner % 2 ? 3 : 1;
    const prev = (corner + 3) % 4;
    const opts = (lineTypes: readonly [LineType, LineType], p = priority) => ({ lineTypes, priority: p, speedLimit: 10.0 });
    net.addLane(`o${corner}`, `ir${corner}`, new StraightLane(rotate(angle, [lw / 2, access + outer]), rotate(angle, [lw / 2, outer]), opts([s, c])));
    net.addLane(`ir${corner}`, `il${prev}`, new CircularLane(rotate(angle, [outer, outer]), rightTurnRadius, angle + deg2rad(180), angle + deg2rad(270), true, opts([n, c])));
    const lCenter = rotate(angle, [-leftTurnRadius + lw / 2, leftTurnRadius - lw / 2]);
    net.addLane(`ir${corner}`, `il${(corner + 1) % 4}`, new CircularLane(lCenter, leftTurnRadius, angle + deg2rad(0), angle + deg2rad(-90), false, opts([n, n], priority - 1)));
    net.addLane(`ir${corner}`, `il${(corner + 2) % 4}`, new StraightLane(rotate(angle, [lw / 2, outer]), rotate(angle, [lw / 2, -outer]), opts([s, n])));
    const exitStart = rotate(angle, [access + outer, lw / 2]);
    const exitEnd = rotate(angle, [outer, lw / 2]);
    net.addLane(`il${prev}`, `o${prev}`, new StraightLane(exitEnd, exitStart, opts([n, c])));
  }
  return net;
}

export class IntersectionEnv extends DrivingEnv<Float64Array> {
  readonly observationSpace;
  declare road: RegulatedRoad;

  constructor(readonly config: IntersectionConfig) {
    super(config, new DiscreteMetaAction(INTERSECTION_TARGET_SPEEDS, true, false));
    this.kinematics = new KinematicsObservation(config.observation);
    this.observationSpace = this.kinematics.space;
  }

  private get warmupSteps(): number {
    return WARMUP_SECONDS * this.config.simulationFrequency;
  }

  protected buildNetwork(state: SceneState): void {
    this.road = new RegulatedRoad(intersectionNetwork(), this.random);
    this.road.steps = this.warmupSteps + (typeof state.sim_steps === 'number' ? state.sim_steps : 0);
  }

  protected override configureVehicle(v: Vehicle): void {
    if (v instanceof IDMVehicle) {
      v.params = INTERSECTION_IDM;
      // Yielding vehicles target zero speed until the next right-of-way check releases them.
      if (v.targetSpeed === 0) this.road.yielding.set(v, 0);
    }
  }

  protected buildScene(): void {
    this.road = new RegulatedRoad(intersectionNetwork(), this.random);
    const road = this.road;
    const n = this.config.initialVehicleCount;
    for (let t = 0; t < n - 1; t++) this.spawnVehicle(t * (80 / (n - 1)));
    const dt = 1 / this.config.simulationFrequency;
    for (let k = 0; k < this.warmupSteps; k++) {
      road.act();
      road.step(dt);
    }
    this.spawnVehicle(60, { spawnProbability: 1.0, goStraight: true, positionDeviation: 0.1, speedDeviation: 0.0 });

    const egoLane = road.network.getLane(['o0', 'ir0', 0]);
    const destination = this.config.destination ?? `o${road.rng.integers(1, 4)}`;
    const ego = new MDPVehicle(road, egoLane.position(60.0 + 5.0 * road.rng.normal(1.0, 1.0), 0.0), egoLane.headingAt(60.0), egoLane.speedLimit, INTERSECTION_TARGET_SPEEDS);
    ego.planRouteTo(destination);
    ego.speedIndex = ego.speedToIndex(egoLane.speedLimit);
    ego.targetSpeed = ego.indexToSpeed(ego.speedIndex);
    road.vehicles.push(ego);
    this.ego = ego;
    // No traffic right on top of the ego vehicle at the start.
    road.vehicles = road.vehicles.filter((v) => v === ego || !(norm2(v.position[0] - ego.position[0], v.position[1] - ego.position[1]) < 20));
  }

  private spawnVehicle(longitudinal = 0, o: { positionDeviation?: number; speedDeviation?: number; spawnProbability?: number; goStraight?: boolean } = {}): void {
    const rng = this.random;
    if (rng.uniform(0, 1) > (o.spawnProbability ?? 0.6)) return;
    const route = rng.choiceDistinct([0, 1, 2, 3], 2) as [number, number];
    if (o.goStraight) route[1] = (route[0] + 2) % 4;
    const lane = this.road.network.getLane([`o${route[0]}`, `ir${route[0]}`, 0]);
    const long = longitudinal + 5.0 + rng.normal(0, 1) * (o.positionDeviation ?? 1.0);
    const speed = 8.0 + rng.normal(0, 1) * (o.speedDeviation ?? 1.0);
    const v = new IDMVehicle(this.road, lane.position(long, 0), lane.headingAt(long), speed, { params: INTERSECTION_IDM });
    for (const other of this.road.vehicles) {
      if (norm2(other.position[0] - v.position[0], other.position[1] - v.position[1]) < 15) return;
    }
    v.planRouteTo(`o${route[1]}`);
    v.randomizeBehavior((lo, hi) => rng.uniform(lo, hi));
    this.road.vehicles.push(v);
  }

  /** Removes traffic that is about to leave (or has no route); the ego vehicle always stays. */
  private clearVehicles(): void {
    const leaving = (v: Vehicle): boolean => {
      const [from, to] = v.laneIndex as LaneIndex;
      const lane = v.lane as NonNullable<Vehicle['lane']>;
      return from.includes('il') && to.includes('o') && lane.localCoordinates(v.position[0], v.position[1])[0] >= lane.length - 4 * v.length;
    };
    this.road.vehicles = this.road.vehicles.filter((v) => v === this.ego || !(leaving(v) || !(v instanceof ControlledVehicle) || v.route === null));
    for (const v of [...this.road.yielding.keys()]) if (!this.road.vehicles.includes(v)) this.road.yielding.delete(v);
  }

  hasArrived(v: Vehicle, exitDistance = 25): boolean {
    const [from, to] = v.laneIndex as LaneIndex;
    const lane = v.lane as NonNullable<Vehicle['lane']>;
    return from.includes('il') && to.includes('o') && lane.localCoordinates(v.position[0], v.position[1])[0] >= exitDistance;
  }

  override step(action: unknown): StepResult<Float64Array> {
    const result = super.step(action);
    this.clearVehicles();
    this.spawnVehicle(0, { spawnProbability: this.config.spawnProbability });
    return result;
  }

  observe(): Float64Array {
    return (this.kinematics as KinematicsObservation).observe(this.road, this.ego, this.random);
  }

  protected rewardTerms(): Record<string, number> {
    const ego = this.ego;
    const [lo, hi] = this.config.rewardSpeedRange;
    return {
      collision_reward: ego.crashed ? 1 : 0,
      high_speed_reward: clip(lmap(ego.speed, lo, hi, 0, 1), 0, 1),
      arrived_reward: this.hasArrived(ego) ? 1 : 0,
      on_road_reward: ego.onRoad ? 1 : 0,
    };
  }

  private agentReward(t: Record<string, number>): number {
    const c = this.config;
    let r = 0 + c.collisionReward * (t['collision_reward'] as number) + c.highSpeedReward * (t['high_speed_reward'] as number) + c.arrivedReward * (t['arrived_reward'] as number) + 0 * (t['on_road_reward'] as number);
    if (t['arrived_reward']) r = c.arrivedReward;
    r *= t['on_road_reward'] as number;
    if (c.normalizeReward) r = lmap(r, c.collisionReward, c.arrivedReward, 0, 1);
    return r;
  }

  protected reward(_action: unknown, terms: Record<string, number> | null): number {
    return (0 + this.agentReward(terms ?? this.rewardTerms())) / 1;
  }

  protected override extraInfo(info: Record<string, unknown>): void {
    const terms = (info['rewards'] as Record<string, number> | undefined) ?? this.rewardTerms();
    info['agents_rewards'] = [this.agentReward(terms)];
    info['agents_terminated'] = [this.ego.crashed || this.hasArrived(this.ego)];
  }

  protected isTerminated(): boolean {
    return this.ego.crashed || this.hasArrived(this.ego) || (this.config.offroadTerminal && !this.ego.onRoad);
  }

  protected isTruncated(): boolean {
    return this.time >= this.config.duration;
  }
}
