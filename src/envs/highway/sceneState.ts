/**
 * The scene as JSON, in the layout HighwayEnv's golden traces record: every vehicle's class,
 * pose, speed, lanes, last command and controller state. `impact` (a pending collision push) is
 * ours: the traces do not record it, but a resumed episode needs it.
 */
import { ControlledVehicle, MDPVehicle } from './controlled';
import { IDMVehicle } from './idm';
import type { LaneIndex, Route, RouteStep } from './network';
import type { Road } from './road';
import { Vehicle } from './vehicle';

export interface VehicleState {
  cls: string;
  position: [number, number];
  heading: number;
  speed: number;
  lane_index: [string, string, number] | null;
  crashed: boolean;
  control: { steering: number; acceleration: number };
  target_lane_index?: [string, string, number];
  target_speed?: number;
  route?: [string, string, number | null][] | null;
  speed_index?: number;
  target_speeds?: number[];
  timer?: number;
  DELTA?: number;
  enable_lane_change?: boolean;
  impact?: [number, number] | null;
}

export function vehicleState(v: Vehicle): VehicleState {
  const s: VehicleState = {
    cls: v.className,
    position: [v.position[0], v.position[1]],
    heading: v.heading,
    speed: v.speed,
    lane_index: v.laneIndex ? [...v.laneIndex] : null,
    crashed: v.crashed,
    control: { steering: v.action.steering, acceleration: v.action.acceleration },
  };
  if (v instanceof ControlledVehicle) {
    s.target_lane_index = [...v.targetLaneIndex];
    s.target_speed = v.targetSpeed;
    s.route = v.route ? v.route.map((r) => [...r] as [string, string, number | null]) : null;
  }
  if (v instanceof MDPVehicle) {
    s.speed_index = v.speedIndex;
    s.target_speeds = [...v.targetSpeeds];
  }
  if (v instanceof IDMVehicle) {
    s.timer = v.timer;
    s.DELTA = v.delta;
    s.enable_lane_change = v.enableLaneChange;
  }
  if (v.impact) s.impact = [v.impact[0], v.impact[1]];
  return s;
}

export class SceneStateError extends TypeError {
  override name = 'SceneStateError';
}

function lane3(x: unknown, what: string): LaneIndex {
  if (!Array.isArray(x) || x.length !== 3 || typeof x[0] !== 'string' || typeof x[1] !== 'string' || typeof x[2] !== 'number') {
    throw new SceneStateError(`${what} must be [from, to, id], got ${JSON.stringify(x)}`);
  }
  return [x[0], x[1], x[2]];
}

function num(x: unknown, what: string): number {
  if (typeof x !== 'number') throw new SceneStateError(`${what} must be a number, got ${JSON.stringify(x)}`);
  return x;
}

/** Rebuilds a vehicle on `road` from its recorded state. */
export function restoreVehicle(road: Road, s: VehicleState): Vehicle {
  if (!s || typeof s !== 'object' || !Array.isArray(s.position)) throw new SceneStateError(`vehicle state must be an object with a position, got ${JSON.stringify(s)}`);
  const pos: [number, number] = [num(s.position[0], 'position[0]'), num(s.position[1], 'position[1]')];
  const heading = num(s.heading, 'heading');
  const speed = num(s.speed, 'speed');
  const route: Route | null = s.route ? s.route.map((r) => [r[0], r[1], r[2]] as RouteStep) : null;
  let v: Vehicle;
  switch (s.cls) {
    case 'Vehicle':
      v = new Vehicle(road, pos, heading, speed);
      break;
    case 'MDPVehicle': {
      const m = new MDPVehicle(road, pos, heading, speed, s.target_speeds ?? undefined, lane3(s.target_lane_index, 'target_lane_index'), num(s.target_speed, 'target_speed'), route);
      m.speedIndex = num(s.speed_index, 'speed_index');
      m.targetSpeed = num(s.target_speed, 'target_speed');
      v = m;
      break;
    }
    case 'IDMVehicle': {
      const d = new IDMVehicle(road, pos, heading, speed, {
        targetLaneIndex: lane3(s.target_lane_index, 'target_lane_index'),
        targetSpeed: num(s.target_speed, 'target_speed'),
        route,
        enableLaneChange: s.enable_lane_change ?? true,
        timer: num(s.timer, 'timer'),
      });
      d.targetSpeed = num(s.target_speed, 'target_speed');
      d.timer = num(s.timer, 'timer');
      // Vehicles whose behaviour was never randomized keep the class exponent.
      d.delta = s.DELTA === undefined ? 4.0 : num(s.DELTA, 'DELTA');
      v = d;
      break;
    }
    default:
      throw new SceneStateError(`unknown vehicle class ${JSON.stringify(s.cls)} (expected Vehicle, MDPVehicle or IDMVehicle)`);
  }
  if (s.lane_index) {
    v.laneIndex = lane3(s.lane_index, 'lane_index');
    v.lane = road.network.getLane(v.laneIndex);
  }
  v.crashed = s.crashed === true;
  v.action = { steering: num(s.control?.steering, 'control.steering'), acceleration: num(s.control?.acceleration, 'control.acceleration') };
  v.impact = s.impact ? [s.impact[0], s.impact[1]] : null;
  return v;
}
