/**
 * MountainCarContinuous-v0 exactly as Gymnasium 1.4 under NumPy ≥ 2 promotion rules
 * (docs/environments.md §4). Every intermediate is tagged float32 or double, because
 * NEP 50 makes float32 ∘ Python-float a float32 operation; the golden traces depend on it.
 */
import { Box } from '../core/spaces';
import { EMPTY_INFO, type Env, type ResetOptions, type ResetResult, type StepResult } from '../core/env';
import { Rng } from '../core/rng';
import { readResetBounds } from './stateIO';

const f = Math.fround;
const MIN_POSITION = -1.2;
const MAX_POSITION = 0.6;
const MAX_SPEED = 0.07;
const POWER = 0.0015;
export const MOUNTAIN_CAR_CONTINUOUS_GOAL = 0.45;

/** A value and whether NumPy would hold it as float32 (true) or float64/Python float (false). */
interface Tagged {
  v: number;
  f32: boolean;
}

export interface MountainCarContinuousState {
  position: number;
  velocity: number;
  /** After the first step Gymnasium stores the state as float32; right after reset it is float64. */
  float32: boolean;
}

export class MountainCarContinuousEnv implements Env<Float64Array, Float64Array> {
  readonly observationSpace = new Box([MIN_POSITION, -MAX_SPEED], [MAX_POSITION, MAX_SPEED], [2], 'float32');
  readonly actionSpace = new Box(-1, 1, [1], 'float32');
  private position = 0;
  private velocity = 0;
  private stateIsF32 = false;
  private readonly rng = new Rng(0);
  private readonly obs = new Float64Array(2);
  private readonly result: StepResult<Float64Array> = { observation: this.obs, reward: 0, terminated: false, truncated: false, info: EMPTY_INFO };

  constructor(
    private readonly goalVelocity = 0,
    /** The initial position's uniform range (Gymnasium's default, [-0.6, -0.4]). */
    private readonly resetLow = -0.6,
    private readonly resetHigh = -0.4,
  ) {}

  reset(opts: ResetOptions = {}): ResetResult<Float64Array> {
    if (opts.seed !== undefined) this.rng.reseed(opts.seed);
    const [low, high] = readResetBounds(opts.options, this.resetLow, this.resetHigh);
    this.position = this.rng.uniform(low, high);
    this.velocity = 0;
    this.stateIsF32 = false;
    this.writeObs();
    return { observation: this.obs, info: EMPTY_INFO };
  }

  step(action: Float64Array): StepResult<Float64Array> {
    const a = f(action[0] as number); // the env receives a float32 array
    const p: Tagged = { v: this.position, f32: this.stateIsF32 };
    const v: Tagged = { v: this.velocity, f32: this.stateIsF32 };

    // force = min(max(A, -1.0), 1.0) with Python's tie rules; a clipped value becomes a Python float.
    const force: Tagged = -1.0 > a ? { v: -1.0, f32: false } : { v: a, f32: true };
    if (1.0 < force.v) {
      force.v = 1.0;
      force.f32 = false;
    }
    const t1: Tagged = force.f32 ? { v: f(force.v * f(POWER)), f32: true } : { v: force.v * POWER, f32: false };
    const t2 = 0.0025 * Math.cos(p.f32 ? f(3 * p.v) : 3 * p.v);
    const dv: Tagged = t1.f32 ? { v: f(t1.v - f(t2)), f32: true } : { v: t1.v - t2, f32: false };
    if (v.f32) v.v = f(v.v + (dv.f32 ? dv.v : f(dv.v)));
    else v.v = v.v + dv.v;

    if (v.f32 ? v.v > f(MAX_SPEED) : v.v > MAX_SPEED) setPy(v, MAX_SPEED);
    if (v.f32 ? v.v < f(-MAX_SPEED) : v.v < -MAX_SPEED) setPy(v, -MAX_SPEED);
    if (p.f32) p.v = f(p.v + (v.f32 ? v.v : f(v.v)));
    else p.v = p.v + v.v;
    if (p.f32 ? p.v > f(MAX_POSITION) : p.v > MAX_POSITION) setPy(p, MAX_POSITION);
    if (p.f32 ? p.v < f(MIN_POSITION) : p.v < MIN_POSITION) setPy(p, MIN_POSITION);
    if ((p.f32 ? p.v === f(MIN_POSITION) : p.v === MIN_POSITION) && v.v < 0) setPy(v, 0);

    const goal = MOUNTAIN_CAR_CONTINUOUS_GOAL;
    const terminated = (p.f32 ? p.v >= f(goal) : p.v >= goal) && (v.f32 ? v.v >= f(this.goalVelocity) : v.v >= this.goalVelocity);
    // The reward uses the unclipped action; a*a is exact for a float32 operand, as glibc pow is.
    const reward = (terminated ? 100.0 : 0) - a * a * 0.1;

    this.position = f(p.v);
    this.velocity = f(v.v);
    this.stateIsF32 = true;
    this.writeObs();
    const r = this.result;
    r.reward = reward;
    r.terminated = terminated;
    r.truncated = false;
    return r;
  }

  private writeObs(): void {
    this.obs[0] = f(this.position);
    this.obs[1] = f(this.velocity);
  }

  getState(): MountainCarContinuousState {
    return { position: this.position, velocity: this.velocity, float32: this.stateIsF32 };
  }

  setState(state: unknown): void {
    const s = state as Partial<MountainCarContinuousState> | number[];
    if (Array.isArray(s) && s.length === 2 && s.every((x) => typeof x === 'number')) {
      // A bare array is a float64 state, as right after reset.
      [this.position, this.velocity] = s as [number, number];
      this.stateIsF32 = false;
    } else if (s && !Array.isArray(s) && typeof s.position === 'number' && typeof s.velocity === 'number') {
      this.position = s.position;
      this.velocity = s.velocity;
      this.stateIsF32 = s.float32 === true;
    } else {
      throw new TypeError(`MountainCarContinuous state must be {position, velocity, float32} or [position, velocity], got ${JSON.stringify(state)}`);
    }
    this.writeObs();
  }

  snapshot(): { position: number; goal: number } {
    return { position: this.position, goal: MOUNTAIN_CAR_CONTINUOUS_GOAL };
  }
}

function setPy(t: Tagged, value: number): void {
  t.v = value;
  t.f32 = false;
}
