/** MountainCar-v0 exactly as Gymnasium 1.4 (docs/environments.md §2). */
import { Box, Discrete } from '../core/spaces';
import { EMPTY_INFO, type Env, type ResetOptions, type ResetResult, type StepResult } from '../core/env';
import { Rng } from '../core/rng';
import { readFloatArray, readResetBounds } from './stateIO';

const MIN_POSITION = -1.2;
const MAX_POSITION = 0.6;
const MAX_SPEED = 0.07;
const FORCE = 0.001;
const GRAVITY = 0.0025;
export const MOUNTAIN_CAR_GOAL = 0.5;

export class MountainCarEnv implements Env<Float64Array, number> {
  readonly observationSpace = new Box([MIN_POSITION, -MAX_SPEED], [MAX_POSITION, MAX_SPEED], [2], 'float32');
  readonly actionSpace = new Discrete(3);
  private position = 0;
  private velocity = 0;
  private readonly rng = new Rng(0);
  private readonly obs = new Float64Array(2);
  private readonly result: StepResult<Float64Array> = { observation: this.obs, reward: -1, terminated: false, truncated: false, info: EMPTY_INFO };

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
    this.writeObs();
    return { observation: this.obs, info: EMPTY_INFO };
  }

  step(action: number): StepResult<Float64Array> {
    let v = this.velocity + ((action - 1) * FORCE + Math.cos(3 * this.position) * -GRAVITY);
    v = v < -MAX_SPEED ? -MAX_SPEED : v > MAX_SPEED ? MAX_SPEED : v;
    let p = this.position + v;
    p = p < MIN_POSITION ? MIN_POSITION : p > MAX_POSITION ? MAX_POSITION : p;
    if (p === MIN_POSITION && v < 0) v = 0;
    this.position = p;
    this.velocity = v;
    this.writeObs();
    const r = this.result;
    r.terminated = p >= MOUNTAIN_CAR_GOAL && v >= this.goalVelocity;
    r.reward = -1.0;
    r.truncated = false;
    return r;
  }

  private writeObs(): void {
    this.obs[0] = Math.fround(this.position);
    this.obs[1] = Math.fround(this.velocity);
  }

  getState(): number[] {
    return [this.position, this.velocity];
  }

  setState(state: unknown): void {
    [this.position, this.velocity] = readFloatArray('MountainCar', state, 2);
    this.writeObs();
  }

  snapshot(): { position: number; goal: number } {
    return { position: this.position, goal: MOUNTAIN_CAR_GOAL };
  }
}
