/**
 * The MiniGrid core (docs/environments.md §7): world grid, objects, the 7 actions, the
 * egocentric 7×7×3 observation with occlusion, the success reward and internal truncation.
 * Each environment subclasses this and implements `generate()` (MiniGrid's `_gen_grid`) with
 * the helpers below, which keep MiniGrid's RNG call order. The grid and object store is
 * `world.ts` (the base class), the visibility computation `view.ts`.
 */
import { Dict, Discrete, Box, Text, type Space } from '../core/spaces';
import { EMPTY_INFO, type Env, type ResetOptions, type ResetResult, type StepResult } from '../core/env';
import { Rng } from '../core/rng';
import { COLOR, COLOR_NAMES, DIR_DX, DIR_DY, OBJECT, STATE, VIEW_SIZE, WALL_ID, type ColorName } from './constants';
import { computeView, VIEW_CELLS } from './view';
import { MiniGridDeltaRecorder } from './trajectoryDelta';
import { MiniGridWorld } from './world';
import { loadWorldState, saveWorldState, worldSnapshot, renderWorldText, type MiniGridSnapshot, type MiniGridState } from './worldState';

export interface MiniGridObservation {
  image: Uint8Array;
  direction: number;
  mission: string;
}

/**
 * How an episode is won: reaching a goal tile, picking up one specific object, opening one
 * specific door, or (BabyAI) whatever the level's instruction verifier decides.
 */
export type TaskKind = 'goal' | 'pickup' | 'open_door' | 'babyai';

export interface MiniGridConfig {
  width: number;
  height: number;
  maxSteps: number;
  seeThroughWalls: boolean;
  task: TaskKind;
}

// Module-local copies: imported bindings can compile to getters, which the hot path cannot afford.
const VS = VIEW_SIZE;
const T_DOOR: number = OBJECT.door;
const T_KEY: number = OBJECT.key;
const T_BALL: number = OBJECT.ball;
const T_BOX: number = OBJECT.box;
const T_GOAL: number = OBJECT.goal;
const T_LAVA: number = OBJECT.lava;
const S_OPEN: number = STATE.open;
const S_CLOSED: number = STATE.closed;
const S_LOCKED: number = STATE.locked;
const DX: readonly number[] = [...DIR_DX];
const DY: readonly number[] = [...DIR_DY];

export class InvalidActionError extends RangeError {
  override name = 'InvalidActionError';
}

/** A generator gave up on a layout (MiniGrid's RecursionError / RejectSampling); levels that retry catch it. */
export class RejectSamplingError extends Error {
  override name = 'RejectSamplingError';
}

export abstract class MiniGridEnv extends MiniGridWorld implements Env<MiniGridObservation, number> {
  readonly observationSpace: Space<MiniGridObservation> = new Dict({
    direction: new Discrete(4),
    image: new Box<Uint8Array>(0, 255, [VS, VS, 3], 'uint8'),
    mission: new Text(256, 1),
  }) as unknown as Space<MiniGridObservation>;
  readonly actionSpace = new Discrete(7);

  maxSteps: number;
  seeThroughWalls: boolean;
  readonly taskKind: TaskKind;

  readonly rng = new Rng(0);

  private readonly viewIds = new Int32Array(VIEW_CELLS);
  /** Visibility of each view cell after the last observation, index i*7+j. */
  readonly viewMask = new Uint8Array(VIEW_CELLS);
  /** The view as last computed; one spare byte so each cell is one 4-byte little-endian write. */
  private readonly viewBuffer = new ArrayBuffer(VIEW_CELLS * 3 + 1);
  private readonly view = new DataView(this.viewBuffer);
  private readonly viewBytes = new Uint8Array(this.viewBuffer, 0, VIEW_CELLS * 3);
  /** Visibility per view row j as 7 bits (bit i = column i). */
  private readonly viewRows = new Int32Array(VS);
  /** The image handed out; refreshed from the view on every step so callers may scribble on it. */
  private readonly image = new Uint8Array(VIEW_CELLS * 3);
  private readonly obs: MiniGridObservation = { image: this.image, direction: 0, mission: '' };
  private readonly result: StepResult<MiniGridObservation> = { observation: this.obs, reward: 0, terminated: false, truncated: false, info: EMPTY_INFO };

  constructor(config: MiniGridConfig) {
    super();
    this.maxSteps = config.maxSteps;
    this.seeThroughWalls = config.seeThroughWalls;
    this.taskKind = config.task;
    this.allocateGrid(config.width, config.height);
  }

  /** `max_steps` of the episode just reset (the reward formula divides by it). */
  stepLimit(): number {
    return this.maxSteps;
  }

  /** MiniGrid's `_gen_grid`: build the world with the helpers below, set `mission` (and `targetId`). */
  protected abstract generate(): void;

  reset(opts: ResetOptions = {}): ResetResult<MiniGridObservation> {
    if (opts.seed !== undefined) this.rng.reseed(opts.seed);
    this.clearWorld(this.width, this.height);
    this.generate();
    this.stepCount = 0;
    this.carrying = 0;
    this.viewDirty = true;
    this.writeObservation();
    return { observation: this.obs, info: EMPTY_INFO };
  }

  step(action: number): StepResult<MiniGridObservation> {
    this.stepCount++;
    let reward = 0;
    let terminated = false;
    const fwd = this.agentIndex() + DX[this.agentDir]! + DY[this.agentDir]! * this.stride;
    const cells = this.cells;
    const id = cells[fwd]!;
    const type = this.objType[id]!;
    switch (action) {
      case 0:
        this.agentDir = (this.agentDir + 3) & 3;
        this.viewDirty = true;
        break;
      case 1:
        this.agentDir = (this.agentDir + 1) & 3;
        this.viewDirty = true;
        break;
      case 2:
        if (id === 0 || this.canOverlap(id)) {
          this.agentX += DX[this.agentDir]!;
          this.agentY += DY[this.agentDir]!;
          this.viewDirty = true;
        }
        if (id !== 0 && type === T_GOAL) {
          terminated = true;
          reward = this.successReward();
        }
        if (id !== 0 && type === T_LAVA) terminated = true;
        break;
      case 3:
        if (id !== 0 && (type === T_KEY || type === T_BALL || type === T_BOX) && this.carrying === 0) {
          this.carrying = id;
          cells[fwd] = 0;
          this.viewDirty = true;
        }
        break;
      case 4:
        if (id === 0 && this.carrying !== 0) {
          cells[fwd] = this.carrying;
          this.carrying = 0;
          this.viewDirty = true;
        }
        break;
      case 5:
        if (id !== 0) this.toggle(id, fwd);
        break;
      case 6:
        break;
      default:
        throw new InvalidActionError(`MiniGrid action must be an integer 0..6 (left, right, forward, pickup, drop, toggle, done), got ${String(action)}`);
    }
    // The task-specific success checks of KeyCorridor, ObstructedMaze, Unlock and the pickup envs.
    if (this.taskKind === 'pickup') {
      if (action === 3 && this.carrying !== 0 && this.carrying === this.targetId) {
        reward = this.successReward();
        terminated = true;
      }
    } else if (this.taskKind === 'open_door') {
      if (action === 5 && this.targetId !== 0 && this.objState[this.targetId] === S_OPEN) {
        reward = this.successReward();
        terminated = true;
      }
    }
    this.writeObservation();
    const r = this.result;
    r.reward = reward;
    r.terminated = terminated;
    r.truncated = this.stepCount >= this.maxSteps;
    return r;
  }

  getState(): MiniGridState {
    return saveWorldState(this);
  }

  setState(state: unknown): void {
    loadWorldState(this, state);
    this.viewDirty = true;
    this.writeObservation();
  }

  /** The observation for the current world (after `setState`, for example). */
  currentObservation(): MiniGridObservation {
    return this.obs;
  }

  snapshot(): MiniGridSnapshot {
    return worldSnapshot(this);
  }

  /** Trajectories record the world once and then each step's changes (the sandbox asks for this). */
  deltaRecorder(): MiniGridDeltaRecorder {
    return new MiniGridDeltaRecorder(this);
  }

  renderText(): string {
    return renderWorldText(this);
  }

  successReward(): number {
    return 1 - 0.9 * (this.stepCount / this.maxSteps);
  }

  // ---- generation helpers (MiniGridEnv / Grid methods, same RNG order) ------------------------

  protected randInt(low: number, high: number): number {
    return this.rng.integers(low, high);
  }

  protected randElem<T>(items: readonly T[]): T {
    return items[this.randInt(0, items.length)] as T;
  }

  protected randBool(): boolean {
    return this.randInt(0, 2) === 0;
  }

  /** `_rand_color()`: a colour index drawn from the alphabetical COLOR_NAMES. */
  protected randColor(): number {
    return COLOR[this.randElem(COLOR_NAMES)];
  }

  /** `_rand_subset`: `n` elements one at a time without replacement. */
  protected randSubset<T>(items: readonly T[], n: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < n) {
      const k = this.randInt(0, pool.length);
      out.push(pool[k] as T);
      pool.splice(k, 1);
    }
    return out;
  }

  protected colorIndex(name: ColorName): number {
    return COLOR[name];
  }

  horzWall(x: number, y: number, length = this.width - x, id = WALL_ID): void {
    for (let i = 0; i < length; i++) this.set(x + i, y, id);
  }

  vertWall(x: number, y: number, length = this.height - y, id = WALL_ID): void {
    for (let j = 0; j < length; j++) this.set(x, y + j, id);
  }

  wallRect(x: number, y: number, w: number, h: number): void {
    this.horzWall(x, y, w);
    this.horzWall(x, y + h - 1, w);
    this.vertWall(x, y, h);
    this.vertWall(x + w - 1, y, h);
  }

  /** The room Empty, LavaGap and the crossings start from: the outer wall and a green goal in the bottom-right corner. */
  walledRoomWithCornerGoal(): void {
    this.wallRect(0, 0, this.width, this.height);
    this.set(this.width - 2, this.height - 2, this.newObject(OBJECT.goal, COLOR.green));
  }

  /** Their fixed start: (1, 1) facing east. */
  startTopLeftFacingEast(): void {
    this.agentX = 1;
    this.agentY = 1;
    this.agentDir = 0;
  }

  /**
   * `place_obj`: rejection-samples x then y in the rectangle (clipped to the grid); refuses
   * occupied cells, the agent's cell and cells `reject` refuses. Returns the cell.
   */
  placeObj(id: number, top: readonly [number, number] = [0, 0], size: readonly [number, number] = [this.width, this.height], reject?: (x: number, y: number) => boolean, maxTries = Infinity): [number, number] {
    const tx = Math.max(top[0], 0);
    const ty = Math.max(top[1], 0);
    const xHi = Math.min(tx + size[0], this.width);
    const yHi = Math.min(ty + size[1], this.height);
    let tries = 0;
    for (;;) {
      if (tries > maxTries) throw new RejectSamplingError('rejection sampling failed in place_obj');
      tries++;
      const x = this.randInt(tx, xHi);
      const y = this.randInt(ty, yHi);
      if (this.cells[this.index(x, y)] !== 0) continue;
      if (x === this.agentX && y === this.agentY) continue;
      if (reject && reject(x, y)) continue;
      if (id !== 0) this.set(x, y, id);
      return [x, y];
    }
  }

  /** `place_agent`: a free cell for the agent (never its current one), then a random direction. */
  placeAgent(top: readonly [number, number] = [0, 0], size: readonly [number, number] = [this.width, this.height], randDir = true, maxTries = Infinity): [number, number] {
    this.agentX = -1;
    this.agentY = -1;
    const [x, y] = this.placeObj(0, top, size, undefined, maxTries);
    this.agentX = x;
    this.agentY = y;
    if (randDir) this.agentDir = this.randInt(0, 4);
    return [x, y];
  }

  // ---- internals ------------------------------------------------------------------------------

  private toggle(id: number, cell: number): void {
    const type = this.objType[id]!;
    if (type === T_DOOR) {
      const s = this.objState[id]!;
      if (s === S_LOCKED) {
        const c = this.carrying;
        if (c !== 0 && this.objType[c] === T_KEY && this.objColor[c] === this.objColor[id]) this.objState[id] = S_OPEN;
      } else {
        this.objState[id] = s === S_OPEN ? S_CLOSED : S_OPEN;
      }
      this.refreshEncoding(id);
      this.viewDirty = true;
    } else if (type === T_BOX) {
      // The box is replaced by its content (possibly nothing).
      this.cells[cell] = this.objContains[id]!;
      this.viewDirty = true;
    }
  }

  private writeObservation(): void {
    if (this.viewDirty) this.computeView();
    this.image.set(this.viewBytes);
    this.obs.direction = this.agentDir;
    this.obs.mission = this.mission;
  }

  /** gen_obs: cut the rotated 7×7 window, MiniGrid's process_vis, carried object in the agent's cell, encode. */
  private computeView(): void {
    this.viewDirty = false;
    computeView(this.cells, this.viewOffsets, this.agentIndex(), this.agentDir * VIEW_CELLS, this.objClear, this.objEnc, this.seeThroughWalls, this.carrying, this.viewIds, this.viewRows, this.viewMask, this.view);
  }
}
