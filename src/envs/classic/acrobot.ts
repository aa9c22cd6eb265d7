/** Acrobot-v1 ("book" dynamics, RK4) exactly as Gymnasium 1.4 (docs/environments.md §6). */
import { Box, Discrete } from '../core/spaces';
import { EMPTY_INFO, type Env, type ResetOptions, type ResetResult, type StepResult } from '../core/env';
import { Rng } from '../core/rng';
import { bound, readFloatArray, readResetBounds } from './stateIO';

const DT = 0.2;
const L1 = 1.0;
const M1 = 1.0;
const M2 = 1.0;
const LC1 = 0.5;
const LC2 = 0.5;
const I1 = 1.0;
const I2 = 1.0;
const G = 9.8;
const MAX_VEL_1 = 4 * Math.PI;
const MAX_VEL_2 = 9 * Math.PI;
const AVAIL_TORQUE = [-1.0, 0.0, 1.0] as const;

export class AcrobotEnv implements Env<Float64Array, number> {
  readonly observationSpace = new Box([-1, -1, -1, -1, -MAX_VEL_1, -MAX_VEL_2], [1, 1, 1, 1, MAX_VEL_1, MAX_VEL_2], [6], 'float32');
  readonly actionSpace = new Discrete(3);
  private readonly s = new Float64Array(4);
  private readonly rng = new Rng(0);
  private readonly obs = new Float64Array(6);
  private readonly result: StepResult<Float64Array> = { observation: this.obs, reward: -1, terminated: false, truncated: false, info: EMPTY_INFO };
  // RK4 scratch, reused across steps.
  private readonly k1 = new Float64Array(4);
  private readonly k2 = new Float64Array(4);
  private readonly k3 = new Float64Array(4);
  private readonly k4 = new Float64Array(4);
  private readonly tmp = new Float64Array(4);

  constructor(
    private readonly book = true,
    /** Half-width of the uniform initial state (Gymnasium's default reset range, ±0.1). */
    private readonly resetBound = 0.1,
  ) {}

  reset(opts: ResetOptions = {}): ResetResult<Float64Array> {
    if (opts.seed !== undefined) this.rng.reseed(opts.seed);
    const [low, high] = readResetBounds(opts.options, -this.resetBound, this.resetBound);
    // Gymnasium stores the reset state as float32.
    for (let i = 0; i < 4; i++) this.s[i] = Math.fround(this.rng.uniform(low, high));
    this.writeObs();
    return { observation: this.obs, info: EMPTY_INFO };
  }

  step(action: number): StepResult<Float64Array> {
    const torque = AVAIL_TORQUE[action] as number;
    const y0 = this.s;
    const { k1, k2, k3, k4, tmp } = this;
    const dt2 = DT / 2.0;
    this.derivs(y0, torque, k1);
    for (let i = 0; i < 4; i++) tmp[i] = (y0[i] as number) + dt2 * (k1[i] as number);
    this.derivs(tmp, torque, k2);
    for (let i = 0; i < 4; i++) tmp[i] = (y0[i] as number) + dt2 * (k2[i] as number);
    this.derivs(tmp, torque, k3);
    for (let i = 0; i < 4; i++) tmp[i] = (y0[i] as number) + DT * (k3[i] as number);
    this.derivs(tmp, torque, k4);
    const y = tmp;
    for (let i = 0; i < 4; i++) {
      y[i] = (y0[i] as number) + (DT / 6.0) * ((k1[i] as number) + 2 * (k2[i] as number) + 2 * (k3[i] as number) + (k4[i] as number));
    }
    const s = this.s;
    s[0] = wrap(y[0] as number);
    s[1] = wrap(y[1] as number);
    s[2] = bound(y[2] as number, -MAX_VEL_1, MAX_VEL_1);
    s[3] = bound(y[3] as number, -MAX_VEL_2, MAX_VEL_2);
    const terminated = -Math.cos(s[0] as number) - Math.cos((s[1] as number) + (s[0] as number)) > 1.0;
    this.writeObs();
    const r = this.result;
    r.reward = terminated ? 0.0 : -1.0;
    r.terminated = terminated;
    r.truncated = false;
    return r;
  }

  /** The book dynamics; Python's evaluation order is kept term by term. */
  private derivs(st: Float64Array, a: number, out: Float64Array): void {
    const theta1 = st[0] as number;
    const theta2 = st[1] as number;
    const dtheta1 = st[2] as number;
    const dtheta2 = st[3] as number;
    const d1 = M1 * LC1 ** 2 + M2 * (L1 ** 2 + LC2 ** 2 + 2 * L1 * LC2 * Math.cos(theta2)) + I1 + I2;
    const d2 = M2 * (LC2 ** 2 + L1 * LC2 * Math.cos(theta2)) + I2;
    const phi2 = M2 * LC2 * G * Math.cos(theta1 + theta2 - Math.PI / 2.0);
    const phi1 =
      -M2 * L1 * LC2 * dtheta2 ** 2 * Math.sin(theta2) -
      2 * M2 * L1 * LC2 * dtheta2 * dtheta1 * Math.sin(theta2) +
      (M1 * LC1 + M2 * L1) * G * Math.cos(theta1 - Math.PI / 2) +
      phi2;
    const ddtheta2 = this.book
      ? (a + (d2 / d1) * phi1 - M2 * L1 * LC2 * dtheta1 ** 2 * Math.sin(theta2) - phi2) / (M2 * LC2 ** 2 + I2 - d2 ** 2 / d1)
      : (a + (d2 / d1) * phi1 - phi2) / (M2 * LC2 ** 2 + I2 - d2 ** 2 / d1);
    const ddtheta1 = -(d2 * ddtheta2 + phi1) / d1;
    out[0] = dtheta1;
    out[1] = dtheta2;
    out[2] = ddtheta1;
    out[3] = ddtheta2;
  }

  private writeObs(): void {
    const s = this.s;
    const o = this.obs;
    o[0] = Math.fround(Math.cos(s[0] as number));
    o[1] = Math.fround(Math.sin(s[0] as number));
    o[2] = Math.fround(Math.cos(s[1] as number));
    o[3] = Math.fround(Math.sin(s[1] as number));
    o[4] = Math.fround(s[2] as number);
    o[5] = Math.fround(s[3] as number);
  }

  getState(): number[] {
    return Array.from(this.s);
  }

  setState(state: unknown): void {
    this.s.set(readFloatArray('Acrobot', state, 4));
    this.writeObs();
  }

  snapshot(): { theta1: number; theta2: number } {
    return { theta1: this.s[0] as number, theta2: this.s[1] as number };
  }
}

function wrap(x: number): number {
  const m = -Math.PI;
  const M = Math.PI;
  const diff = M - m;
  while (x > M) x = x - diff;
  while (x < m) x = x + diff;
  return x;
}
