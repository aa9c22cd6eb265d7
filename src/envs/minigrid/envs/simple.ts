/** The single-room envs: Empty, DoorKey, FourRooms, LavaGap (docs/environments.md §8.1–8.5, §8.12). */
import { COLOR, OBJECT, STATE, type KeyPlacement } from '../constants';
import { MiniGridEnv } from '../minigridEnv';

/** EmptyEnv(size, agent_start_pos): goal in the bottom-right corner; agent fixed at (1,1) east, or random. */
export class EmptyEnv extends MiniGridEnv {
  constructor(readonly size: number, readonly randomStart: boolean) {
    super({ width: size, height: size, maxSteps: 4 * size * size, seeThroughWalls: true, task: 'goal' });
  }

  protected generate(): void {
    this.walledRoomWithCornerGoal();
    if (this.randomStart) this.placeAgent();
    else this.startTopLeftFacingEast();
    this.mission = 'get to the green goal square';
  }
}

/** DoorKeyEnv(size): a wall column with a locked yellow door, a yellow key on the agent's side. */
export class DoorKeyEnv extends MiniGridEnv {
  constructor(
    readonly size: number,
    readonly keyPlacement: KeyPlacement = 'anywhere',
  ) {
    super({ width: size, height: size, maxSteps: 10 * size * size, seeThroughWalls: false, task: 'goal' });
  }

  protected generate(): void {
    const { width: w, height: h } = this;
    this.wallRect(0, 0, w, h);
    this.set(w - 2, h - 2, this.newObject(OBJECT.goal, COLOR.green));
    const split = this.randInt(2, w - 2);
    this.vertWall(split, 0);
    this.placeAgent([0, 0], [split, h]);
    const doorY = this.randInt(1, w - 2);
    this.set(split, doorY, this.newObject(OBJECT.door, COLOR.yellow, STATE.locked));
    // `anywhere` draws exactly as MiniGrid does (no reject test), so default layouts are unchanged.
    this.placeObj(this.newObject(OBJECT.key, COLOR.yellow), [0, 0], [split, h], this.keyReject(split, doorY, h));
    this.mission = 'use the key to open the door and then get to the goal';
  }

  private keyReject(doorX: number, doorY: number, h: number): ((x: number, y: number) => boolean) | undefined {
    if (this.keyPlacement === 'anywhere') return undefined;
    const dist = (x: number, y: number): number => Math.abs(x - doorX) + Math.abs(y - doorY);
    if (this.keyPlacement === 'near_door') return (x, y) => dist(x, y) > 2;
    let farthest = 0;
    for (let y = 1; y < h - 1; y++) {
      for (let x = 1; x < doorX; x++) {
        if (this.cells[this.index(x, y)] === 0 && !(x === this.agentX && y === this.agentY)) farthest = Math.max(farthest, dist(x, y));
      }
    }
    const threshold = Math.ceil((farthest + 1) / 2);
    return (x, y) => dist(x, y) < threshold;
  }
}

/** FourRoomsEnv: four 8×8 rooms with one gap per inner wall segment; random agent and goal. */
export class FourRoomsEnv extends MiniGridEnv {
  constructor() {
    super({ width: 19, height: 19, maxSteps: 100, seeThroughWalls: false, task: 'goal' });
  }

  protected generate(): void {
    const { width: w, height: h } = this;
    this.horzWall(0, 0);
    this.horzWall(0, h - 1);
    this.vertWall(0, 0);
    this.vertWall(w - 1, 0);
    const roomW = Math.floor(w / 2);
    const roomH = Math.floor(h / 2);
    for (let j = 0; j < 2; j++) {
      for (let i = 0; i < 2; i++) {
        const xl = i * roomW;
        const yt = j * roomH;
        const xr = xl + roomW;
        const yb = yt + roomH;
        if (i + 1 < 2) {
          this.vertWall(xr, yt, roomH);
          this.set(xr, this.randInt(yt + 1, yb), 0);
        }
        if (j + 1 < 2) {
          this.horzWall(xl, yb, roomW);
          this.set(this.randInt(xl + 1, xr), yb, 0);
        }
      }
    }
    this.placeAgent();
    this.placeObj(this.newObject(OBJECT.goal, COLOR.green));
    this.mission = 'reach the goal';
  }
}

/** LavaGapEnv(size): a lava column with one gap between the agent (1,1) and the goal. */
export class LavaGapEnv extends MiniGridEnv {
  constructor(readonly size: number) {
    super({ width: size, height: size, maxSteps: 4 * size * size, seeThroughWalls: false, task: 'goal' });
  }

  protected generate(): void {
    const { width: w, height: h } = this;
    this.walledRoomWithCornerGoal();
    this.startTopLeftFacingEast();
    const gx = this.randInt(2, w - 2);
    const gy = this.randInt(1, h - 1);
    for (let y = 1; y < h - 1; y++) this.set(gx, y, this.newObject(OBJECT.lava, COLOR.red));
    this.set(gx, gy, 0);
    this.mission = 'avoid the lava and get to the green goal square';
  }
}
