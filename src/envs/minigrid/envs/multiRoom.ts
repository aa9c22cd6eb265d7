/** MultiRoomEnv (docs/environments.md §8.8, §8.18): a chain of rooms joined by closed doors, floating in empty space. */
import { COLOR, COLOR_NAMES, OBJECT, type ColorName } from '../constants';
import { MiniGridEnv } from '../minigridEnv';

interface PlacedRoom {
  top: [number, number];
  size: [number, number];
  entryDoor: [number, number];
}

export class MultiRoomEnv extends MiniGridEnv {
  constructor(readonly minRooms: number, readonly maxRooms: number, readonly maxRoomSize: number) {
    super({ width: 25, height: 25, maxSteps: maxRooms * 20, seeThroughWalls: false, task: 'goal' });
  }

  protected generate(): void {
    const { width: w } = this;
    let rooms: PlacedRoom[] = [];
    const numRooms = this.randInt(this.minRooms, this.maxRooms + 1);
    while (rooms.length < numRooms) {
      const current: PlacedRoom[] = [];
      // MiniGrid draws both coordinates of the entry point from the width.
      const entry: [number, number] = [this.randInt(0, w - 2), this.randInt(0, w - 2)];
      this.placeRoom(numRooms, current, 4, this.maxRoomSize, 2, entry);
      if (current.length > rooms.length) rooms = current;
    }
    let prevColor: ColorName | null = null;
    rooms.forEach((room, idx) => {
      const [tx, ty] = room.top;
      const [sx, sy] = room.size;
      for (let i = 0; i < sx; i++) {
        this.set(tx + i, ty, 1);
        this.set(tx + i, ty + sy - 1, 1);
      }
      for (let j = 0; j < sy; j++) {
        this.set(tx, ty + j, 1);
        this.set(tx + sx - 1, ty + j, 1);
      }
      if (idx > 0) {
        const choices = COLOR_NAMES.filter((c) => c !== prevColor);
        const color = this.randElem(choices);
        this.set(room.entryDoor[0], room.entryDoor[1], this.newObject(OBJECT.door, COLOR[color], 1));
        prevColor = color;
      }
    });
    const first = rooms[0]!;
    const last = rooms[rooms.length - 1]!;
    this.placeAgent(first.top, first.size);
    this.placeObj(this.newObject(OBJECT.goal, COLOR.green), last.top, last.size);
    this.mission = 'traverse the rooms to get to the goal';
  }

  /** `_placeRoom`: true once this room is placed, even when no next room fits. */
  private placeRoom(numLeft: number, list: PlacedRoom[], minSz: number, maxSz: number, entryWall: number, entry: [number, number]): boolean {
    const sizeX = this.randInt(minSz, maxSz + 1);
    const sizeY = this.randInt(minSz, maxSz + 1);
    let topX: number;
    let topY: number;
    if (list.length === 0) {
      [topX, topY] = entry;
    } else if (entryWall === 0) {
      topX = entry[0] - sizeX + 1;
      topY = this.randInt(entry[1] - sizeY + 2, entry[1]);
    } else if (entryWall === 1) {
      topX = this.randInt(entry[0] - sizeX + 2, entry[0]);
      topY = entry[1] - sizeY + 1;
    } else if (entryWall === 2) {
      topX = entry[0];
      topY = this.randInt(entry[1] - sizeY + 2, entry[1]);
    } else {
      topX = this.randInt(entry[0] - sizeX + 2, entry[0]);
      topY = entry[1];
    }
    if (topX < 0 || topY < 0) return false;
    if (topX + sizeX > this.width || topY + sizeY >= this.height) return false;
    for (let r = 0; r < list.length - 1; r++) {
      const room = list[r]!;
      const nonOverlap = topX + sizeX < room.top[0] || room.top[0] + room.size[0] <= topX || topY + sizeY < room.top[1] || room.top[1] + room.size[1] <= topY;
      if (!nonOverlap) return false;
    }
    list.push({ top: [topX, topY], size: [sizeX, sizeY], entryDoor: entry });
    if (numLeft === 1) return true;
    const walls = [0, 1, 2, 3].filter((k) => k !== entryWall);
    for (let t = 0; t < 8; t++) {
      const exitWall = this.randElem(walls);
      let exit: [number, number];
      if (exitWall === 0) exit = [topX + sizeX - 1, topY + this.randInt(1, sizeY - 1)];
      else if (exitWall === 1) exit = [topX + this.randInt(1, sizeX - 1), topY + sizeY - 1];
      else if (exitWall === 2) exit = [topX, topY + this.randInt(1, sizeY - 1)];
      else exit = [topX + this.randInt(1, sizeX - 1), topY];
      if (this.placeRoom(numLeft - 1, list, minSz, maxSz, (exitWall + 2) % 4, exit)) break;
    }
    return true;
  }
}
