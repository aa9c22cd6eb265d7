/**
 * BabyAI's level machinery (MiniGrid 3.1 `roomgrid_level.py` and `levelgen.py`): a RoomGrid
 * whose episode is decided by an instruction verifier, layouts regenerated from scratch on
 * rejection, the step budget derived from the instruction, and the random instruction
 * generator behind Synth*, BossLevel and friends.
 *
 * State: `getState()` adds `task: { kind: 'babyai', instr, progress }` and `rooms` to the
 * MiniGrid state. `instr` is the golden traces' tree (descriptions carry `objs` and `poss`,
 * the matched objects and the verifier's positions for them; `where` optionally says where each
 * matched object is now when that differs from `poss`: [x, y], 'carried' or null for gone).
 * `progress` holds the sequence flags and what each pickup/putnext clause last saw carried.
 */
import type { ResetOptions, ResetResult, StepLimitRange, StepResult } from '../../core/env';
import { COLOR, COLOR_INDEX_NAMES, COLOR_NAMES, OBJECT, STATE, type ColorName } from '../constants';
import { RejectSamplingError, type MiniGridObservation } from '../minigridEnv';
import { RoomGridEnv, type Room } from '../roomGrid';
import { encodeObject, MiniGridStateError, type EncodedObject, type MiniGridState } from '../worldState';
import {
  ActionInstr,
  AfterInstr,
  AndInstr,
  BeforeInstr,
  GoToInstr,
  Instr,
  instrFromSpec,
  LOC_NAMES,
  ObjDesc,
  OBJ_TYPES,
  OBJ_TYPES_NOT_DOOR,
  OpenInstr,
  PickupInstr,
  PutNextInstr,
  SeqInstr,
  seqNodes,
  type BabyAIObjType,
  type DoneFlag,
  type InstrSpec,
  type Status,
  type VerifierWorld,
} from './instr';

export interface BabyAILevelConfig {
  roomSize?: number;
  numRows?: number;
  numCols?: number;
  /** A fixed step budget; otherwise room_size² · rows · cols · navigations, set at every reset. */
  maxSteps?: number;
}

/** What `info` carries on reset and every step. */
export type BabyAIInfo = {
  /** The parsed instruction (the same tree the mission text was generated from). */
  mission: InstrSpec;
  /** The verifier's verdict after the last step ('continue' at reset). */
  status: Status;
};

type Where = [number, number] | 'carried' | null;
interface DescState {
  type: BabyAIObjType | null;
  color: ColorName | null;
  loc: (typeof LOC_NAMES)[number] | null;
  objs: EncodedObject[];
  poss: [number, number][];
  where?: Where[];
}

export abstract class BabyAILevel extends RoomGridEnv implements VerifierWorld {
  instrs: Instr = new GoToInstr(new ObjDesc({ type: 'ball', color: null, loc: null }));
  /** True when the level fixes max_steps instead of deriving it from the instruction. */
  readonly fixedMaxSteps: boolean;
  /** LevelGen's flag; null for levels that do not declare it (MiniGrid's hasattr check). */
  protected unblocking: boolean | null = null;
  private seq: SeqInstr[] = [];
  private allDescs: ObjDesc[] = [];
  /** The parsed instruction, deep-frozen: every info of the episode shares it. */
  private missionSpec: InstrSpec = deepFreeze(this.instrs.spec());

  constructor(config: BabyAILevelConfig = {}) {
    super({ roomSize: config.roomSize ?? 8, numRows: config.numRows ?? 3, numCols: config.numCols ?? 3, maxSteps: config.maxSteps ?? 1, task: 'babyai' });
    this.fixedMaxSteps = config.maxSteps !== undefined;
  }

  /** The level's `gen_mission`: objects, doors, agent, then `this.instrs`. Throw RejectSamplingError to start over. */
  protected abstract genMission(): void;

  /** Runs after the verifier is bound (PutNext's Carrying variants take the object here). */
  protected afterReset(): void {}

  protected generate(): void {
    for (;;) {
      try {
        this.generateRooms();
        this.genMission();
        this.validateInstrs(this.instrs);
        break;
      } catch (e) {
        if (!(e instanceof RejectSamplingError)) throw e;
        this.clearWorld(this.width, this.height);
      }
    }
    this.bindInstructions();
    this.mission = this.instrs.surface();
    if (!this.fixedMaxSteps) this.maxSteps = this.instrs.navs() * this.navigationSteps();
  }

  /** One navigation's share of a derived step budget: MiniGrid's room_size² · num_rows · num_cols. */
  navigationSteps(): number {
    return this.roomSize * this.roomSize * this.numRows * this.numCols;
  }

  /**
   * The fewest and most navigations (`Instr.navs`) the instructions this level draws can need:
   * one for a single go to, pick up or open. A level drawing other instructions overrides it
   * (test/unit/cli/envsSteps.test.ts checks every level's bounds against its resets).
   */
  protected navigationBounds(): readonly [number, number] {
    return [1, 1];
  }

  /** The step budgets an episode can get, before any reset: the fixed one, or the derived one for each instruction the level can draw. */
  stepLimitRange(): StepLimitRange {
    if (this.fixedMaxSteps) return { min: this.maxSteps, max: this.maxSteps };
    const [fewest, most] = this.navigationBounds();
    const unit = this.navigationSteps();
    return { min: fewest * unit, max: most * unit, ...(fewest < most ? { rule: `${unit} per navigation the instruction needs` } : {}) };
  }

  override reset(opts: ResetOptions = {}): ResetResult<MiniGridObservation> {
    const r = super.reset(opts);
    this.afterReset();
    return { observation: r.observation, info: { mission: this.missionSpec, status: 'continue' } satisfies BabyAIInfo };
  }

  override step(action: number): StepResult<MiniGridObservation> {
    const r = super.step(action);
    // MiniGrid re-reads the matched objects' positions only when something was dropped.
    if (action === 4) for (const d of this.allDescs) d.find(this, false);
    const status = this.instrs.verify(this, action);
    if (status === 'success') {
      r.terminated = true;
      r.reward = this.successReward();
    } else if (status === 'failure') {
      r.terminated = true;
      r.reward = 0;
    }
    // A fresh object per step: recorders may keep the infos of a whole trajectory.
    r.info = { mission: this.missionSpec, status } satisfies BabyAIInfo;
    return r;
  }

  /** Each sequence node's [a_done, b_done], pre-order (the golden traces' `seq_state`). */
  sequenceState(): [DoneFlag, DoneFlag][] {
    return this.seq.map((s) => [s.aDone, s.bDone]);
  }

  inAgentRoom(x: number, y: number): boolean {
    const s = this.roomSize - 1;
    const left = Math.floor(this.agentX / s) * s;
    const top = Math.floor(this.agentY / s) * s;
    return x >= left && y >= top && x < left + this.roomSize && y < top + this.roomSize;
  }

  private bindInstructions(): void {
    this.instrs.reset(this);
    this.seq = seqNodes(this.instrs);
    this.allDescs = this.instrs.descs();
    this.missionSpec = deepFreeze(this.instrs.spec());
  }

  // ---- state -------------------------------------------------------------------------------

  override getState(): MiniGridState {
    const st = super.getState();
    const where = (id: number): Where => {
      if (id === this.carrying) return 'carried';
      for (let x = 0; x < this.width; x++) for (let y = 0; y < this.height; y++) if (this.get(x, y) === id) return [x, y];
      return null;
    };
    const descState = (d: ObjDesc): DescState => ({ ...d.spec, objs: d.ids.map((id) => encodeObject(this, id)), poss: d.poss.map((p) => [p[0], p[1]]), where: d.ids.map(where) });
    const tree = (i: Instr): unknown => {
      if (i instanceof SeqInstr) return { op: i.op, a: tree(i.a), b: tree(i.b), strict: i.strict };
      if (i instanceof PutNextInstr) return { op: 'putnext', move: descState(i.move), fixed: descState(i.fixed), strict: i.strict };
      if (i instanceof GoToInstr) return { op: 'goto', desc: descState(i.desc) };
      const c = i as PickupInstr | OpenInstr;
      return { op: c.op, desc: descState(c.desc), strict: c.strict };
    };
    const pre = clausesWithMemory(this.instrs).map((c) => (c.preCarrying === 0 ? null : where(c.preCarrying)));
    st.task = { kind: 'babyai', instr: tree(this.instrs), progress: { seq: this.sequenceState(), pre } };
    return { ...st, rooms: { num_rows: this.numRows, num_cols: this.numCols, room_size: this.roomSize } } as MiniGridState;
  }

  override setState(state: unknown): void {
    super.setState(state);
    const task = (state as { task?: { instr?: unknown; progress?: unknown } }).task;
    if (!task || typeof task.instr !== 'object' || task.instr === null) throw new MiniGridStateError('a BabyAI state needs task.instr (the instruction tree)');
    const raw = task.instr as Record<string, unknown>;
    this.instrs = instrFromSpec(raw as unknown as InstrSpec);
    const locate = (w: Where, enc: EncodedObject | undefined, what: string): number => {
      if (w === 'carried') {
        if (this.carrying === 0) throw new MiniGridStateError(`${what} is marked carried but the agent carries nothing`);
        return this.carrying;
      }
      if (w === null) {
        if (!enc) throw new MiniGridStateError(`${what} is gone from the world and has no encoding`);
        return this.newObject(enc[0], enc[1], enc[2]);
      }
      const id = this.get(w[0], w[1]);
      if (id === 0) throw new MiniGridStateError(`${what}: no object at ${JSON.stringify(w)}`);
      return id;
    };
    const bind = (d: ObjDesc, s: DescState | undefined, what: string): void => {
      if (!s || !Array.isArray(s.poss) || !Array.isArray(s.objs) || s.objs.length !== (s.where ?? s.poss).length) throw new MiniGridStateError(`${what} needs objs and poss of equal length`);
      const where = s.where ?? s.poss;
      d.ids = where.map((w, k) => locate(w, s.objs[k], `${what} object ${k}`));
      d.poss = s.poss.map((p) => [p[0], p[1]]);
      d.ids.forEach((id, k) => {
        const e = s.objs[k]!;
        if (this.objType[id] !== e[0] || this.objColor[id] !== e[1]) throw new MiniGridStateError(`${what} object ${k}: expected ${JSON.stringify(e)}, found ${JSON.stringify(encodeObject(this, id))}`);
      });
    };
    const walk = (i: Instr, r: Record<string, unknown>, path: string): void => {
      if (i instanceof SeqInstr) {
        walk(i.a, r.a as Record<string, unknown>, `${path}.a`);
        walk(i.b, r.b as Record<string, unknown>, `${path}.b`);
      } else if (i instanceof PutNextInstr) {
        bind(i.move, r.move as DescState, `${path}.move`);
        bind(i.fixed, r.fixed as DescState, `${path}.fixed`);
      } else {
        bind((i as GoToInstr).desc, r.desc as DescState, `${path}.desc`);
      }
    };
    walk(this.instrs, raw, 'instr');
    this.seq = seqNodes(this.instrs);
    this.allDescs = this.instrs.descs();
    const progress = task.progress as { seq?: [DoneFlag, DoneFlag][]; pre?: Where[] } | undefined;
    if (progress?.seq) {
      if (progress.seq.length !== this.seq.length) throw new MiniGridStateError(`task.progress.seq has ${progress.seq.length} entries for ${this.seq.length} sequence nodes`);
      this.seq.forEach((s, k) => {
        [s.aDone, s.bDone] = progress.seq![k]!;
      });
    }
    const clauses = clausesWithMemory(this.instrs);
    (progress?.pre ?? []).forEach((w, k) => {
      if (clauses[k]) clauses[k].preCarrying = w === null ? 0 : locate(w, undefined, `task.progress.pre[${k}]`);
    });
    this.missionSpec = deepFreeze(this.instrs.spec());
  }

  // ---- generation helpers (RoomGrid / RoomGridLevel methods, same RNG order) ------------------

  /** RoomGrid.place_agent: a random room unless given (column first), front cell free or a wall. */
  placeAgentIn(i?: number, j?: number): [number, number] {
    const ii = i ?? this.randInt(0, this.numCols);
    const jj = j ?? this.randInt(0, this.numRows);
    return this.placeAgentInRoom(ii, jj);
  }

  /** `add_distractors`: random (kind, colour) objects in the given or random rooms, optionally all unlike any existing object. */
  addDistractors(i: number | undefined, j: number | undefined, count: number, allUnique = true): number[] {
    const seen = new Set<number>();
    for (const row of this.rooms) for (const room of row) for (const id of room.objs) seen.add(this.objType[id]! * 16 + this.objColor[id]!);
    const out: number[] = [];
    while (out.length < count) {
      const color = COLOR[this.randElem(COLOR_NAMES)];
      const kind = this.randElem(['key', 'ball', 'box'] as const);
      const key = OBJECT[kind] * 16 + color;
      if (allUnique && seen.has(key)) continue;
      const ri = i ?? this.randInt(0, this.numCols);
      const rj = j ?? this.randInt(0, this.numRows);
      out.push(this.addObject(ri, rj, kind, color).id);
      seen.add(key);
    }
    return out;
  }

  /** Every door of every room, column-major, each door once per room it borders (MiniGrid's list). */
  allRoomDoors(): number[] {
    const doors: number[] = [];
    for (let i = 0; i < this.numCols; i++) for (let j = 0; j < this.numRows; j++) for (const d of this.room(i, j).doors) if (d > 0) doors.push(d);
    return doors;
  }

  openAllDoors(): void {
    for (const d of this.allRoomDoors()) this.restyle(d, this.objColor[d]!, STATE.open);
  }

  /** Every non-wall object reachable from the agent without moving anything (doors pass). */
  checkObjsReachable(raise = true): boolean {
    const w = this.width;
    const h = this.height;
    const seen = new Uint8Array(w * h);
    const stack: number[] = [this.agentX, this.agentY];
    while (stack.length > 0) {
      const y = stack.pop()!;
      const x = stack.pop()!;
      if (x < 0 || y < 0 || x >= w || y >= h || seen[x * h + y]) continue;
      seen[x * h + y] = 1;
      const id = this.get(x, y);
      if (id !== 0 && this.objType[id] !== OBJECT.door) continue;
      stack.push(x + 1, y, x - 1, y, x, y + 1, x, y - 1);
    }
    for (let x = 0; x < w; x++) {
      for (let y = 0; y < h; y++) {
        const id = this.get(x, y);
        if (id === 0 || this.objType[id] === OBJECT.wall || seen[x * h + y]) continue;
        if (!raise) return false;
        throw new RejectSamplingError(`unreachable object at (${x}, ${y})`);
      }
    }
    return true;
  }

  colorName(id: number): ColorName {
    return COLOR_INDEX_NAMES[this.objColor[id]!]!;
  }

  typeName(id: number): BabyAIObjType {
    const t = this.objType[id];
    return t === OBJECT.door ? 'door' : t === OBJECT.key ? 'key' : t === OBJECT.ball ? 'ball' : 'box';
  }

  /** ObjDesc(obj.type, obj.color) for a placed object. */
  describe(id: number, withColor = true, withType = true): ObjDesc {
    return new ObjDesc({ type: withType ? this.typeName(id) : null, color: withColor ? this.colorName(id) : null, loc: null });
  }

  /** `validate_instrs`: no PutNext already satisfied or self-referential; with unblocking, no key matching a locked door. */
  private validateInstrs(instr: Instr): void {
    const lockedColors = new Set<number>();
    if (this.unblocking) {
      for (let i = 0; i < this.numCols; i++) for (let j = 0; j < this.numRows; j++) for (const d of this.room(i, j).doors) if (d > 0 && this.objState[d] === STATE.locked) lockedColors.add(this.objColor[d]!);
    }
    if (instr instanceof PutNextInstr) {
      instr.reset(this);
      const fixed = new Set(instr.fixed.ids);
      if (instr.move.ids.some((id) => fixed.has(id))) throw new RejectSamplingError('there are objects that match both lhs and rhs of PutNext');
      if (instr.objsNext()) throw new RejectSamplingError('objs already next to each other');
    }
    if (instr instanceof ActionInstr || instr instanceof PutNextInstr) {
      if (!this.unblocking) return;
      for (const d of instr.descs()) {
        if (d.spec.type === 'key' && d.spec.color !== null && lockedColors.has(COLOR[d.spec.color])) throw new RejectSamplingError('cannot do anything with/to a key that can be used to open a door');
      }
      return;
    }
    if (instr instanceof SeqInstr) {
      this.validateInstrs(instr.a);
      this.validateInstrs(instr.b);
    }
  }
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object') {
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
    Object.freeze(v);
  }
  return v;
}

function clausesWithMemory(i: Instr, out: (PickupInstr | PutNextInstr)[] = []): (PickupInstr | PutNextInstr)[] {
  if (i instanceof SeqInstr) {
    clausesWithMemory(i.a, out);
    clausesWithMemory(i.b, out);
  } else if (i instanceof PickupInstr || i instanceof PutNextInstr) out.push(i);
  return out;
}

export interface LevelGenConfig extends BabyAILevelConfig {
  numDists?: number;
  lockedRoomProb?: number;
  locations?: boolean;
  unblocking?: boolean;
  implicitUnlock?: boolean;
  actionKinds?: readonly ('goto' | 'pickup' | 'open' | 'putnext')[];
  instrKinds?: readonly ('action' | 'and' | 'seq')[];
}

type ActionKind = 'goto' | 'pickup' | 'open' | 'putnext';
type InstrKind = 'action' | 'and' | 'seq';

/** LevelGen: a locked room (sometimes), connected doors, distractors, then a random instruction. */
export class LevelGen extends BabyAILevel {
  readonly numDists: number;
  readonly lockedRoomProb: number;
  readonly locations: boolean;
  readonly implicitUnlock: boolean;
  readonly actionKinds: readonly ActionKind[];
  readonly instrKinds: readonly InstrKind[];
  /**
   * Deliberately never cleared: MiniGrid keeps the last locked room across retries and
   * episodes, and with implicit_unlock off rand_obj still avoids that stale room's area.
   */
  private lockedRoom: Room | null = null;

  constructor(cfg: LevelGenConfig = {}) {
    super({ roomSize: cfg.roomSize ?? 8, numRows: cfg.numRows ?? 3, numCols: cfg.numCols ?? 3, maxSteps: cfg.maxSteps });
    this.numDists = cfg.numDists ?? 18;
    this.lockedRoomProb = cfg.lockedRoomProb ?? 0.5;
    this.locations = cfg.locations ?? true;
    this.unblocking = cfg.unblocking ?? true;
    this.implicitUnlock = cfg.implicitUnlock ?? true;
    this.actionKinds = cfg.actionKinds ?? ['goto', 'pickup', 'open', 'putnext'];
    this.instrKinds = cfg.instrKinds ?? ['action', 'and', 'seq'];
  }

  protected genMission(): void {
    if (this.rng.uniform(0, 1) < this.lockedRoomProb) this.addLockedRoom();
    this.connectAll();
    this.addDistractors(undefined, undefined, this.numDists, false);
    for (;;) {
      this.placeAgentIn();
      if (this.roomFromPos(this.agentX, this.agentY) !== this.lockedRoom) break;
    }
    if (!this.unblocking) this.checkObjsReachable();
    this.instrs = this.randInstr(this.actionKinds, this.instrKinds);
  }

  private addLockedRoom(): void {
    let door = 0;
    for (;;) {
      const i = this.randInt(0, this.numCols);
      const j = this.randInt(0, this.numRows);
      const k = this.randInt(0, 4);
      this.lockedRoom = this.room(i, j);
      if (!this.lockedRoom.neighbors[k]) continue;
      door = this.addDoor(i, j, k, undefined, true).id;
      break;
    }
    for (;;) {
      const i = this.randInt(0, this.numCols);
      const j = this.randInt(0, this.numRows);
      if (this.room(i, j) === this.lockedRoom) continue;
      this.addObject(i, j, 'key', this.objColor[door]);
      break;
    }
  }

  /** `rand_obj`: draw (colour or none, type, maybe location) until something matches; 100 tries. */
  randObj(types: readonly BabyAIObjType[] = OBJ_TYPES, maxTries = 100): ObjDesc {
    const colors: readonly (ColorName | null)[] = [null, ...COLOR_NAMES];
    for (let tries = 0; ; tries++) {
      if (tries > maxTries) throw new RejectSamplingError('failed to find suitable object');
      const color = this.randElem(colors);
      const type = this.randElem(types);
      const loc = this.locations && this.randBool() ? this.randElem(LOC_NAMES) : null;
      const desc = new ObjDesc({ type, color, loc });
      desc.find(this);
      if (desc.ids.length === 0) continue;
      const locked = this.lockedRoom;
      if (!this.implicitUnlock && locked) {
        const inside = (p: [number, number]): boolean => p[0] >= locked.top[0] && p[1] >= locked.top[1] && p[0] < locked.top[0] + locked.size[0] && p[1] < locked.top[1] + locked.size[1];
        if (desc.poss.every(inside)) continue;
      }
      return desc;
    }
  }

  /** randInstr's shapes: an action (put next needs two navigations), "and" of two actions, a sequence of two actions or "and"s. */
  protected override navigationBounds(): readonly [number, number] {
    const navs = this.actionKinds.map((k) => (k === 'putnext' ? 2 : 1));
    const [fewest, most] = [Math.min(...navs), Math.max(...navs)];
    const shapes: Record<InstrKind, readonly [number, number]> = { action: [fewest, most], and: [2 * fewest, 2 * most], seq: [2 * fewest, 4 * most] };
    const bounds = this.instrKinds.map((k) => shapes[k]);
    return [Math.min(...bounds.map((b) => b[0])), Math.max(...bounds.map((b) => b[1]))];
  }

  randInstr(actionKinds: readonly ActionKind[], instrKinds: readonly InstrKind[]): Instr {
    const kind = this.randElem(instrKinds);
    if (kind === 'action') {
      const action = this.randElem(actionKinds);
      if (action === 'goto') return new GoToInstr(this.randObj());
      if (action === 'pickup') return new PickupInstr(this.randObj(OBJ_TYPES_NOT_DOOR));
      if (action === 'open') return new OpenInstr(this.randObj(['door']));
      const move = this.randObj(OBJ_TYPES_NOT_DOOR);
      return new PutNextInstr(move, this.randObj());
    }
    if (kind === 'and') {
      const a = this.randInstr(actionKinds, ['action']);
      return new AndInstr(a, this.randInstr(actionKinds, ['action']));
    }
    const a = this.randInstr(actionKinds, ['action', 'and']);
    const b = this.randInstr(actionKinds, ['action', 'and']);
    return this.randElem(['before', 'after'] as const) === 'before' ? new BeforeInstr(a, b) : new AfterInstr(a, b);
  }
}
