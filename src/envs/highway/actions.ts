/**
 * Action types. DiscreteMetaAction: an index into LANE_LEFT, IDLE, LANE_RIGHT, FASTER, SLOWER
 * (or SLOWER, IDLE, FASTER when only longitudinal) passed to the MDP vehicle once per policy
 * step. ContinuousAction: [acceleration, steering] in [-1, 1] (clipped), mapped linearly to
 * ±5 m/s² and ±π/4 rad in float32 arithmetic, as NumPy computes it from a float32 action.
 */
import { Box, Discrete } from '../core/spaces';
import type { MetaAction } from './controlled';
import { MDPVehicle } from './controlled';
import type { Vehicle } from './vehicle';

export const META_ACTIONS_ALL: readonly MetaAction[] = ['LANE_LEFT', 'IDLE', 'LANE_RIGHT', 'FASTER', 'SLOWER'];
export const META_ACTIONS_LONGI: readonly MetaAction[] = ['SLOWER', 'IDLE', 'FASTER'];
export const META_ACTIONS_LAT: readonly MetaAction[] = ['LANE_LEFT', 'IDLE', 'LANE_RIGHT'];

export class InvalidActionError extends TypeError {
  override name = 'InvalidActionError';
}

export class DiscreteMetaAction {
  readonly labels: readonly MetaAction[];
  readonly space: Discrete;

  constructor(
    readonly targetSpeeds: readonly number[],
    longitudinal = true,
    lateral = true,
  ) {
    if (!longitudinal && !lateral) throw new RangeError('DiscreteMetaAction needs longitudinal and/or lateral actions');
    this.labels = longitudinal && lateral ? META_ACTIONS_ALL : longitudinal ? META_ACTIONS_LONGI : META_ACTIONS_LAT;
    this.space = new Discrete(this.labels.length);
  }

  label(action: unknown): MetaAction {
    const label = typeof action === 'number' && Number.isInteger(action) ? this.labels[action] : undefined;
    if (label === undefined) throw new InvalidActionError(`action must be an integer in 0..${this.labels.length - 1} (${this.labels.join(', ')}), got ${JSON.stringify(action)}`);
    return label;
  }

  act(vehicle: Vehicle, action: unknown): void {
    if (!(vehicle instanceof MDPVehicle)) throw new TypeError('DiscreteMetaAction drives an MDP vehicle');
    vehicle.act(this.label(action));
  }
}

const f32 = Math.fround;

export class ContinuousAction {
  readonly space = new Box(-1, 1, [2], 'float32');
  readonly accelerationRange: readonly [number, number] = [-5, 5.0];
  readonly steeringRange: readonly [number, number] = [-Math.PI / 4, Math.PI / 4];

  /** The low-level command for a float32 action, computed in float32 like NumPy does. */
  command(action: unknown): { acceleration: number; steering: number } {
    if (!ArrayBuffer.isView(action) && !Array.isArray(action)) throw new InvalidActionError(`action must be [acceleration, steering], got ${JSON.stringify(action)}`);
    const a = action as ArrayLike<unknown>;
    if (a.length !== 2 || typeof a[0] !== 'number' || typeof a[1] !== 'number' || Number.isNaN(a[0]) || Number.isNaN(a[1])) {
      throw new InvalidActionError(`action must be two numbers [acceleration, steering], got ${JSON.stringify(Array.from(a))}`);
    }
    const acc = f32Lmap(f32Clip(f32(a[0] as number)), this.accelerationRange);
    const steer = f32Lmap(f32Clip(f32(a[1] as number)), this.steeringRange);
    return { acceleration: acc, steering: steer };
  }

  act(vehicle: Vehicle, action: unknown): void {
    vehicle.act(this.command(action));
  }
}

function f32Clip(x: number): number {
  return x < -1 ? -1 : x > 1 ? 1 : x;
}

/** y0 + (v − (−1))·(y1 − y0)/2 with every intermediate rounded to float32 (NumPy's weak Python scalars). */
function f32Lmap(v: number, y: readonly [number, number]): number {
  const t = f32(f32(v + 1) * f32(y[1] - y[0]));
  return f32(f32(y[0]) + f32(t / 2));
}
