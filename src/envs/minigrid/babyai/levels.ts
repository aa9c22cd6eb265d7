/**
 * The BabyAI levels of MiniGrid 3.1 (`minigrid/envs/babyai/*.py`): each `genMission` draws in
 * MiniGrid's order with our Rng, so the layouts and instructions follow the same distributions.
 */
import { COLOR, COLOR_NAMES, OBJECT, type ColorName } from '../constants';
import { RejectSamplingError } from '../minigridEnv';
import { BabyAILevel, type BabyAILevelConfig } from './level';
import { AfterInstr, BeforeInstr, GoToInstr, LOC_NAMES, ObjDesc, OpenInstr, PickupInstr, PutNextInstr } from './instr';

// ---- goto.py ---------------------------------------------------------------------------------

/** GoToRedBall / GoToRedBallGrey / GoToRedBallNoDists: one room, a red ball among distractors. */
export class GoToRedBallLevel extends BabyAILevel {
  constructor(
    readonly numDists = 7,
    readonly grey = false,
  ) {
    super({ numRows: 1, numCols: 1, roomSize: 8 });
  }
  protected genMission(): void {
    this.placeAgentIn();
    const obj = this.addObject(0, 0, 'ball', COLOR.red).id;
    const dists = this.addDistractors(undefined, undefined, this.numDists, false);
    if (this.grey) for (const d of dists) this.restyle(d, COLOR.grey);
    this.checkObjsReachable();
    this.instrs = new GoToInstr(this.describe(obj));
  }
}

export class GoToRedBlueBallLevel extends BabyAILevel {
  constructor(readonly numDists = 7) {
    super({ numRows: 1, numCols: 1, roomSize: 8 });
  }
  protected genMission(): void {
    this.placeAgentIn();
    const dists = this.addDistractors(undefined, undefined, this.numDists, false);
    for (const d of dists) {
      if (this.objType[d] === OBJECT.ball && (this.objColor[d] === COLOR.blue || this.objColor[d] === COLOR.red)) throw new RejectSamplingError('can only have one blue or red ball');
    }
    const color = this.randElem(['red', 'blue'] as const);
    const obj = this.addObject(0, 0, 'ball', COLOR[color]).id;
    this.checkObjsReachable();
    this.instrs = new GoToInstr(this.describe(obj));
  }
}

export class GoToObjLevel extends BabyAILevel {
  constructor(roomSize = 8) {
    super({ numRows: 1, numCols: 1, roomSize });
  }
  protected genMission(): void {
    this.placeAgentIn();
    const [obj] = this.addDistractors(undefined, undefined, 1);
    this.instrs = new GoToInstr(this.describe(obj!));
  }
}

export class GoToLocalLevel extends BabyAILevel {
  constructor(
    roomSize = 8,
    readonly numDists = 8,
  ) {
    super({ numRows: 1, numCols: 1, roomSize });
  }
  protected genMission(): void {
    this.placeAgentIn();
    const objs = this.addDistractors(undefined, undefined, this.numDists, false);
    this.checkObjsReachable();
    this.instrs = new GoToInstr(this.describe(this.randElem(objs)));
  }
}

export class GoToLevel extends BabyAILevel {
  constructor(
    cfg: BabyAILevelConfig = {},
    readonly numDists = 18,
    readonly doorsOpen = false,
  ) {
    super({ roomSize: cfg.roomSize ?? 8, numRows: cfg.numRows ?? 3, numCols: cfg.numCols ?? 3 });
  }
  protected genMission(): void {
    this.placeAgentIn();
    this.connectAll();
    const objs = this.addDistractors(undefined, undefined, this.numDists, false);
    this.checkObjsReachable();
    this.instrs = new GoToInstr(this.describe(this.randElem(objs)));
    if (this.doorsOpen) this.openAllDoors();
  }
}

export class GoToImpUnlockLevel extends BabyAILevel {
  protected genMission(): void {
    const id = this.randInt(0, this.numCols);
    const jd = this.randInt(0, this.numRows);
    const door = this.addDoor(id, jd, undefined, undefined, true).id;
    const lockedRoom = this.room(id, jd);
    for (;;) {
      const ik = this.randInt(0, this.numCols);
      const jk = this.randInt(0, this.numRows);
      if (ik === id && jk === jd) continue;
      this.addObject(ik, jk, 'key', this.objColor[door]);
      break;
    }
    this.connectAll();
    for (let i = 0; i < this.numCols; i++) for (let j = 0; j < this.numRows; j++) if (i !== id || j !== jd) this.addDistractors(i, j, 2, false);
    for (;;) {
      this.placeAgentIn();
      if (this.roomFromPos(this.agentX, this.agentY) !== lockedRoom) break;
    }
    this.checkObjsReachable();
    const [obj] = this.addDistractors(id, jd, 1, false);
    this.instrs = new GoToInstr(this.describe(obj!));
  }
}

export class GoToDoorLevel extends BabyAILevel {
  constructor() {
    super({ roomSize: 7 });
  }
  protected genMission(): void {
    const doors: number[] = [];
    for (let k = 0; k < 4; k++) doors.push(this.addDoor(1, 1).id);
    this.placeAgentIn(1, 1);
    const obj = this.randElem(doors);
    this.instrs = new GoToInstr(new ObjDesc({ type: 'door', color: this.colorName(obj), loc: null }));
  }
}

export class GoToObjDoorLevel extends BabyAILevel {
  constructor() {
    super({ roomSize: 8 });
  }
  protected genMission(): void {
    this.placeAgentIn(1, 1);
    const objs = this.addDistractors(1, 1, 8, false);
    for (let k = 0; k < 4; k++) objs.push(this.addDoor(1, 1).id);
    this.checkObjsReachable();
    this.instrs = new GoToInstr(this.describe(this.randElem(objs)));
  }
}

// ---- open.py ---------------------------------------------------------------------------------

export class OpenLevel extends BabyAILevel {
  constructor(
    cfg: BabyAILevelConfig = {},
    readonly numDists = 18,
  ) {
    super(cfg);
  }
  protected genMission(): void {
    this.placeAgentIn();
    this.connectAll();
    this.addDistractors(undefined, undefined, this.numDists, false);
    this.checkObjsReachable();
    const door = this.randElem(this.allRoomDoors());
    this.instrs = new OpenInstr(this.describe(door));
  }
}

export class OpenRedDoorLevel extends BabyAILevel {
  constructor() {
    super({ numRows: 1, numCols: 2, roomSize: 5 });
  }
  protected genMission(): void {
    this.addDoor(0, 0, 0, COLOR.red, false);
    this.placeAgentIn(0, 0);
    this.instrs = new OpenInstr(new ObjDesc({ type: 'door', color: 'red', loc: null }));
  }
}

export class OpenDoorLevel extends BabyAILevel {
  constructor(
    readonly debug = false,
    readonly selectBy: 'color' | 'loc' | null = null,
  ) {
    super();
  }
  protected genMission(): void {
    const colors = this.randSubset(COLOR_NAMES, 4);
    const objs = colors.map((c, k) => this.addDoor(1, 1, k, COLOR[c], false).id);
    const selectBy = this.selectBy ?? this.randElem(['color', 'loc'] as const);
    const desc = selectBy === 'color' ? new ObjDesc({ type: 'door', color: this.colorName(objs[0]!), loc: null }) : new ObjDesc({ type: 'door', color: null, loc: this.randElem(LOC_NAMES) });
    this.placeAgentIn(1, 1);
    this.instrs = new OpenInstr(desc, this.debug);
  }
}

export class OpenTwoDoorsLevel extends BabyAILevel {
  constructor(
    readonly firstColor: ColorName | null = null,
    readonly secondColor: ColorName | null = null,
    readonly strict = false,
  ) {
    super({ roomSize: 6, maxSteps: 20 * 36 });
  }
  protected genMission(): void {
    const colors = this.randSubset(COLOR_NAMES, 2);
    const door1 = this.addDoor(1, 1, 2, COLOR[this.firstColor ?? colors[0]!], false).id;
    const door2 = this.addDoor(1, 1, 0, COLOR[this.secondColor ?? colors[1]!], false).id;
    this.placeAgentIn(1, 1);
    this.instrs = new BeforeInstr(new OpenInstr(this.describe(door1), this.strict), new OpenInstr(this.describe(door2)));
  }
}

export class OpenDoorsOrderLevel extends BabyAILevel {
  constructor(
    readonly numDoors: number,
    readonly debug = false,
  ) {
    super({ roomSize: 6, maxSteps: 20 * 36 });
  }
  protected genMission(): void {
    const colors = this.randSubset(COLOR_NAMES, this.numDoors);
    const doors: number[] = [];
    for (let k = 0; k < this.numDoors; k++) doors.push(this.addDoor(1, 1, undefined, COLOR[colors[k]!], false).id);
    this.placeAgentIn(1, 1);
    const [d1, d2] = this.randSubset(doors, 2);
    const mode = this.randInt(0, 3);
    const open = (d: number): OpenInstr => new OpenInstr(this.describe(d), this.debug);
    this.instrs = mode === 0 ? open(d1!) : mode === 1 ? new BeforeInstr(open(d1!), open(d2!)) : new AfterInstr(open(d1!), open(d2!));
  }
}

// ---- pickup.py -------------------------------------------------------------------------------

export class PickupLevel extends BabyAILevel {
  constructor(
    cfg: BabyAILevelConfig = {},
    readonly numDists = 18,
  ) {
    super(cfg);
  }
  protected genMission(): void {
    this.placeAgentIn();
    this.connectAll();
    const objs = this.addDistractors(undefined, undefined, this.numDists, false);
    this.checkObjsReachable();
    this.instrs = new PickupInstr(this.describe(this.randElem(objs)));
  }
}

export class UnblockPickupLevel extends BabyAILevel {
  protected genMission(): void {
    this.placeAgentIn();
    this.connectAll();
    const objs = this.addDistractors(undefined, undefined, 20, false);
    if (this.checkObjsReachable(false)) throw new RejectSamplingError('all objects reachable');
    this.instrs = new PickupInstr(this.describe(this.randElem(objs)));
  }
}

export class PickupDistLevel extends BabyAILevel {
  constructor(readonly debug = false) {
    super({ numRows: 1, numCols: 1, roomSize: 7 });
  }
  protected genMission(): void {
    const objs = this.addDistractors(undefined, undefined, 5);
    this.placeAgentIn(0, 0);
    const obj = this.randElem(objs);
    const by = this.randElem(['type', 'color', 'both'] as const);
    this.instrs = new PickupInstr(this.describe(obj, by !== 'type', by !== 'color'), this.debug);
  }
}

export class PickupAboveLevel extends BabyAILevel {
  constructor() {
    super({ roomSize: 6, maxSteps: 8 * 36 });
  }
  protected genMission(): void {
    const obj = this.addObject(1, 0).id;
    this.addDoor(1, 1, 3, undefined, false);
    this.placeAgentIn(1, 1);
    this.connectAll();
    this.instrs = new PickupInstr(this.describe(obj));
  }
}

// ---- putnext.py ------------------------------------------------------------------------------

export class PutNextLocalLevel extends BabyAILevel {
  constructor(
    roomSize = 8,
    readonly numObjs = 8,
  ) {
    super({ numRows: 1, numCols: 1, roomSize });
  }
  /** Put next: two navigations (PutNextInstr.navs). */
  protected override navigationBounds(): readonly [number, number] {
    return [2, 2];
  }
  protected genMission(): void {
    this.placeAgentIn();
    const objs = this.addDistractors(undefined, undefined, this.numObjs, true);
    this.checkObjsReachable();
    const [o1, o2] = this.randSubset(objs, 2);
    this.instrs = new PutNextInstr(this.describe(o1!), this.describe(o2!));
  }
}

export class PutNextLevel extends BabyAILevel {
  private objA = 0;
  constructor(
    roomSize: number,
    readonly objsPerRoom: number,
    readonly startCarrying = false,
  ) {
    super({ numRows: 1, numCols: 2, roomSize, maxSteps: 8 * roomSize * roomSize });
  }
  protected genMission(): void {
    this.placeAgentIn(0, 0);
    const left = this.addDistractors(0, 0, this.objsPerRoom);
    const right = this.addDistractors(1, 0, this.objsPerRoom);
    this.removeWall(0, 0, 0);
    let a = this.randElem(left);
    let b = this.randElem(right);
    if (this.randBool()) [a, b] = [b, a];
    this.objA = a;
    this.instrs = new PutNextInstr(this.describe(a), this.describe(b));
  }
  /**
   * The Carrying variants start holding the object to move. The verifier already matched it in
   * place, and, as in MiniGrid, the reset observation is the one from before it was taken.
   */
  protected override afterReset(): void {
    if (!this.startCarrying) return;
    for (let x = 0; x < this.width; x++) for (let y = 0; y < this.height; y++) if (this.get(x, y) === this.objA) this.set(x, y, 0);
    this.carrying = this.objA;
    this.viewDirty = true;
  }
}

export class MoveTwoAcrossLevel extends BabyAILevel {
  constructor(
    roomSize: number,
    readonly objsPerRoom: number,
  ) {
    super({ numRows: 1, numCols: 2, roomSize, maxSteps: 16 * roomSize * roomSize });
  }
  protected genMission(): void {
    this.placeAgentIn(0, 0);
    let left = this.addDistractors(0, 0, this.objsPerRoom);
    let right = this.addDistractors(1, 0, this.objsPerRoom);
    this.removeWall(0, 0, 0);
    left = this.randSubset(left, 2);
    right = this.randSubset(right, 2);
    this.instrs = new BeforeInstr(new PutNextInstr(this.describe(left[0]!), this.describe(right[0]!)), new PutNextInstr(this.describe(right[1]!), this.describe(left[1]!)));
  }
}

// ---- unlock.py -------------------------------------------------------------------------------

export class UnlockLevel extends BabyAILevel {
  protected genMission(): void {
    const id = this.randInt(0, this.numCols);
    const jd = this.randInt(0, this.numRows);
    const door = this.addDoor(id, jd, undefined, undefined, true).id;
    const lockedRoom = this.room(id, jd);
    for (;;) {
      const ik = this.randInt(0, this.numCols);
      const jk = this.randInt(0, this.numRows);
      if (ik === id && jk === jd) continue;
      this.addObject(ik, jk, 'key', this.objColor[door]);
      break;
    }
    if (this.randBool()) this.connectAll(5000, COLOR_NAMES.filter((c) => COLOR[c] !== this.objColor[door]));
    else this.connectAll();
    for (let i = 0; i < this.numCols; i++) for (let j = 0; j < this.numRows; j++) if (i !== id || j !== jd) this.addDistractors(i, j, 3, false);
    for (;;) {
      this.placeAgentIn();
      if (this.roomFromPos(this.agentX, this.agentY) !== lockedRoom) break;
    }
    this.checkObjsReachable();
    this.instrs = new OpenInstr(this.describe(door));
  }
}

export class UnlockLocalLevel extends BabyAILevel {
  constructor(readonly distractors = false) {
    super();
  }
  protected genMission(): void {
    const door = this.addDoor(1, 1, undefined, undefined, true).id;
    this.addObject(1, 1, 'key', this.objColor[door]);
    if (this.distractors) this.addDistractors(1, 1, 3);
    this.placeAgentIn(1, 1);
    this.instrs = new OpenInstr(this.describe(door, false));
  }
}

export class KeyInBoxLevel extends BabyAILevel {
  protected genMission(): void {
    const door = this.addDoor(1, 1, undefined, undefined, true).id;
    const key = this.newObject(OBJECT.key, this.objColor[door]!);
    const box = this.newObject(OBJECT.box, this.randColor(), 0, key);
    this.placeInRoom(1, 1, box);
    this.placeAgentIn(1, 1);
    this.instrs = new OpenInstr(this.describe(door, false));
  }
}

export class UnlockPickupLevel extends BabyAILevel {
  constructor(readonly distractors = false) {
    // MiniGrid's constructor tests `max is None` (always false), so the budget follows the instruction.
    super({ numRows: 1, numCols: 2, roomSize: 6 });
  }
  protected genMission(): void {
    const obj = this.addObject(1, 0, 'box').id;
    const door = this.addDoor(0, 0, 0, undefined, true).id;
    this.addObject(0, 0, 'key', this.objColor[door]);
    if (this.distractors) this.addDistractors(undefined, undefined, 4);
    this.placeAgentIn(0, 0);
    this.instrs = new PickupInstr(this.describe(obj));
  }
}

export class BlockedUnlockPickupLevel extends BabyAILevel {
  constructor() {
    super({ numRows: 1, numCols: 2, roomSize: 6, maxSteps: 16 * 36 });
  }
  protected genMission(): void {
    const obj = this.addObject(1, 0, 'box').id;
    const door = this.addDoor(0, 0, 0, undefined, true);
    const color = this.randColor();
    this.set(door.pos[0] - 1, door.pos[1], this.newObject(OBJECT.ball, color));
    this.addObject(0, 0, 'key', this.objColor[door.id]);
    this.placeAgentIn(0, 0);
    this.instrs = new PickupInstr(this.describe(obj, false));
  }
}

export class UnlockToUnlockLevel extends BabyAILevel {
  constructor() {
    super({ numRows: 1, numCols: 3, roomSize: 6, maxSteps: 30 * 36 });
  }
  protected genMission(): void {
    const colors = this.randSubset(COLOR_NAMES, 2);
    this.addDoor(0, 0, 0, COLOR[colors[0]!], true);
    this.addObject(2, 0, 'key', COLOR[colors[0]!]);
    this.addDoor(1, 0, 0, COLOR[colors[1]!], true);
    this.addObject(1, 0, 'key', COLOR[colors[1]!]);
    const obj = this.addObject(0, 0, 'ball').id;
    this.placeAgentIn(1, 0);
    this.instrs = new PickupInstr(this.describe(obj, false));
  }
}

// ---- other.py --------------------------------------------------------------------------------

export class ActionObjDoorLevel extends BabyAILevel {
  constructor() {
    super({ roomSize: 7 });
  }
  protected genMission(): void {
    const objs = this.addDistractors(1, 1, 5);
    for (let k = 0; k < 4; k++) objs.push(this.addDoor(1, 1, undefined, undefined, false).id);
    this.placeAgentIn(1, 1);
    const obj = this.randElem(objs);
    const desc = this.describe(obj);
    if (this.objType[obj] === OBJECT.door) this.instrs = this.randBool() ? new GoToInstr(desc) : new OpenInstr(desc);
    else this.instrs = this.randBool() ? new GoToInstr(desc) : new PickupInstr(desc);
  }
}

export class FindObjLevel extends BabyAILevel {
  constructor(roomSize = 5) {
    super({ roomSize, maxSteps: 20 * roomSize * roomSize });
  }
  protected genMission(): void {
    // MiniGrid draws the row range for i and the column range for j; with 3×3 rooms it is the same.
    const i = this.randInt(0, this.numRows);
    const j = this.randInt(0, this.numCols);
    const obj = this.addObject(i, j).id;
    this.placeAgentIn(1, 1);
    this.connectAll();
    this.instrs = new PickupInstr(this.describe(obj, false));
  }
}

export class KeyCorridorLevel extends BabyAILevel {
  constructor(roomSize = 6, numRows = 3) {
    super({ roomSize, numRows, numCols: 3, maxSteps: 30 * roomSize * roomSize });
  }
  protected genMission(): void {
    for (let j = 1; j < this.numRows; j++) this.removeWall(1, j, 3);
    const roomIdx = this.randInt(0, this.numRows);
    const door = this.addDoor(2, roomIdx, 2, undefined, true).id;
    const obj = this.addObject(2, roomIdx, 'ball').id;
    this.addObject(0, this.randInt(0, this.numRows), 'key', this.objColor[door]);
    this.placeAgentIn(1, Math.floor(this.numRows / 2));
    this.connectAll();
    this.instrs = new PickupInstr(this.describe(obj, false));
  }
}

export class OneRoomLevel extends BabyAILevel {
  constructor(roomSize = 8) {
    super({ roomSize, numRows: 1, numCols: 1 });
  }
  protected genMission(): void {
    const obj = this.addObject(0, 0, 'ball').id;
    this.placeAgentIn();
    this.instrs = new PickupInstr(this.describe(obj, false));
  }
}
