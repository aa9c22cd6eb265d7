/** CartPole-v1 exactly as Gymnasium 1.4 (docs/environments.md §1). */
import { Box, Discrete } from '../core/spaces';
import { EMPTY_INFO, type Env, type ResetOptions, type ResetResult, type StepResult } from '../core/env';
import { Rng } from '../core/rng';
import { readFloatArray, readResetBounds } from './stateIO';

const GRAVITY = 9.8;
const MASSPOLE = 0.1;
const TOTAL_MASS = MASSPOLE + 1.0;
const LENGTH = 0.5;
const POLEMASS_LENGTH = MASSPOLE * LENGTH;
const FORCE_MAG = 10.0;
const TAU = 0.02;
const THETA_THRESHOLD = (12 * 2 * Math.PI) / 360;
const X_THRESHOLD = 2.4;

export interface CartPoleParams {
  suttonBartoReward: boolean;
  /** Half-width of the uniform initial state, every component (Gymnasium's default, ±0.05). */
  resetBound?: number;
}

export class CartPoleEnv implements Env<Float64Array, number> {
  readonly observationSpace = new Box(
    [-X_THRESHOLD * 2, -Infinity, -THETA_THRESHOLD * 2, -Infinity],
    [X_THRESHOLD * 2, Infinity, THETA_THRESHOLD * 2, Infinity],
    [4],
    'float32',
  );
  readonly actionSpace = new Discrete(2);

  private x = 0;
  private xDot = 0;
  private theta = 0;
  private thetaDot = 0;
  private readonly rng = new Rng(0);
  private readonly obs = new Float64Array(4);
  private readonly result: StepResult<Float64Array> = { observation: this.obs, reward: 0, terminated: false, truncated: false, info: EMPTY_INFO };

  constructor(private readonly params: CartPoleParams = { suttonBartoReward: false }) {}

  reset(opts: ResetOptions = {}): ResetResult<Float64Array> {
    if (opts.seed !== undefined) this.rng.reseed(opts.seed);
    const bound = this.params.resetBound ?? 0.05;
    const [low, high] = readResetBounds(opts.options, -bound, bound);
    this.x = this.rng.uniform(low, high);
    this.xDot = this.rng.uniform(low, high);
    this.theta = this.rng.uniform(low, high);
    this.thetaDot = this.rng.uniform(low, high);
    this.writeObs();
    return { observation: this.obs, info: EMPTY_INFO };
  }

  step(action: number): StepResult<Float64Array> {
    const force = action === 1 ? FORCE_MAG : -FORCE_MAG;
    const c = Math.cos(this.theta);
    const s = Math.sin(this.theta);
    const temp = (force + POLEMASS_LENGTH * (this.thetaDot * this.thetaDot) * s) / TOTAL_MASS;
    const thetaAcc = (GRAVITY * s - c * temp) / (LENGTH * (4.0 / 3.0 - (MASSPOLE * (c * c)) / TOTAL_MASS));
    const xAcc = temp - (POLEMASS_LENGTH * thetaAcc * c) / TOTAL_MASS;
    // Explicit Euler: positions advance with the old velocities.
    this.x = this.x + TAU * this.xDot;
    this.xDot = this.xDot + TAU * xAcc;
    this.theta = this.theta + TAU * this.thetaDot;
    this.thetaDot = this.thetaDot + TAU * thetaAcc;
    const terminated = this.x < -X_THRESHOLD || this.x > X_THRESHOLD || this.theta < -THETA_THRESHOLD || this.theta > THETA_THRESHOLD;
    this.writeObs();
    const r = this.result;
    r.reward = this.params.suttonBartoReward ? (terminated ? -1.0 : 0.0) : 1.0;
    r.terminated = terminated;
    r.truncated = false;
    return r;
  }

  private writeObs(): void {
    const o = this.obs;
    o[0] = Math.fround(this.x);
    o[1] = Math.fround(this.xDot);
    o[2] = Math.fround(this.theta);
    o[3] = Math.fround(this.thetaDot);
  }

  getState(): number[] {
    return [this.x, this.xDot, this.theta, this.thetaDot];
  }

  setState(state: unknown): void {
    [this.x, this.xDot, this.theta, this.thetaDot] = readFloatArray('CartPole', state, 4);
    this.writeObs();
  }

  snapshot(): { x: number; theta: number } {
    return { x: this.x, theta: this.theta };
  }
}
