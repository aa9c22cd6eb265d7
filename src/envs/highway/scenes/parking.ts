/**
 * parking-v0: a goal-conditioned parking lot. Two rows of 14 spots (4 m × 8 m) face a central
 * aisle inside four walls; the ego vehicle starts at the origin with a random heading and must
 * stop in a random free spot, facing along it. Continuous [acceleration, steering] control.
 * Reward: −(Σ wᵢ·|achieved − desired|ᵢ)^½ over the scaled features, −5 on a crash; success
 * when that distance term is above −0.12. Ends on a crash or success; truncated at `duration`.
 */
import type { Space } from '../../core/spaces';
import { ContinuousAction } from '../actions';
import { DrivingEnv, type SceneState, type TimingConfig } from '../drivingEnv';
import { LineType, StraightLane } from '../lanes';
import { RoadNetwork, type LaneIndex } from '../network';
import { Landmark, Obstacle, type RoadObject } from '../objects';
import { KinematicsGoalObservation, type GoalObservationValue, type KinematicFeature } from '../observation';
import { Vehicle } from '../vehicle';

export interface ParkingConfig extends TimingConfig {
  duration: number;
  rewardWeights: readonly number[];
  successGoalReward: number;
  collisionReward: number;
  addWalls: boolean;
}

export const PARKING_FEATURES: readonly KinematicFeature[] = ['x', 'y', 'vx', 'vy', 'cos_h', 'sin_h'];
export const PARKING_SCALES: readonly number[] = [100, 100, 5, 5, 1, 1];
const SPOTS = 14;
const WALLS = { width: 70, height: 42 };

interface ObjectState {
  cls: string;
  position: [number, number];
  heading: number;
  speed: number;
  lane_index: LaneIndex | null;
  LENGTH: number;
  WIDTH: number;
  solid: boolean;
  collidable: boolean;
  crashed: boolean;
  hit: boolean;
}

export class ParkingEnv extends DrivingEnv<GoalObservationValue> {
  readonly observationSpace: Space<GoalObservationValue>;
  readonly goalObs = new KinematicsGoalObservation(PARKING_FEATURES, PARKING_SCALES);
  goal!: Landmark;

  constructor(readonly config: ParkingConfig) {
    super(config, new ContinuousAction());
    this.observationSpace = this.goalObs.space as unknown as Space<GoalObservationValue>;
  }

  private network(): RoadNetwork {
    const net = new RoadNetwork();
    const width = 4.0;
    const lt = [LineType.Continuous, LineType.Continuous] as const;
    const yOffset = 10;
    const length = 8;
    for (let k = 0; k < SPOTS; k++) {
      const x = (k + 1 - Math.floor(SPOTS / 2)) * (width + 0) - width / 2;
      net.addLane('a', 'b', new StraightLane([x, yOffset], [x, yOffset + length], { width, lineTypes: lt }));
      net.addLane('b', 'c', new StraightLane([x, -yOffset], [x, -yOffset - length], { width, lineTypes: lt }));
    }
    return net;
  }

  /** The goal at the middle of a spot, then the walls (south, north, west, east). */
  private placeObjects(goalLane: LaneIndex): void {
    const road = this.road;
    const lane = road.network.getLane(goalLane) as StraightLane;
    this.goal = new Landmark(road, lane.position(lane.length / 2, 0), lane.heading);
    road.objects = [this.goal];
    if (!this.config.addWalls) return;
    const wall = (pos: [number, number], heading: number, length: number): void => {
      const o = new Obstacle(road, pos, heading);
      o.length = length;
      o.width = 1;
      road.objects.push(o);
    };
    for (const y of [-WALLS.height / 2, WALLS.height / 2]) wall([0, y], 0, WALLS.width);
    for (const x of [-WALLS.width / 2, WALLS.width / 2]) wall([x, 0], Math.PI / 2, WALLS.height);
  }

  protected buildNetwork(state: SceneState): void {
    this.road = this.newRoad(this.network());
    // Our states carry `goal`; the golden traces list the goal as the first object.
    const objects = state['objects'];
    const goal = (state['goal'] ?? (Array.isArray(objects) ? objects[0] : undefined)) as { lane_index?: unknown } | undefined;
    const index = goal?.lane_index;
    if (!Array.isArray(index) || typeof index[0] !== 'string' || typeof index[1] !== 'string' || typeof index[2] !== 'number') {
      throw new TypeError(`a parking scene state needs goal.lane_index, got ${JSON.stringify(goal)}`);
    }
    this.placeObjects([index[0], index[1], index[2]]);
  }

  protected buildScene(): void {
    this.road = this.newRoad(this.network());
    const road = this.road;
    const empty = road.network.lanes().map((l) => l.index);
    const ego = new Vehicle(road, [0.0, 0.0], 2.0 * Math.PI * road.rng.uniform(0, 1), 0.0);
    road.vehicles = [ego];
    this.ego = ego;
    const taken = empty.findIndex((i) => i[0] === ego.laneIndex?.[0] && i[1] === ego.laneIndex[1] && i[2] === ego.laneIndex[2]);
    if (taken >= 0) empty.splice(taken, 1);
    const pick = road.rng.choice(empty.map((_, i) => i));
    this.placeObjects(empty[pick] as LaneIndex);
  }

  observe(): GoalObservationValue {
    return this.goalObs.observe(this.ego, this.goal);
  }

  /** −(Σ wᵢ·|achieved − desired|ᵢ)^½. */
  distanceReward(obs: GoalObservationValue): number {
    let dot = 0;
    const w = this.config.rewardWeights;
    for (let i = 0; i < w.length; i++) dot += Math.abs((obs.achieved_goal[i] as number) - (obs.desired_goal[i] as number)) * (w[i] as number);
    return -Math.pow(dot, 0.5);
  }

  isSuccess(obs: GoalObservationValue = this.observe()): boolean {
    return this.distanceReward(obs) > -this.config.successGoalReward;
  }

  protected rewardTerms(): null {
    return null;
  }

  protected reward(): number {
    return 0 + this.distanceReward(this.observe()) + this.config.collisionReward * (this.ego.crashed ? 1 : 0);
  }

  protected isTerminated(): boolean {
    return this.ego.crashed || this.isSuccess();
  }

  protected isTruncated(): boolean {
    return this.time >= this.config.duration;
  }

  protected override extraInfo(info: Record<string, unknown>): void {
    info['is_success'] = this.isSuccess();
  }

  protected override extraState(): Record<string, unknown> {
    return {
      goal: { position: [...this.goal.position], heading: this.goal.heading, lane_index: this.goal.laneIndex },
      objects: this.road.objects.map(objectState),
    };
  }

  protected override readonly viewWidth = null;

  protected override extraSnapshot(out: Record<string, unknown>): void {
    out['goal'] = { x: this.goal.position[0], y: this.goal.position[1], h: this.goal.heading, l: 8, w: 4 };
  }
}

function objectState(o: RoadObject): ObjectState {
  return {
    cls: o.kind === 'landmark' ? 'Landmark' : 'Obstacle',
    position: [o.position[0], o.position[1]],
    heading: o.heading,
    speed: o.speed,
    lane_index: o.laneIndex,
    LENGTH: o.length,
    WIDTH: o.width,
    solid: o.solid,
    collidable: o.collidable,
    crashed: o.crashed,
    hit: o.hit,
  };
}
