/**
 * The RoomGrid envs with one locked door: KeyCorridor, Unlock, UnlockPickup and
 * BlockedUnlockPickup (docs/environments.md §8.4, §8.7, §8.13, §8.15, §8.16).
 */
import { COLOR_INDEX_NAMES, OBJECT, OBJECT_NAMES, type KeyPlacement } from '../constants';
import { RoomGridEnv } from '../roomGrid';

/**
 * KeyCorridorEnv(room_size, num_rows, obj_type="ball"): the ball behind a locked door off a
 * corridor. `keyPlacement` (training configurations): `near_door` puts the key in the room across
 * the corridor from the locked door, `far_from_door` in the left-hand room farthest from it;
 * `anywhere` is MiniGrid's random row.
 */
export class KeyCorridorEnv extends RoomGridEnv {
  constructor(
    roomSize: number,
    numRows: number,
    readonly keyPlacement: KeyPlacement = 'anywhere',
  ) {
    super({ roomSize, numRows, numCols: 3, maxSteps: 30 * roomSize * roomSize, task: 'pickup' });
  }

  protected generate(): void {
    this.generateRooms();
    for (let j = 1; j < this.numRows; j++) this.removeWall(1, j, 3);
    const roomIdx = this.randInt(0, this.numRows);
    const door = this.addDoor(2, roomIdx, 2, undefined, true);
    const obj = this.addObject(2, roomIdx, 'ball');
    // The draw happens in every mode so the rest of the layout keeps MiniGrid's call order.
    const drawn = this.randInt(0, this.numRows);
    const keyRow = this.keyPlacement === 'near_door' ? roomIdx : this.keyPlacement === 'far_from_door' ? (roomIdx < this.numRows / 2 ? this.numRows - 1 : 0) : drawn;
    this.addObject(0, keyRow, 'key', this.objColor[door.id]);
    this.placeAgentInRoom(1, Math.floor(this.numRows / 2));
    this.connectAll();
    this.targetId = obj.id;
    this.mission = `pick up the ${COLOR_INDEX_NAMES[this.objColor[obj.id]!]} ${OBJECT_NAMES[this.objType[obj.id]!]}`;
  }
}

/** UnlockEnv: open the locked door between two rooms; its key is in the agent's room. */
export class UnlockEnv extends RoomGridEnv {
  constructor() {
    super({ roomSize: 6, numRows: 1, numCols: 2, maxSteps: 8 * 36, task: 'open_door' });
  }

  protected generate(): void {
    this.generateRooms();
    const door = this.addDoor(0, 0, 0, undefined, true);
    this.addObject(0, 0, 'key', this.objColor[door.id]);
    this.placeAgentInRoom(0, 0);
    this.targetId = door.id;
    this.mission = 'open the door';
  }
}

/** UnlockPickupEnv / BlockedUnlockPickupEnv: pick up the box behind the locked door (blocked by a ball). */
export class UnlockPickupEnv extends RoomGridEnv {
  constructor(readonly blocked: boolean) {
    super({ roomSize: 6, numRows: 1, numCols: 2, maxSteps: (blocked ? 16 : 8) * 36, task: 'pickup' });
  }

  protected generate(): void {
    this.generateRooms();
    const obj = this.addObject(1, 0, 'box');
    const door = this.addDoor(0, 0, 0, undefined, true);
    if (this.blocked) {
      const color = this.randColor();
      this.set(door.pos[0] - 1, door.pos[1], this.newObject(OBJECT.ball, color));
    }
    this.addObject(0, 0, 'key', this.objColor[door.id]);
    this.placeAgentInRoom(0, 0);
    this.targetId = obj.id;
    this.mission = `pick up the ${COLOR_INDEX_NAMES[this.objColor[obj.id]!]} ${OBJECT_NAMES[this.objType[obj.id]!]}`;
  }
}
