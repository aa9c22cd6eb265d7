/**
 * The MiniGrid core (docs/environments.md §7): world grid, objects, the 7 actions, the
 * egocentric 7×7×3 observation with occlusion, the success reward and internal truncation.
 * Each environment subclasses this and implements `generate()` (MiniGrid's `_gen_grid`) with
 * the helpers below, which keep MiniGrid's RNG call order.
 *
 * Speed: the world is a padded Int32Array of object ids (0 = empty cell) and the objects are
 * columns of typed arrays, so `step` allocates nothing. The padding (walls, as MiniGrid's
 * out-of-grid cells appear) lets the 7×7 view be cut without bounds checks.
 */
import { Dict, Discrete, Box, Text, type Space } from '../core/spaces';
import { EMPTY_INFO, type Env, type ResetOptions, type ResetResult, type StepResult } from '../core/env';
import { Rng } from '../core/rng';
import { COLOR, COLOR_NAMES, DIR_DX, DIR_DY, OBJECT, STATE, VIEW_SIZE, WALL_ID, type ColorName } from './constants';
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

/** Cells of padding around the world: the view reaches 6 cells ahead and 3 to each side. */
const PAD: number = VIEW_SIZE;
const VIEW_CELLS = VIEW_SIZE * VIEW_SIZE;

// Module-local copies: imported bindings can compile to getters, which the hot path cannot afford.
const VS = VIEW_SIZE;
const T_WALL: number = OBJECT.wall;
const T_DOOR: number = OBJECT.door;
const T_KEY: number = OBJECT.key;
const T_BALL: number = OBJECT.ball;
const T_BOX: number = OBJECT.box;
const T_GOAL: number = OBJECT.goal;
const T_LAVA: number = OBJECT.lava;
const T_FLOOR: number = OBJECT.floor;
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

export abstract class MiniGridEnv implements Env<MiniGridObservation, number> {
  readonly observationSpace: Space<MiniGridObservation> = new Dict({
    direction: new Discrete(4),
    image: new Box<Uint8Array>(0, 255, [VS, VS, 3], 'uint8'),
    mission: new Text(256, 1),
  }) as unknown as Space<MiniGridObservation>;
  readonly actionSpace = new Discrete(7);

  // World (read-only from outside; written by generation, `step` and `setState`).
  width = 0;
  height = 0;
  stride = 0;
  cells = new Int32Array(0);
  private blankCells = new Int32Array(0);
  maxSteps: number;
  seeThroughWalls: boolean;
  readonly taskKind: TaskKind;

  // Objects, one column per field, indexed by object id (0 = no object).
  objType = new Uint8Array(64);
  objColor = new Uint8Array(64);
  objState = new Uint8Array(64);
  objContains = new Int32Array(64);
  /** Packed encoding type | color << 8 | state << 16 (id 0 = empty, 1,0,0), kept in step with the columns above. */
  private objEnc = new Int32Array(64);
  /** 1 when the object does not block sight (MiniGrid's see_behind). */
  private objClear = new Uint8Array(64);
  objCount = 2;

  agentX = -1;
  agentY = -1;
  agentDir = 0;
  carrying = 0;
  stepCount = 0;
  mission = '';
  /** The object that must be picked up or the door that must be opened (0 for goal tasks). */
  targetId = 0;

  readonly rng = new Rng(0);

  private viewOffsets = new Int32Array(4 * VIEW_CELLS);
  private readonly viewIds = new Int32Array(VIEW_CELLS);
  /** Visibility of each view cell after the last observation, index i*7+j. */
  readonly viewMask = new Uint8Array(VIEW_CELLS);
  /** The view as last computed; one spare byte so each cell is one 4-byte little-endian write. */
  private readonly viewBuffer = new ArrayBuffer(VIEW_CELLS * 3 + 1);
  private readonly view = new DataView(this.viewBuffer);
  private readonly viewBytes = new Uint8Array(this.viewBuffer, 0, VIEW_CELLS * 3);
  /** Visibility per view row j as 7 bits (bit i = column i). */
  private readonly viewRows = new Int32Array(VS);
  /** False while nothing the agent sees has changed since the view was computed. */
  protected viewDirty = true;
  /** The image handed out; refreshed from the view on every step so callers may scribble on it. */
  private readonly image = new Uint8Array(VIEW_CELLS * 3);
  private readonly obs: MiniGridObservation = { image: this.image, direction: 0, mission: '' };
  private readonly result: StepResult<MiniGridObservation> = { observation: this.obs, reward: 0, terminated: false, truncated: false, info: EMPTY_INFO };

  constructor(config: MiniGridConfig) {
    this.maxSteps = config.maxSteps;
    this.seeThroughWalls = config.seeThroughWalls;
    this.taskKind = config.task;
    this.allocateGrid(config.width, config.height);
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

  renderText(): string {
    return renderWorldText(this);
  }

  // ---- world access -------------------------------------------------------------------------

  index(x: number, y: number): number {
    return (y + PAD) * this.stride + x + PAD;
  }

  agentIndex(): number {
    return (this.agentY + PAD) * this.stride + this.agentX + PAD;
  }

  /** Object id at (x, y); 0 when empty. Outside the grid: the wall id. */
  get(x: number, y: number): number {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return WALL_ID;
    return this.cells[this.index(x, y)]!;
  }

  set(x: number, y: number, id: number): void {
    this.cells[this.index(x, y)] = id;
  }

  newObject(type: number, color: number, state = 0, contains = 0): number {
    if (this.objCount >= this.objType.length) this.growObjects();
    const id = this.objCount++;
    this.objType[id] = type;
    this.objColor[id] = color;
    this.objState[id] = state;
    this.objContains[id] = contains;
    this.refreshEncoding(id);
    return id;
  }

  /** Changes an object's colour or door state after creation (GoToRedBallGrey greys its distractors). */
  restyle(id: number, color: number, state = this.objState[id]!): void {
    this.objColor[id] = color;
    this.objState[id] = state;
    this.refreshEncoding(id);
    this.viewDirty = true;
  }

  canOverlap(id: number): boolean {
    const t = this.objType[id]!;
    return t === T_GOAL || t === T_LAVA || t === T_FLOOR || (t === T_DOOR && this.objState[id] === S_OPEN);
  }

  successReward(): number {
    return 1 - 0.9 * (this.stepCount / this.maxSteps);
  }

  /** Resizes the world (setState may load a recorded world of another size). */
  allocateGrid(width: number, height: number): void {
    this.width = width;
    this.height = height;
    this.stride = width + 2 * PAD;
    this.cells = new Int32Array(this.stride * (height + 2 * PAD));
    // An empty world framed by the wall padding, copied in on every reset.
    this.blankCells = new Int32Array(this.cells.length).fill(WALL_ID);
    for (let y = 0; y < height; y++) this.blankCells.fill(0, this.index(0, y), this.index(width, y));
    const off = new Int32Array(4 * VIEW_CELLS);
    for (let d = 0; d < 4; d++) {
      const dx = DX[d]!;
      const dy = DY[d]!;
      const fwd = dx + dy * this.stride;
      const right = -dy + dx * this.stride;
      for (let i = 0; i < VS; i++) {
        for (let j = 0; j < VS; j++) off[d * VIEW_CELLS + i * VS + j] = fwd * (VS - 1 - j) + right * (i - 3);
      }
    }
    this.viewOffsets = off;
    this.clearWorld(width, height);
  }

  /** Empties the grid (padding = walls), forgets every object but the shared wall. */
  clearWorld(width: number, height: number): void {
    if (width !== this.width || height !== this.height) {
      this.allocateGrid(width, height);
      return;
    }
    this.cells.set(this.blankCells);
    this.objCount = 2;
    this.objType[WALL_ID] = T_WALL;
    this.objColor[WALL_ID] = COLOR.grey;
    this.objState[WALL_ID] = 0;
    this.objContains[WALL_ID] = 0;
    this.objEnc[0] = 1;
    this.objClear[0] = 1;
    this.refreshEncoding(WALL_ID);
    this.viewDirty = true;
    this.agentX = -1;
    this.agentY = -1;
    this.agentDir = 0;
    this.carrying = 0;
    this.targetId = 0;
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

  private refreshEncoding(id: number): void {
    const t = this.objType[id]!;
    const st = this.objState[id]!;
    this.objEnc[id] = t | (this.objColor[id]! << 8) | (st << 16);
    this.objClear[id] = t === T_WALL || (t === T_DOOR && st !== S_OPEN) ? 0 : 1;
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

  private growObjects(): void {
    const n = this.objType.length * 2;
    const grow8 = (a: Uint8Array): Uint8Array<ArrayBuffer> => {
      const b = new Uint8Array(n);
      b.set(a);
      return b;
    };
    this.objType = grow8(this.objType);
    this.objColor = grow8(this.objColor);
    this.objState = grow8(this.objState);
    const c = new Int32Array(n);
    c.set(this.objContains);
    this.objContains = c;
    const e = new Int32Array(n);
    e.set(this.objEnc);
    this.objEnc = e;
    this.objClear = grow8(this.objClear);
  }
}

/**
 * The view computation as a free function over typed arrays with literal sizes (V = 7): the
 * form V8 optimizes best. Cells are indexed i*7+j (i = view x, j = view y); the agent's cell
 * is 27 = (3, 6). Visibility is MiniGrid's process_vis done on 7-bit rows (bit i = column i).
 */
function computeView(
  cells: Int32Array,
  off: Int32Array,
  base: number,
  d0: number,
  objClear: Uint8Array,
  enc: Int32Array,
  seeThroughWalls: boolean,
  carrying: number,
  ids: Int32Array,
  rows: Int32Array,
  mask: Uint8Array,
  view: DataView,
): void {
  // Row j = 6 (the agent's) first; each row's visibility seeds the row beyond it.
  let seed = 1 << 3;
  for (let j = 6; j >= 0; j--) {
    let cl = 0;
    for (let i = 0, c = j; i < 7; i++, c += 7) {
      const id = cells[base + off[d0 + c]!]!;
      ids[c] = id;
      cl |= objClear[id]! << i;
    }
    if (seeThroughWalls) {
      rows[j] = 0x7f;
    } else {
      const r = visRow(seed, cl);
      rows[j] = r & 0x7f;
      seed = r >> 8;
    }
  }
  // The agent sees what it carries in its own cell; the agent itself is never drawn.
  ids[27] = carrying;
  for (let i = 0, c = 0, o = 0; i < 7; i++) {
    for (let j = 0; j < 7; j++, c++, o += 3) {
      const visible = (rows[j]! >> i) & 1;
      mask[c] = visible;
      view.setUint32(o, visible === 0 ? 0 : enc[ids[c]!]!, true);
    }
  }
}

/**
 * One row of process_vis. `m` = cells of row j already visible, `cl` = cells that do not block
 * sight. Left-to-right pass then right-to-left pass, each spreading along the row through
 * see-through cells and into the next row (same and neighbouring column). Returns the row's
 * visibility in bits 0-6 and the seed of row j-1 in bits 8-14.
 */
function visRow(m: number, cl: number): number {
  for (let i = 0; i < 6; i++) m |= (((m & cl) >> i) & 1) << (i + 1);
  let a = m & cl & 0x3f;
  let next = a | (a << 1);
  for (let i = 6; i > 0; i--) m |= (((m & cl) >> i) & 1) << (i - 1);
  a = m & cl & 0x7e;
  next |= a | (a >> 1);
  return m | ((next & 0x7f) << 8);
}
