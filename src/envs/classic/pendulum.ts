/** Pendulum-v1 exactly as Gymnasium 1.4 under NumPy ≥ 2 promotion (docs/environments.md §5). */
import { Box } from '../core/spaces';
import { EMPTY_INFO, type Env, type ResetOptions, type ResetResult, type StepResult } from '../core/env';
import { Rng } from '../core/rng';
import { pyMod, readFloatArray } from './stateIO';

const f = Math.fround;
const MAX_SPEED = 8;
const MAX_TORQUE = 2.0;
const DT = 0.05;
const M = 1.0;
const L = 1.0;

export class PendulumEnv implements Env<Float64Array, Float64Array> {
  readonly observationSpace = new Box([-1, -1, -MAX_SPEED], [1, 1, MAX_SPEED], [3], 'float32');
  readonly actionSpace = new Box(-MAX_TORQUE, MAX_TORQUE, [1], 'float32');
  private theta = 0;
  private thetaDot = 0;
  private lastU = 0;
  private readonly rng = new Rng(0);
  private readonly obs = new Float64Array(3);
  private readonly result: StepResult<Float64Array> = { observation: this.obs, reward: 0, terminated: false, truncated: false, info: EMPTY_INFO };

  constructor(
    private readonly g = 10.0,
    /** Half-widths of the initial angle and angular velocity (Gymnasium's defaults, π and 1). */
    private readonly xInit = Math.PI,
    private readonly yInit = 1.0,
  ) {}

  reset(opts: ResetOptions = {}): ResetResult<Float64Array> {
    if (opts.seed !== undefined) this.rng.reseed(opts.seed);
    const xInit = readHalfWidth(opts.options, 'x_init', this.xInit);
    const yInit = readHalfWidth(opts.options, 'y_init', this.yInit);
    this.theta = this.rng.uniform(-xInit, xInit);
    this.thetaDot = this.rng.uniform(-yInit, yInit);
    this.lastU = 0;
    this.writeObs();
    return { observation: this.obs, info: EMPTY_INFO };
  }

  step(action: Float64Array): StepResult<Float64Array> {
    const raw = f(action[0] as number);
    const u = f(raw < -MAX_TORQUE ? -MAX_TORQUE : raw > MAX_TORQUE ? MAX_TORQUE : raw);
    this.lastU = u;
    const th = this.theta;
    const thdot = this.thetaDot;
    const an = pyMod(th + Math.PI, 2 * Math.PI) - Math.PI;
    // an**2 and thdot**2 are glibc pow on doubles; 0.001*u**2 is a float32 product (NEP 50).
    const costs = an ** 2 + 0.1 * thdot ** 2 + f(f(0.001) * f(u * u));
    let newThdot = thdot + (((3 * this.g) / (2 * L)) * Math.sin(th) + f((3.0 / (M * L * L)) * u)) * DT;
    newThdot = newThdot < -MAX_SPEED ? -MAX_SPEED : newThdot > MAX_SPEED ? MAX_SPEED : newThdot;
    // Semi-implicit: the angle advances with the new velocity.
    this.theta = th + newThdot * DT;
    this.thetaDot = newThdot;
    this.writeObs();
    const r = this.result;
    r.reward = -costs;
    r.terminated = false;
    r.truncated = false;
    return r;
  }

  private writeObs(): void {
    this.obs[0] = f(Math.cos(this.theta));
    this.obs[1] = f(Math.sin(this.theta));
    this.obs[2] = f(this.thetaDot);
  }

  getState(): number[] {
    return [this.theta, this.thetaDot];
  }

  setState(state: unknown): void {
    [this.theta, this.thetaDot] = readFloatArray('Pendulum', state, 2);
    this.writeObs();
  }

  snapshot(): { theta: number; lastU: number } {
    return { theta: this.theta, lastU: this.lastU };
  }
}

function readHalfWidth(options: Readonly<Record<string, unknown>> | undefined, key: string, fallback: number): number {
  const v = options?.[key] ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`reset option ${key} must be a finite number, got ${JSON.stringify(v)}`);
  return Math.abs(v);
}
