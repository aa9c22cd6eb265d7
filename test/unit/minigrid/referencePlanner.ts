/**
 * The reference planner: a scripted policy that reads the full world (not the 7×7 view) and
 * plans with BFS. Each step it finds the task target (goal tile, target object or door), and
 * if it cannot reach it, takes the cheapest "relaxed" path that may cross obstacles (closed
 * doors, locked doors, movable objects) and deals with the first obstacle on it: toggle a
 * closed door, fetch the matching key (opening the box that hides it) for a locked door, pick
 * up a blocking object and drop it where it blocks nothing. It is the tests' proof that
 * generated layouts are solvable and the yardstick for "a planner scores ≥ 0.9".
 */
import * as C from '../../../src/envs/minigrid/constants';
import type { MiniGridEnv } from '../../../src/envs/minigrid/minigridEnv';

// Local copies: imported bindings may compile to getters, too slow inside the BFS loops.
const ACTION = { ...C.ACTION };
const OBJECT = { ...C.OBJECT };
const STATE = { ...C.STATE };
const DIR_DX: readonly number[] = [...C.DIR_DX];
const DIR_DY: readonly number[] = [...C.DIR_DY];

const INF = 1 << 30;
const COST_FREE = 1;
const COST_CLOSED_DOOR = 3;
const COST_OBJECT = 8;
const COST_LOCKED_DOOR = 30;

type Mode = 'stand' | 'pickup' | 'toggle' | 'unlock';

export class ReferencePlanner {
  private w = 0;
  private h = 0;
  private relaxedDist = new Int32Array(0);
  private relaxedPrev = new Int32Array(0);
  private finalTarget = -1;
  // Scratch buffers reused across steps.
  private navFirst = new Int8Array(0);
  private navQueue = new Int32Array(0);
  private seen = new Uint8Array(0);
  private relaxQueue = new Int32Array(0);
  private inQueue = new Uint8Array(0);
  private stepCost = new Int32Array(0);

  constructor(private readonly env: MiniGridEnv) {}

  act(): number {
    const env = this.env;
    this.w = env.width;
    this.h = env.height;
    this.relax();
    let target = -1;
    let mode: Mode = 'stand';
    if (env.taskKind === 'goal') {
      target = this.find((id) => env.objType[id] === OBJECT.goal);
    } else if (env.taskKind === 'pickup') {
      if (env.carrying === env.targetId) return ACTION.done;
      target = this.find((id) => id === env.targetId);
      mode = 'pickup';
    } else {
      target = this.find((id) => id === env.targetId);
      mode = env.objState[env.targetId] === STATE.locked ? 'unlock' : 'toggle';
    }
    if (target < 0) return ACTION.done;
    this.finalTarget = target;
    return this.pursue(target, mode, 0) ?? ACTION.done;
  }

  /** The next action toward doing `mode` at cell `t`, or null when that is impossible. */
  private pursue(t: number, mode: Mode, depth: number): number | null {
    if (depth > 6) return null;
    const env = this.env;
    if (mode === 'stand') {
      const a = this.navigate((x, y) => x + y * this.w === t, false);
      if (a !== null) return a;
    } else {
      const a = this.navigate((x, y) => x + y * this.w === t, true);
      if (a !== null) {
        if (mode === 'pickup' && env.carrying !== 0) return this.dropSafely(t);
        if (mode === 'unlock') {
          const color = env.objColor[this.idAt(t)]!;
          const c = env.carrying;
          if (c === 0 || env.objType[c] !== OBJECT.key || env.objColor[c] !== color) return this.fetchKey(color, depth);
        }
        if (a === -1) return mode === 'pickup' ? ACTION.pickup : ACTION.toggle;
        return a;
      }
    }
    // Not reachable: deal with the first obstacle on the cheapest relaxed path.
    const blocker = this.firstBlocker(t);
    if (blocker < 0 || blocker === t) return null;
    const id = this.idAt(blocker);
    const type = env.objType[id]!;
    if (type === OBJECT.door) return this.pursue(blocker, env.objState[id] === STATE.locked ? 'unlock' : 'toggle', depth + 1);
    // A box in the way is opened rather than carried off: what it hides is usually needed.
    if (type === OBJECT.box && env.objContains[id] !== 0) return this.pursue(blocker, 'toggle', depth + 1);
    if (type === OBJECT.key || type === OBJECT.ball || type === OBJECT.box) return this.pursue(blocker, 'pickup', depth + 1);
    return null;
  }

  /** Fetch a key of this colour: a loose one, else open the box that holds one. */
  private fetchKey(color: number, depth: number): number | null {
    const env = this.env;
    const isKey = (id: number): boolean => env.objType[id] === OBJECT.key && env.objColor[id] === color;
    const loose = this.nearest((id) => isKey(id));
    if (loose >= 0) return this.pursue(loose, 'pickup', depth + 1);
    const c = env.carrying;
    if (c !== 0 && env.objType[c] === OBJECT.box && env.objContains[c] !== 0 && isKey(env.objContains[c]!)) return this.dropSafely(-1);
    const box = this.nearest((id) => env.objType[id] === OBJECT.box && env.objContains[id] !== 0 && isKey(env.objContains[id]!));
    if (box >= 0) return this.pursue(box, 'toggle', depth + 1);
    return null;
  }

  private idAt(cell: number): number {
    return this.env.get(cell % this.w, Math.floor(cell / this.w));
  }

  private find(pred: (id: number) => boolean): number {
    for (let y = 0; y < this.h; y++) {
      for (let x = 0; x < this.w; x++) {
        const id = this.env.get(x, y);
        if (id !== 0 && pred(id)) return x + y * this.w;
      }
    }
    return -1;
  }

  /** The matching cell with the smallest relaxed distance from the agent. */
  private nearest(pred: (id: number) => boolean): number {
    let best = -1;
    let bestD = INF;
    for (let cell = 0; cell < this.w * this.h; cell++) {
      const id = this.idAt(cell);
      if (id !== 0 && pred(id) && this.relaxedDist[cell]! < bestD) {
        best = cell;
        bestD = this.relaxedDist[cell]!;
      }
    }
    return best;
  }

  private passable(x: number, y: number): boolean {
    if (x < 0 || y < 0 || x >= this.w || y >= this.h) return false;
    const id = this.env.get(x, y);
    if (id === 0) return true;
    return this.env.objType[id] !== OBJECT.lava && this.env.canOverlap(id);
  }

  /** Relaxed step cost onto a cell: obstacles cost what clearing them roughly takes; walls and lava are impassable. */
  private relaxedCost(cell: number): number {
    const id = this.idAt(cell);
    if (id === 0) return COST_FREE;
    const env = this.env;
    const t = env.objType[id]!;
    if (t === OBJECT.wall || t === OBJECT.lava) return INF;
    if (t === OBJECT.door) return env.objState[id] === STATE.open ? COST_FREE : env.objState[id] === STATE.locked ? COST_LOCKED_DOOR : COST_CLOSED_DOOR;
    if (t === OBJECT.key || t === OBJECT.ball || t === OBJECT.box) return COST_OBJECT;
    return COST_FREE;
  }

  /** Shortest relaxed distances from the agent (label-correcting queue; the grids are tiny). */
  private relax(): void {
    const n = this.w * this.h;
    if (this.relaxedDist.length !== n) {
      this.relaxedDist = new Int32Array(n);
      this.relaxedPrev = new Int32Array(n);
      this.relaxQueue = new Int32Array(n);
      this.inQueue = new Uint8Array(n);
      this.stepCost = new Int32Array(n);
    }
    const dist = this.relaxedDist.fill(INF);
    const prev = this.relaxedPrev.fill(-1);
    const queue = this.relaxQueue;
    const inQueue = this.inQueue.fill(0);
    const cost = this.stepCost;
    for (let c = 0; c < n; c++) cost[c] = this.relaxedCost(c);
    const start = this.env.agentX + this.env.agentY * this.w;
    dist[start] = 0;
    // Ring buffer: a cell is in the queue at most once at a time, so n slots suffice.
    let head = 0;
    let size = 1;
    queue[0] = start;
    inQueue[start] = 1;
    while (size > 0) {
      const cell = queue[head]!;
      head = (head + 1) % n;
      size--;
      inQueue[cell] = 0;
      const x = cell % this.w;
      const y = (cell - x) / this.w;
      for (let k = 0; k < 4; k++) {
        const nx = x + DIR_DX[k]!;
        const ny = y + DIR_DY[k]!;
        if (nx < 0 || ny < 0 || nx >= this.w || ny >= this.h) continue;
        const nc = nx + ny * this.w;
        const c = cost[nc]!;
        if (c >= INF) continue;
        const nd = dist[cell]! + c;
        if (nd < dist[nc]!) {
          dist[nc] = nd;
          prev[nc] = cell;
          if (!inQueue[nc]) {
            inQueue[nc] = 1;
            queue[(head + size) % n] = nc;
            size++;
          }
        }
      }
    }
  }

  /** The obstacle closest to the agent on the relaxed path to `t` (t itself when none is in between). */
  private firstBlocker(t: number): number {
    if (this.relaxedDist[t]! >= INF) return -1;
    let blocker = -1;
    for (let cell = t; cell >= 0; cell = this.relaxedPrev[cell]!) {
      const x = cell % this.w;
      if (!this.passable(x, (cell - x) / this.w) && cell !== t) blocker = cell;
    }
    return blocker < 0 ? t : blocker;
  }

  /**
   * BFS over poses (x, y, dir) with left/right/forward. `face`: the goal holds when the cell in
   * front satisfies `goal`; otherwise when the agent stands on such a cell. Returns the first
   * action, -1 when the goal already holds, null when unreachable.
   */
  private navigate(goal: (x: number, y: number) => boolean, face: boolean, accept?: (x: number, y: number, d: number) => boolean): number | null {
    const env = this.env;
    const n = this.w * this.h * 4;
    if (this.navFirst.length !== n) {
      this.navFirst = new Int8Array(n);
      this.navQueue = new Int32Array(n);
    }
    const first = this.navFirst.fill(-2);
    const holds = (x: number, y: number, d: number): boolean => {
      const gx = face ? x + DIR_DX[d]! : x;
      const gy = face ? y + DIR_DY[d]! : y;
      return goal(gx, gy) && (!accept || accept(x, y, d));
    };
    const sx = env.agentX;
    const sy = env.agentY;
    const sd = env.agentDir;
    if (holds(sx, sy, sd)) return -1;
    const queue = this.navQueue;
    let head = 0;
    let tail = 0;
    const s0 = (sx + sy * this.w) * 4 + sd;
    first[s0] = -1;
    queue[tail++] = s0;
    while (head < tail) {
      const s = queue[head++]!;
      const d = s & 3;
      const cell = s >> 2;
      const x = cell % this.w;
      const y = (cell - x) / this.w;
      const fx = x + DIR_DX[d]!;
      const fy = y + DIR_DY[d]!;
      const canMove = this.passable(fx, fy);
      for (let m = 0; m < 3; m++) {
        let a: number;
        let ns: number;
        if (m === 0) {
          a = ACTION.left;
          ns = s - d + ((d + 3) & 3);
        } else if (m === 1) {
          a = ACTION.right;
          ns = s - d + ((d + 1) & 3);
        } else {
          if (!canMove) break;
          a = ACTION.forward;
          ns = (fx + fy * this.w) * 4 + d;
        }
        if (first[ns] !== -2) continue;
        first[ns] = first[s] === -1 ? a : first[s]!;
        const nd = ns & 3;
        const nc = ns >> 2;
        const nx = nc % this.w;
        const ny = (nc - nx) / this.w;
        if (holds(nx, ny, nd)) return first[ns]!;
        queue[tail++] = ns;
      }
    }
    return null;
  }

  /**
   * Drop what the agent carries on the nearest cell that blocks nothing: empty, not on the
   * relaxed path to `keepClear`, not next to a door or object, and not cutting the reachable
   * area in two. Falls back to looser rules when no such cell exists.
   */
  private dropSafely(keepClear: number): number | null {
    const onPath = new Set<number>();
    for (const end of [keepClear, this.finalTarget]) for (let cell = end; cell >= 0; cell = this.relaxedPrev[cell]!) onPath.add(cell);
    const reachBefore = this.reachableCount(-1);
    for (const strictness of [2, 1, 0]) {
      const ok = (x: number, y: number): boolean => {
        if (x < 0 || y < 0 || x >= this.w || y >= this.h || this.env.get(x, y) !== 0) return false;
        const cell = x + y * this.w;
        if (strictness > 0 && onPath.has(cell)) return false;
        if (strictness > 1) {
          for (let k = 0; k < 4; k++) {
            const id = this.env.get(x + DIR_DX[k]!, y + DIR_DY[k]!);
            if (id !== 0 && this.env.objType[id] !== OBJECT.wall) return false;
          }
        }
        return this.reachableCount(cell) === reachBefore - 1;
      };
      const a = this.navigate(ok, true);
      if (a === -1) return ACTION.drop;
      if (a !== null) return a;
    }
    return null;
  }

  /** Cells reachable on foot from the agent, with `blocked` treated as occupied. */
  private reachableCount(blocked: number): number {
    if (this.seen.length !== this.w * this.h) this.seen = new Uint8Array(this.w * this.h);
    const seen = this.seen.fill(0);
    const start = this.env.agentX + this.env.agentY * this.w;
    const stack = [start];
    seen[start] = 1;
    let count = 0;
    while (stack.length > 0) {
      const cell = stack.pop()!;
      count++;
      const x = cell % this.w;
      const y = (cell - x) / this.w;
      for (let k = 0; k < 4; k++) {
        const nx = x + DIR_DX[k]!;
        const ny = y + DIR_DY[k]!;
        const nc = nx + ny * this.w;
        if (nc === blocked || !this.passable(nx, ny) || seen[nc]) continue;
        seen[nc] = 1;
        stack.push(nc);
      }
    }
    return count;
  }
}

/** Runs one episode with the planner; returns the return and whether it succeeded. */
export function runPlanner(env: MiniGridEnv, seed: number): { ret: number; success: boolean; steps: number } {
  env.reset({ seed });
  const planner = new ReferencePlanner(env);
  let ret = 0;
  for (let t = 0; t < env.maxSteps; t++) {
    const r = env.step(planner.act());
    ret += r.reward;
    if (r.terminated) return { ret, success: r.reward > 0, steps: t + 1 };
    if (r.truncated) break;
  }
  return { ret, success: false, steps: env.maxSteps };
}
