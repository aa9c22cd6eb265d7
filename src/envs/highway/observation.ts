/**
 * Observation types. Kinematics: a V×F table, row 0 the observer, then the nearest other
 * vehicles (and obstacles) ordered by distance along the observer's lane, each row the chosen
 * features, relative to the observer unless `absolute`, mapped from `features_range` to [-1, 1]
 * and clipped when normalized, missing rows zero, float32-rounded. KinematicsGoal: the observer's
 * and the goal's features divided by per-feature scales, in float64.
 */
import { Box, Dict } from '../core/spaces';
import { DEFAULT_LANE_WIDTH } from './lanes';
import { clip, lmap, norm2, wrapToPi } from './math';
import type { LaneIndex } from './network';
import type { RoadObject } from './objects';
import type { Road } from './road';
import type { HighwayRandom } from './random';
import { ControlledVehicle } from './controlled';
import { Vehicle } from './vehicle';
import type { FeatureRanges, KinematicFeature, KinematicsConfig } from './kinematicsConfig';

export type { FeatureRanges, KinematicFeature, KinematicsConfig } from './kinematicsConfig';

export const PERCEPTION_DISTANCE = 5.0 * Vehicle.MAX_SPEED;

/** One object's feature values, as HighwayEnv's `to_dict` gives them (NaN where it has none). */
function featuresOf(o: RoadObject, withIntentions: boolean): Record<KinematicFeature, number> {
  const c = Math.cos(o.heading);
  const s = Math.sin(o.heading);
  if (!(o instanceof Vehicle)) {
    return { presence: 1, x: o.position[0], y: o.position[1], vx: 0, vy: 0, heading: NaN, cos_h: c, sin_h: s, cos_d: 0, sin_d: 0, long_off: NaN, lat_off: NaN, ang_off: NaN };
  }
  let cosD = 0;
  let sinD = 0;
  if (withIntentions) [cosD, sinD] = destinationDirection(o);
  let long = 0;
  let lat = 0;
  let ang = 0;
  if (o.lane) {
    [long, lat] = o.lane.localCoordinates(o.position[0], o.position[1]);
    ang = wrapToPi(o.heading - o.lane.headingAt(long));
  }
  return { presence: 1, x: o.position[0], y: o.position[1], vx: o.speed * c, vy: o.speed * s, heading: o.heading, cos_h: c, sin_h: s, cos_d: cosD, sin_d: sinD, long_off: long, lat_off: lat, ang_off: ang };
}

/** Unit vector to the end of the vehicle's route, or zero without a route. */
function destinationDirection(v: Vehicle): [number, number] {
  if (!(v instanceof ControlledVehicle) || !v.route || v.route.length === 0) return [0, 0];
  const last = v.route[v.route.length - 1] as readonly [string, string, number | null];
  const lane = v.road.network.getLane([last[0], last[1], last[2] ?? 0]);
  const [dx, dy] = lane.position(lane.length, 0);
  if (dx === v.position[0] && dy === v.position[1]) return [0, 0];
  const n = norm2(dx - v.position[0], dy - v.position[1]);
  return [(dx - v.position[0]) / n, (dy - v.position[1]) / n];
}

export class KinematicsObservation {
  readonly space: Box;
  private ranges: FeatureRanges | null;
  private readonly buffer: Float64Array;

  constructor(readonly config: KinematicsConfig) {
    this.space = new Box(-Infinity, Infinity, [config.vehiclesCount, config.features.length], 'float32');
    this.ranges = config.featuresRange;
    this.buffer = new Float64Array(config.vehiclesCount * config.features.length);
  }

  /** The ranges in use (fixed once the default ones are computed); part of the episode state. */
  get featureRanges(): FeatureRanges | null {
    return this.ranges;
  }

  set featureRanges(r: FeatureRanges | null) {
    this.ranges = r;
  }

  /** Fixes the default normalization ranges from the observer's road, once per episode. */
  ensureRanges(road: Road, observer: Vehicle): void {
    if (!this.config.normalize || this.ranges) return;
    const lanes = road.network.allSideLanes(observer.laneIndex as LaneIndex).length;
    const maxV = Vehicle.MAX_SPEED;
    this.ranges = { x: [-5.0 * maxV, 5.0 * maxV], y: [-DEFAULT_LANE_WIDTH * lanes, DEFAULT_LANE_WIDTH * lanes], vx: [-2 * maxV, 2 * maxV], vy: [-2 * maxV, 2 * maxV] };
  }

  observe(road: Road, observer: Vehicle, rng: HighwayRandom): Float64Array {
    const cfg = this.config;
    const rows: Record<KinematicFeature, number>[] = [featuresOf(observer, true)];
    const close = road.closeObjectsTo(observer, PERCEPTION_DISTANCE, cfg.vehiclesCount - 1, cfg.seeBehind, cfg.order === 'sorted', !cfg.includeObstacles);
    if (close.length > 0) {
      const origin = cfg.absolute ? null : rows[0] as Record<KinematicFeature, number>;
      for (const o of close.slice(-cfg.vehiclesCount + 1)) {
        const f = featuresOf(o, cfg.observeIntentions);
        if (origin) {
          f.x -= origin.x;
          f.y -= origin.y;
          f.vx -= origin.vx;
          f.vy -= origin.vy;
        }
        rows.push(f);
      }
    }
    this.ensureRanges(road, observer);
    const out = this.buffer;
    out.fill(0);
    const nf = cfg.features.length;
    rows.forEach((row, i) => {
      cfg.features.forEach((name, j) => {
        let v = row[name];
        const range = cfg.normalize ? this.ranges?.[name] : undefined;
        if (range) {
          v = lmap(v, range[0], range[1], -1, 1);
          if (cfg.clip) v = clip(v, -1, 1);
        }
        out[i * nf + j] = Math.fround(v);
      });
    });
    if (cfg.order === 'shuffled') shuffleRows(out, rows.length > 0 ? cfg.vehiclesCount : 0, nf, rng);
    return out;
  }
}

/** Shuffles every row but the observer's (the padding rows take part, as in HighwayEnv). */
function shuffleRows(out: Float64Array, rows: number, nf: number, rng: HighwayRandom): void {
  for (let i = rows - 1; i > 1; i--) {
    const j = rng.integers(1, i + 1);
    for (let k = 0; k < nf; k++) {
      const t = out[i * nf + k] as number;
      out[i * nf + k] = out[j * nf + k] as number;
      out[j * nf + k] = t;
    }
  }
}

export interface GoalObservationValue {
  observation: Float64Array;
  achieved_goal: Float64Array;
  desired_goal: Float64Array;
}

export class KinematicsGoalObservation {
  readonly space: Dict;

  constructor(
    readonly features: readonly KinematicFeature[],
    readonly scales: readonly number[],
  ) {
    const box = (): Box => new Box(-Infinity, Infinity, [features.length], 'float64');
    this.space = new Dict({ desired_goal: box(), achieved_goal: box(), observation: box() });
  }

  observe(observer: Vehicle, goal: RoadObject): GoalObservationValue {
    const me = featuresOf(observer, true);
    const g = featuresOf(goal, true);
    const obs = Float64Array.from(this.features, (f, i) => me[f] / (this.scales[i] as number));
    const desired = Float64Array.from(this.features, (f, i) => g[f] / (this.scales[i] as number));
    return { observation: obs, achieved_goal: Float64Array.from(obs), desired_goal: desired };
  }
}
