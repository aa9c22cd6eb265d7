/**
 * ObstructedMaze (docs/environments.md §8.6, §8.14): locked doors whose keys hide in boxes, doors
 * blocked by balls, the blue ball in a corner room. The v0 "Full" generator places each key box
 * right after its own door, so a later blocking ball can overwrite it; v1 places all doors and
 * balls of a side room before its boxes.
 */
import { COLOR, COLOR_NAMES, DIR_DX, DIR_DY, OBJECT } from '../constants';
import { RoomGridEnv } from '../roomGrid';

const TARGET_COLOR = COLOR[COLOR_NAMES[0]!];
const BLOCKING_COLOR = COLOR[COLOR_NAMES[1]!];
const BOX_COLOR = COLOR[COLOR_NAMES[2]!];

abstract class ObstructedMazeBase extends RoomGridEnv {
  protected doorColors: number[] = [];

  constructor(numRows: number, numCols: number, roomsVisited: number) {
    super({ roomSize: 6, numRows, numCols, maxSteps: 4 * roomsVisited * 36, task: 'pickup' });
  }

  /** ObstructedMazeEnv._gen_grid: rooms, then the door colours as a random permutation. */
  protected generateBase(): void {
    this.generateRooms();
    this.doorColors = this.randSubset(COLOR_NAMES, COLOR_NAMES.length).map((c) => COLOR[c]);
    this.mission = `pick up the ${COLOR_NAMES[0]} ball`;
  }

  /** A locked door, with a green ball written (overwriting) just inside the room when blocked. */
  protected addLockedDoor(i: number, j: number, doorIdx: number, color: number, blocked: boolean): void {
    const door = this.addDoor(i, j, doorIdx, color, true);
    if (blocked) this.set(door.pos[0] - DIR_DX[doorIdx]!, door.pos[1] - DIR_DY[doorIdx]!, this.newObject(OBJECT.ball, BLOCKING_COLOR));
  }

  /** The key of a door, in a grey box when hidden, placed in the room. */
  protected addKey(i: number, j: number, color: number, inBox: boolean): void {
    const key = this.newObject(OBJECT.key, color);
    this.placeInRoom(i, j, inBox ? this.newObject(OBJECT.box, BOX_COLOR, 0, key) : key);
  }

  protected addTargetBall(i: number, j: number): void {
    this.targetId = this.addObject(i, j, 'ball', TARGET_COLOR).id;
  }
}

/** ObstructedMaze_1Dlhb(key_in_box, blocked): two rooms, one locked door. */
export class ObstructedMaze1Env extends ObstructedMazeBase {
  constructor(readonly keyInBox: boolean, readonly blocked: boolean) {
    super(1, 2, 2);
  }

  protected generate(): void {
    this.generateBase();
    const color = this.doorColors[0]!;
    this.addLockedDoor(0, 0, 0, color, this.blocked);
    this.addKey(0, 0, color, this.keyInBox);
    this.addTargetBall(1, 0);
    this.placeAgentInRoom(0, 0);
  }
}

export interface ObstructedMazeFullConfig {
  agentRoom: [number, number];
  keyInBox: boolean;
  blocked: boolean;
  numQuarters: number;
  roomsVisited: number;
  /** v1 adds both locked doors (and balls) of a side room before its key boxes. */
  v1: boolean;
}

/** ObstructedMaze_Full / ObstructedMaze_Full_V1 on a 3×3 room grid. */
export class ObstructedMazeFullEnv extends ObstructedMazeBase {
  constructor(readonly config: ObstructedMazeFullConfig) {
    super(3, 3, config.roomsVisited);
  }

  protected generate(): void {
    const { keyInBox, blocked, numQuarters, v1 } = this.config;
    this.generateBase();
    const sideRooms: [number, number][] = [[2, 1], [1, 2], [0, 1], [1, 0]];
    const dc = this.doorColors;
    for (let q = 0; q < numQuarters; q++) {
      const [si, sj] = sideRooms[q]!;
      this.addDoor(1, 1, q, dc[q], false);
      for (const k of [-1, 1]) {
        const color = dc[(q + k + dc.length) % dc.length]!;
        this.addLockedDoor(si, sj, (q + k + 4) % 4, color, blocked);
        if (!v1) this.addKey(si, sj, color, keyInBox);
      }
      if (v1) for (const k of [-1, 1]) this.addKey(si, sj, dc[(q + k + dc.length) % dc.length]!, keyInBox);
    }
    const corners: [number, number][] = [[2, 0], [2, 2], [0, 2], [0, 0]];
    const [bi, bj] = this.randElem(corners.slice(0, numQuarters));
    this.addTargetBall(bi, bj);
    this.placeAgentInRoom(this.config.agentRoom[0], this.config.agentRoom[1]);
  }
}
