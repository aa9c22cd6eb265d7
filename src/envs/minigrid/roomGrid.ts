/**
 * MiniGrid's RoomGrid base (docs/environments.md §8.9): a grid of square rooms sharing walls,
 * door positions drawn per room, `add_door`, `remove_wall`, `place_in_room` (never next to the
 * agent's current cell), the front-cell rule of `place_agent`, and `connect_all`.
 */
import { COLOR_NAMES, COLOR, DIR_DX, DIR_DY, OBJECT, STATE } from './constants';
import { MiniGridEnv, RejectSamplingError, type TaskKind } from './minigridEnv';

export interface Room {
  readonly top: [number, number];
  readonly size: [number, number];
  /** Per wall (right, down, left, up): door object id, -1 for a removed wall, 0 for none. */
  readonly doors: number[];
  readonly doorPos: ([number, number] | null)[];
  readonly neighbors: (Room | null)[];
  locked: boolean;
  /** Objects placed with add_object / place_in_room (BabyAI's all-unique distractors read them). */
  readonly objs: number[];
}

export interface RoomGridConfig {
  roomSize: number;
  numRows: number;
  numCols: number;
  maxSteps: number;
  task: TaskKind;
}

export abstract class RoomGridEnv extends MiniGridEnv {
  readonly roomSize: number;
  readonly numRows: number;
  readonly numCols: number;
  rooms: Room[][] = [];

  constructor(config: RoomGridConfig) {
    super({
      width: (config.roomSize - 1) * config.numCols + 1,
      height: (config.roomSize - 1) * config.numRows + 1,
      maxSteps: config.maxSteps,
      seeThroughWalls: false,
      task: config.task,
    });
    this.roomSize = config.roomSize;
    this.numRows = config.numRows;
    this.numCols = config.numCols;
  }

  /** RoomGrid._gen_grid: walls, door positions (row-major, right then bottom), agent in the middle room facing east. */
  protected generateRooms(): void {
    const s = this.roomSize;
    this.rooms = [];
    for (let j = 0; j < this.numRows; j++) {
      const row: Room[] = [];
      for (let i = 0; i < this.numCols; i++) {
        const room: Room = { top: [i * (s - 1), j * (s - 1)], size: [s, s], doors: [0, 0, 0, 0], doorPos: [null, null, null, null], neighbors: [null, null, null, null], locked: false, objs: [] };
        row.push(room);
        this.wallRect(room.top[0], room.top[1], s, s);
      }
      this.rooms.push(row);
    }
    for (let j = 0; j < this.numRows; j++) {
      for (let i = 0; i < this.numCols; i++) {
        const room = this.rooms[j]![i]!;
        const xl = room.top[0] + 1;
        const yl = room.top[1] + 1;
        const xm = room.top[0] + s - 1;
        const ym = room.top[1] + s - 1;
        if (i < this.numCols - 1) {
          room.neighbors[0] = this.rooms[j]![i + 1]!;
          room.doorPos[0] = [xm, this.randInt(yl, ym)];
        }
        if (j < this.numRows - 1) {
          room.neighbors[1] = this.rooms[j + 1]![i]!;
          room.doorPos[1] = [this.randInt(xl, xm), ym];
        }
        if (i > 0) {
          room.neighbors[2] = this.rooms[j]![i - 1]!;
          room.doorPos[2] = room.neighbors[2].doorPos[0]!;
        }
        if (j > 0) {
          room.neighbors[3] = this.rooms[j - 1]![i]!;
          room.doorPos[3] = room.neighbors[3].doorPos[1]!;
        }
      }
    }
    this.agentX = Math.floor(this.numCols / 2) * (s - 1) + Math.floor(s / 2);
    this.agentY = Math.floor(this.numRows / 2) * (s - 1) + Math.floor(s / 2);
    this.agentDir = 0;
  }

  room(i: number, j: number): Room {
    const r = this.rooms[j]?.[i];
    if (!r) throw new RangeError(`no room (${i}, ${j}) in a ${this.numCols}×${this.numRows} room grid`);
    return r;
  }

  roomFromPos(x: number, y: number): Room {
    return this.room(Math.floor(x / (this.roomSize - 1)), Math.floor(y / (this.roomSize - 1)));
  }

  /** `place_in_room`: a free cell of the room, at Manhattan distance ≥ 2 from the agent, ≤ 1000 tries. */
  placeInRoom(i: number, j: number, id: number): [number, number] {
    const room = this.room(i, j);
    const pos = this.placeObj(id, room.top, room.size, (x, y) => Math.abs(this.agentX - x) + Math.abs(this.agentY - y) < 2, 1000);
    room.objs.push(id);
    return pos;
  }

  /** `add_object`: kind and colour drawn when not given (kind first), then placed in the room. */
  addObject(i: number, j: number, kind?: 'key' | 'ball' | 'box', color?: number): { id: number; pos: [number, number] } {
    const k = kind ?? this.randElem(['key', 'ball', 'box'] as const);
    const c = color ?? this.randColor();
    const id = this.newObject(OBJECT[k], c);
    return { id, pos: this.placeInRoom(i, j, id) };
  }

  /** `add_door`: colour, then `locked` (a coin flip) drawn when not given. */
  addDoor(i: number, j: number, doorIdx?: number, color?: number, locked?: boolean): { id: number; pos: [number, number] } {
    const room = this.room(i, j);
    let k = doorIdx;
    if (k === undefined) {
      for (;;) {
        k = this.randInt(0, 4);
        if (room.neighbors[k] && room.doors[k] === 0) break;
      }
    }
    const c = color ?? this.randColor();
    const isLocked = locked ?? this.randBool();
    if (room.doors[k] !== 0) throw new Error(`room (${i}, ${j}) already has a door on wall ${k}`);
    room.locked = isLocked;
    const id = this.newObject(OBJECT.door, c, isLocked ? STATE.locked : STATE.closed);
    const pos = room.doorPos[k];
    const neighbor = room.neighbors[k];
    if (!pos || !neighbor) throw new Error(`room (${i}, ${j}) has no neighbour on wall ${k}`);
    this.set(pos[0], pos[1], id);
    room.doors[k] = id;
    neighbor.doors[(k + 2) % 4] = id;
    return { id, pos };
  }

  removeWall(i: number, j: number, wallIdx: number): void {
    const room = this.room(i, j);
    const neighbor = room.neighbors[wallIdx];
    if (room.doors[wallIdx] !== 0 || !neighbor) throw new Error(`cannot remove wall ${wallIdx} of room (${i}, ${j})`);
    const [tx, ty] = room.top;
    const [w, h] = room.size;
    if (wallIdx === 0) for (let k = 1; k < h - 1; k++) this.set(tx + w - 1, ty + k, 0);
    else if (wallIdx === 1) for (let k = 1; k < w - 1; k++) this.set(tx + k, ty + h - 1, 0);
    else if (wallIdx === 2) for (let k = 1; k < h - 1; k++) this.set(tx, ty + k, 0);
    else for (let k = 1; k < w - 1; k++) this.set(tx + k, ty, 0);
    room.doors[wallIdx] = -1;
    neighbor.doors[(wallIdx + 2) % 4] = -1;
  }

  /** RoomGrid.place_agent: repeat (position in the room, direction) until the front cell is empty or a wall. */
  placeAgentInRoom(i: number, j: number): [number, number] {
    const room = this.room(i, j);
    for (;;) {
      this.placeAgent(room.top, room.size, true, 1000);
      const front = this.get(this.agentX + DIR_DX[this.agentDir]!, this.agentY + DIR_DY[this.agentDir]!);
      if (front === 0 || this.objType[front] === OBJECT.wall) return [this.agentX, this.agentY];
    }
  }

  /** `connect_all`: unlocked doors of random colours until every room is reachable from the agent's room. */
  connectAll(maxIterations = 5000, doorColors: readonly string[] = COLOR_NAMES): void {
    const start = this.roomFromPos(this.agentX, this.agentY);
    const total = this.numRows * this.numCols;
    const reachCount = (): number => {
      const seen = new Set<Room>();
      const stack = [start];
      while (stack.length > 0) {
        const r = stack.pop()!;
        if (seen.has(r)) continue;
        seen.add(r);
        for (let k = 0; k < 4; k++) if (r.doors[k] !== 0) stack.push(r.neighbors[k]!);
      }
      return seen.size;
    };
    for (let it = 0; ; it++) {
      if (it > maxIterations) throw new RejectSamplingError('connect_all failed');
      if (reachCount() === total) return;
      const i = this.randInt(0, this.numCols);
      const j = this.randInt(0, this.numRows);
      const k = this.randInt(0, 4);
      const room = this.room(i, j);
      if (!room.doorPos[k] || room.doors[k] !== 0) continue;
      if (room.locked || room.neighbors[k]!.locked) continue;
      const color = COLOR[this.randElem(doorColors) as keyof typeof COLOR];
      this.addDoor(i, j, k, color, false);
    }
  }
}
