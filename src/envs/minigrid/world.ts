/**
 * The MiniGrid world store: the padded cell grid, the object columns, the agent's pose and what
 * it carries, with the access and allocation rules. Apart from `minigridEnv.ts` (actions,
 * observation, generation helpers) so the data layout and its invariants live in one place.
 *
 * Speed: the world is a padded Int32Array of object ids (0 = empty cell) and the objects are
 * columns of typed arrays, so `step` allocates nothing. The padding (walls, as MiniGrid's
 * out-of-grid cells appear) lets the 7×7 view be cut without bounds checks.
 */
import { COLOR, OBJECT, STATE, VIEW_SIZE, WALL_ID } from './constants';
import { viewOffsetTable } from './view';

/** Cells of padding around the world: the view reaches 6 cells ahead and 3 to each side. */
const PAD: number = VIEW_SIZE;

// Module-local copies: imported bindings can compile to getters, which the hot path cannot afford.
const T_WALL: number = OBJECT.wall;
const T_DOOR: number = OBJECT.door;
const T_GOAL: number = OBJECT.goal;
const T_LAVA: number = OBJECT.lava;
const T_FLOOR: number = OBJECT.floor;
const S_OPEN: number = STATE.open;

export abstract class MiniGridWorld {
  // World (read-only from outside; written by generation, `step` and `setState`).
  width = 0;
  height = 0;
  stride = 0;
  cells = new Int32Array(0);
  private blankCells = new Int32Array(0);

  // Objects, one column per field, indexed by object id (0 = no object).
  objType = new Uint8Array(64);
  objColor = new Uint8Array(64);
  objState = new Uint8Array(64);
  objContains = new Int32Array(64);
  /** Packed encoding type | color << 8 | state << 16 (id 0 = empty, 1,0,0), kept in step with the columns above. */
  protected objEnc = new Int32Array(64);
  /** 1 when the object does not block sight (MiniGrid's see_behind). */
  protected objClear = new Uint8Array(64);
  objCount = 2;

  agentX = -1;
  agentY = -1;
  agentDir = 0;
  carrying = 0;
  stepCount = 0;
  mission = '';
  /** The object that must be picked up or the door that must be opened (0 for goal tasks). */
  targetId = 0;

  /** For each direction, offset from the agent cell to each view cell (see view.ts). */
  protected viewOffsets = new Int32Array(0);
  /** False while nothing the agent sees has changed since the view was computed. */
  protected viewDirty = true;

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

  /** Grid.encode() of the cell at (x, y), packed as type | color << 8 | state << 16 (an empty cell: 1). */
  encodingAt(x: number, y: number): number {
    return this.objEnc[this.get(x, y)]!;
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

  /** Resizes the world (setState may load a recorded world of another size). */
  allocateGrid(width: number, height: number): void {
    this.width = width;
    this.height = height;
    this.stride = width + 2 * PAD;
    this.cells = new Int32Array(this.stride * (height + 2 * PAD));
    // An empty world framed by the wall padding, copied in on every reset.
    this.blankCells = new Int32Array(this.cells.length).fill(WALL_ID);
    for (let y = 0; y < height; y++) this.blankCells.fill(0, this.index(0, y), this.index(width, y));
    this.viewOffsets = viewOffsetTable(this.stride);
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

  protected refreshEncoding(id: number): void {
    const t = this.objType[id]!;
    const st = this.objState[id]!;
    this.objEnc[id] = t | (this.objColor[id]! << 8) | (st << 16);
    this.objClear[id] = t === T_WALL || (t === T_DOOR && st !== S_OPEN) ? 0 : 1;
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
