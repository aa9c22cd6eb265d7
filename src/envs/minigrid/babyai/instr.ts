/**
 * The BabyAI instruction language (MiniGrid 3.1 `babyai/core/verifier.py`): object descriptions,
 * the four action clauses and the three sequence operators, their English surface form and
 * their verifiers.
 *
 * A description tracks the objects it matched when the verifier was reset (identity, not
 * type/colour: a second red ball does not count) and their positions. The positions are only
 * refreshed after a drop action, as MiniGrid does; GoTo and PutNext compare against those
 * possibly stale positions, so the staleness is part of the task's semantics.
 */
import { COLOR, COLOR_INDEX_NAMES, DIR_DX, DIR_DY, OBJECT, STATE, type ColorName } from '../constants';

export type BabyAIObjType = 'box' | 'ball' | 'key' | 'door';
export type BabyAILoc = 'left' | 'right' | 'front' | 'behind';
export type Status = 'continue' | 'success' | 'failure';

export const OBJ_TYPES: readonly BabyAIObjType[] = ['box', 'ball', 'key', 'door'];
export const OBJ_TYPES_NOT_DOOR: readonly BabyAIObjType[] = ['box', 'ball', 'key'];
export const LOC_NAMES: readonly BabyAILoc[] = ['left', 'right', 'front', 'behind'];

/** A description as policies see it: null fields are unconstrained. */
export interface ObjDescSpec {
  type: BabyAIObjType | null;
  color: ColorName | null;
  loc: BabyAILoc | null;
}

/** The instruction tree as plain data (what `info.mission` carries). */
export type InstrSpec =
  | { op: 'goto'; desc: ObjDescSpec }
  | { op: 'pickup'; desc: ObjDescSpec; strict: boolean }
  | { op: 'open'; desc: ObjDescSpec; strict: boolean }
  | { op: 'putnext'; move: ObjDescSpec; fixed: ObjDescSpec; strict: boolean }
  | { op: 'before' | 'after' | 'and'; a: InstrSpec; b: InstrSpec; strict: boolean };

/** What the verifier needs from the world; BabyAILevel implements it. */
export interface VerifierWorld {
  readonly width: number;
  readonly height: number;
  readonly agentX: number;
  readonly agentY: number;
  readonly agentDir: number;
  readonly carrying: number;
  readonly objType: Uint8Array;
  readonly objColor: Uint8Array;
  readonly objState: Uint8Array;
  get(x: number, y: number): number;
  /** Whether (x, y) lies in the room holding the agent (walls included), for location words. */
  inAgentRoom(x: number, y: number): boolean;
}

const TYPE_INDEX: Record<BabyAIObjType, number> = { box: OBJECT.box, ball: OBJECT.ball, key: OBJECT.key, door: OBJECT.door };

/** A description bound to a world: the matched object ids and the verifier's positions for them. */
export class ObjDesc {
  /** Matched object ids, one per matching cell (the shared wall id can repeat). */
  ids: number[] = [];
  poss: [number, number][] = [];

  constructor(readonly spec: ObjDescSpec) {}

  /**
   * `find_matching_objs`: with `useLocation`, rematch from scratch (type, colour, location
   * relative to the agent's current pose and room); without, keep the tracked objects and
   * only re-read where they are. Scan order is x outer, y inner.
   */
  find(w: VerifierWorld, useLocation = true): void {
    const { type, color, loc } = this.spec;
    const t = type === null ? -1 : TYPE_INDEX[type];
    const c = color === null ? -1 : COLOR[color];
    const tracked = useLocation ? null : new Set(this.ids);
    if (useLocation) this.ids = [];
    this.poss = [];
    const d1x = DIR_DX[w.agentDir]!;
    const d1y = DIR_DY[w.agentDir]!;
    for (let x = 0; x < w.width; x++) {
      for (let y = 0; y < w.height; y++) {
        const id = w.get(x, y);
        if (id === 0) continue;
        if (tracked && !tracked.has(id)) continue;
        if (t >= 0 && w.objType[id] !== t) continue;
        if (c >= 0 && w.objColor[id] !== c) continue;
        if (useLocation && loc !== null) {
          if (!w.inAgentRoom(x, y)) continue;
          const vx = x - w.agentX;
          const vy = y - w.agentY;
          // (d1, d2) is the agent's forward/right basis.
          const fwd = vx * d1x + vy * d1y;
          const right = vx * -d1y + vy * d1x;
          const ok = loc === 'left' ? right < 0 : loc === 'right' ? right > 0 : loc === 'front' ? fwd > 0 : fwd < 0;
          if (!ok) continue;
        }
        if (useLocation) this.ids.push(id);
        this.poss.push([x, y]);
      }
    }
  }

  /** Natural-language form; "the" for a unique match, "a" otherwise. */
  surface(): string {
    const { type, color, loc } = this.spec;
    let s: string = type ?? 'object';
    if (color) s = `${color} ${s}`;
    if (loc === 'front') s += ' in front of you';
    else if (loc === 'behind') s += ' behind you';
    else if (loc) s += ` on your ${loc}`;
    return (this.ids.length > 1 ? 'a ' : 'the ') + s;
  }
}

export abstract class Instr {
  abstract readonly op: InstrSpec['op'];
  abstract surface(): string;
  /** Rebinds every description to the world and clears progress (start of an episode). */
  abstract reset(w: VerifierWorld): void;
  abstract verify(w: VerifierWorld, action: number): Status;
  abstract descs(): ObjDesc[];
  abstract spec(): InstrSpec;
  /** MiniGrid's num_navs_needed: the episode budget is this many maze traversals. */
  abstract navs(): number;
}

export abstract class ActionInstr extends Instr {
  navs(): number {
    return 1;
  }
}

const ACT_PICKUP = 3;
const ACT_DROP = 4;
const ACT_TOGGLE = 5;

function frontPos(w: VerifierWorld): [number, number] {
  return [w.agentX + DIR_DX[w.agentDir]!, w.agentY + DIR_DY[w.agentDir]!];
}

export class GoToInstr extends ActionInstr {
  readonly op = 'goto';
  constructor(readonly desc: ObjDesc) {
    super();
  }
  surface(): string {
    return `go to ${this.desc.surface()}`;
  }
  reset(w: VerifierWorld): void {
    this.desc.find(w);
  }
  /** Success whenever the agent faces one of the (verifier's) positions, whatever the action. */
  verify(w: VerifierWorld): Status {
    const [fx, fy] = frontPos(w);
    for (const p of this.desc.poss) if (p[0] === fx && p[1] === fy) return 'success';
    return 'continue';
  }
  descs(): ObjDesc[] {
    return [this.desc];
  }
  spec(): InstrSpec {
    return { op: 'goto', desc: { ...this.desc.spec } };
  }
}

export class OpenInstr extends ActionInstr {
  readonly op = 'open';
  constructor(
    readonly desc: ObjDesc,
    readonly strict = false,
  ) {
    super();
    if (desc.spec.type !== 'door') throw new TypeError('open needs a door description');
  }
  surface(): string {
    return `open ${this.desc.surface()}`;
  }
  reset(w: VerifierWorld): void {
    this.desc.find(w);
  }
  verify(w: VerifierWorld, action: number): Status {
    if (action !== ACT_TOGGLE) return 'continue';
    const [fx, fy] = frontPos(w);
    const front = w.get(fx, fy);
    if (front !== 0 && this.desc.ids.includes(front) && w.objState[front] === STATE.open) return 'success';
    if (this.strict && front !== 0 && w.objType[front] === OBJECT.door) return 'failure';
    return 'continue';
  }
  descs(): ObjDesc[] {
    return [this.desc];
  }
  spec(): InstrSpec {
    return { op: 'open', desc: { ...this.desc.spec }, strict: this.strict };
  }
}

export class PickupInstr extends ActionInstr {
  readonly op = 'pickup';
  /** What the agent carried after the last step this clause was verified (0 = nothing). */
  preCarrying = 0;
  constructor(
    readonly desc: ObjDesc,
    readonly strict = false,
  ) {
    super();
    if (desc.spec.type === 'door') throw new TypeError('pickup cannot target a door');
  }
  surface(): string {
    return `pick up ${this.desc.surface()}`;
  }
  reset(w: VerifierWorld): void {
    this.preCarrying = 0;
    this.desc.find(w);
  }
  verify(w: VerifierWorld, action: number): Status {
    const pre = this.preCarrying;
    this.preCarrying = w.carrying;
    if (action !== ACT_PICKUP) return 'continue';
    if (pre === 0 && w.carrying !== 0 && this.desc.ids.includes(w.carrying)) return 'success';
    if (this.strict && w.carrying !== 0) return 'failure';
    return 'continue';
  }
  descs(): ObjDesc[] {
    return [this.desc];
  }
  spec(): InstrSpec {
    return { op: 'pickup', desc: { ...this.desc.spec }, strict: this.strict };
  }
}

const nextTo = (ax: number, ay: number, b: readonly [number, number]): boolean => Math.abs(ax - b[0]) + Math.abs(ay - b[1]) === 1;

export class PutNextInstr extends Instr {
  readonly op = 'putnext';
  preCarrying = 0;
  constructor(
    readonly move: ObjDesc,
    readonly fixed: ObjDesc,
    readonly strict = false,
  ) {
    super();
    if (move.spec.type === 'door') throw new TypeError('putnext cannot move a door');
  }
  navs(): number {
    return 2;
  }
  surface(): string {
    return `put ${this.move.surface()} next to ${this.fixed.surface()}`;
  }
  reset(w: VerifierWorld): void {
    this.preCarrying = 0;
    this.move.find(w);
    this.fixed.find(w);
  }
  /** Generation-time check: is some movable match already next to a fixed position? */
  objsNext(): boolean {
    for (const [ax, ay] of this.move.poss) for (const b of this.fixed.poss) if (nextTo(ax, ay, b)) return true;
    return false;
  }
  verify(w: VerifierWorld, action: number): Status {
    const pre = this.preCarrying;
    this.preCarrying = w.carrying;
    if (this.strict && action === ACT_PICKUP && w.carrying !== 0) return 'failure';
    if (action !== ACT_DROP) return 'continue';
    // The object just dropped lies in front; a failed drop leaves it carried (off the grid).
    if (pre === 0 || !this.move.ids.includes(pre) || w.carrying === pre) return 'continue';
    const [fx, fy] = frontPos(w);
    for (const b of this.fixed.poss) if (nextTo(fx, fy, b)) return 'success';
    return 'continue';
  }
  descs(): ObjDesc[] {
    return [this.move, this.fixed];
  }
  spec(): InstrSpec {
    return { op: 'putnext', move: { ...this.move.spec }, fixed: { ...this.fixed.spec }, strict: this.strict };
  }
}

/** Progress of one part of a sequence: false until first verified, then its last status. */
export type DoneFlag = false | Status;

export abstract class SeqInstr extends Instr {
  aDone: DoneFlag = false;
  bDone: DoneFlag = false;
  abstract override readonly op: 'before' | 'after' | 'and';
  constructor(
    readonly a: Instr,
    readonly b: Instr,
    readonly strict = false,
  ) {
    super();
  }
  reset(w: VerifierWorld): void {
    this.a.reset(w);
    this.b.reset(w);
    this.aDone = false;
    this.bDone = false;
  }
  navs(): number {
    return this.a.navs() + this.b.navs();
  }
  descs(): ObjDesc[] {
    return [...this.a.descs(), ...this.b.descs()];
  }
  spec(): InstrSpec {
    return { op: this.op, a: this.a.spec(), b: this.b.spec(), strict: this.strict };
  }
}

export class BeforeInstr extends SeqInstr {
  readonly op = 'before';
  surface(): string {
    return `${this.a.surface()}, then ${this.b.surface()}`;
  }
  verify(w: VerifierWorld, action: number): Status {
    if (this.aDone === 'success') {
      this.bDone = this.b.verify(w, action);
      if (this.bDone === 'failure') return 'failure';
      if (this.bDone === 'success') return 'success';
    } else {
      this.aDone = this.a.verify(w, action);
      if (this.aDone === 'failure') return 'failure';
      // b is checked against the same action the moment a completes.
      if (this.aDone === 'success') return this.verify(w, action);
      if (this.strict && this.b.verify(w, action) === 'success') return 'failure';
    }
    return 'continue';
  }
}

export class AfterInstr extends SeqInstr {
  readonly op = 'after';
  surface(): string {
    return `${this.a.surface()} after you ${this.b.surface()}`;
  }
  verify(w: VerifierWorld, action: number): Status {
    if (this.bDone === 'success') {
      this.aDone = this.a.verify(w, action);
      if (this.aDone === 'success') return 'success';
      if (this.aDone === 'failure') return 'failure';
    } else {
      this.bDone = this.b.verify(w, action);
      if (this.bDone === 'failure') return 'failure';
      if (this.bDone === 'success') return this.verify(w, action);
      if (this.strict && this.a.verify(w, action) === 'success') return 'failure';
    }
    return 'continue';
  }
}

export class AndInstr extends SeqInstr {
  readonly op = 'and';
  surface(): string {
    return `${this.a.surface()} and ${this.b.surface()}`;
  }
  verify(w: VerifierWorld, action: number): Status {
    if (this.aDone !== 'success') this.aDone = this.a.verify(w, action);
    if (this.bDone !== 'success') this.bDone = this.b.verify(w, action);
    return this.aDone === 'success' && this.bDone === 'success' ? 'success' : 'continue';
  }
}

/** Every sequence node in pre-order (root, a's subtree, b's subtree). */
export function seqNodes(instr: Instr, out: SeqInstr[] = []): SeqInstr[] {
  if (instr instanceof SeqInstr) {
    out.push(instr);
    seqNodes(instr.a, out);
    seqNodes(instr.b, out);
  }
  return out;
}

/** Builds an (unbound) instruction from its plain-data form. */
export function instrFromSpec(spec: InstrSpec): Instr {
  const d = (s: ObjDescSpec): ObjDesc => new ObjDesc(checkDesc(s));
  switch (spec.op) {
    case 'goto':
      return new GoToInstr(d(spec.desc));
    case 'pickup':
      return new PickupInstr(d(spec.desc), spec.strict === true);
    case 'open':
      return new OpenInstr(d(spec.desc), spec.strict === true);
    case 'putnext':
      return new PutNextInstr(d(spec.move), d(spec.fixed), spec.strict === true);
    case 'before':
      return new BeforeInstr(instrFromSpec(spec.a), instrFromSpec(spec.b), spec.strict === true);
    case 'after':
      return new AfterInstr(instrFromSpec(spec.a), instrFromSpec(spec.b), spec.strict === true);
    case 'and':
      return new AndInstr(instrFromSpec(spec.a), instrFromSpec(spec.b), spec.strict === true);
    default:
      throw new TypeError(`unknown BabyAI instruction op ${JSON.stringify((spec as { op?: unknown }).op)}`);
  }
}

function checkDesc(s: ObjDescSpec): ObjDescSpec {
  if (!s || typeof s !== 'object') throw new TypeError('a BabyAI object description must be an object');
  if (s.type !== null && !OBJ_TYPES.includes(s.type)) throw new TypeError(`unknown BabyAI object type ${JSON.stringify(s.type)}`);
  if (s.color !== null && !(COLOR_INDEX_NAMES as readonly string[]).includes(s.color)) throw new TypeError(`unknown colour ${JSON.stringify(s.color)}`);
  if (s.loc !== null && s.loc !== undefined && !LOC_NAMES.includes(s.loc)) throw new TypeError(`unknown location ${JSON.stringify(s.loc)}`);
  return { type: s.type, color: s.color, loc: s.loc ?? null };
}
