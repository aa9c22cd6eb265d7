/**
 * A MiniGrid world as JSON, in the golden traces' format (test/fixtures/golden/README.md):
 * `grid` is the digit string of Grid.encode() (entry (x,y,k) at (x*H+y)*3+k), boxes list their
 * contents separately, objects are [type, color, state] (a box carrying something adds its
 * content as a fourth element). `task.target_pos` names the object whose identity decides
 * success (null when the agent carries it). Also the snapshot a replay view draws, and the
 * ASCII picture MiniGrid prints.
 */
import { COLOR, COLOR_INDEX_NAMES, DIR_DX, DIR_DY, OBJECT, OBJECT_NAMES, VIEW_SIZE, WALL_ID } from './constants';
import type { MiniGridEnv, TaskKind } from './minigridEnv';

export type EncodedObject = [number, number, number] | [number, number, number, EncodedObject];

export interface MiniGridTaskState {
  kind: TaskKind;
  /** Cell of the target object or door; null when the agent carries the target. */
  target_pos?: [number, number] | null;
  /** The target's encoding (checked on load when given). */
  target?: number[];
  /** BabyAI: the instruction tree with its matched objects (see babyai/level.ts). */
  instr?: unknown;
  /** BabyAI: verifier progress (sequence flags, carried-before markers). */
  progress?: unknown;
}

export interface MiniGridState {
  width: number;
  height: number;
  grid: string;
  box_contents: [number, number, EncodedObject][];
  agent_pos: [number, number];
  agent_dir: number;
  carrying: EncodedObject | null;
  mission: string;
  max_steps: number;
  see_through_walls: boolean;
  step_count: number;
  task: MiniGridTaskState;
  rng?: [number, number, number, number];
}

/** What a replay panel needs to draw one step without the environment. */
export interface MiniGridSnapshot {
  width: number;
  height: number;
  /** Grid.encode() digits, entry (x,y,k) at (x*H+y)*3+k; the agent is not drawn. */
  grid: string;
  agent: [number, number, number];
  carrying: EncodedObject | null;
  /** World cells the agent sees this step, as x*H+y. */
  visible: number[];
  mission: string;
  step: number;
  maxSteps: number;
}

export class MiniGridStateError extends Error {
  override name = 'MiniGridStateError';
}

export function encodeObject(env: MiniGridEnv, id: number): EncodedObject {
  const enc: [number, number, number] = [env.objType[id]!, env.objColor[id]!, env.objState[id]!];
  const inner = env.objContains[id]!;
  return env.objType[id] === OBJECT.box && inner !== 0 ? [enc[0], enc[1], enc[2], encodeObject(env, inner)] : enc;
}

export function encodeGrid(env: MiniGridEnv): string {
  const { width: w, height: h } = env;
  const out: string[] = new Array<string>(w * h);
  for (let x = 0; x < w; x++) {
    for (let y = 0; y < h; y++) {
      const id = env.get(x, y);
      out[x * h + y] = id === 0 ? '100' : `${env.objType[id]}${env.objColor[id]}${env.objState[id]}`;
    }
  }
  return out.join('');
}

function findCell(env: MiniGridEnv, id: number): [number, number] | null {
  for (let x = 0; x < env.width; x++) for (let y = 0; y < env.height; y++) if (env.get(x, y) === id) return [x, y];
  return null;
}

export function saveWorldState(env: MiniGridEnv): MiniGridState {
  const boxes: [number, number, EncodedObject][] = [];
  for (let x = 0; x < env.width; x++) {
    for (let y = 0; y < env.height; y++) {
      const id = env.get(x, y);
      if (id !== 0 && env.objType[id] === OBJECT.box && env.objContains[id] !== 0) boxes.push([x, y, encodeObject(env, env.objContains[id]!)]);
    }
  }
  const task: MiniGridTaskState = { kind: env.taskKind };
  if ((env.taskKind === 'pickup' || env.taskKind === 'open_door') && env.targetId !== 0) {
    task.target_pos = env.carrying === env.targetId ? null : findCell(env, env.targetId);
    task.target = [env.objType[env.targetId]!, env.objColor[env.targetId]!, env.objState[env.targetId]!];
  }
  return {
    width: env.width,
    height: env.height,
    grid: encodeGrid(env),
    box_contents: boxes,
    agent_pos: [env.agentX, env.agentY],
    agent_dir: env.agentDir,
    carrying: env.carrying === 0 ? null : encodeObject(env, env.carrying),
    mission: env.mission,
    max_steps: env.maxSteps,
    see_through_walls: env.seeThroughWalls,
    step_count: env.stepCount,
    task,
    rng: env.rng.getState(),
  };
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isPair = (v: unknown): v is [number, number] => Array.isArray(v) && v.length === 2 && isInt(v[0]) && isInt(v[1]);

function decodeObject(env: MiniGridEnv, enc: unknown, where: string): number {
  if (!Array.isArray(enc) || enc.length < 3 || !enc.slice(0, 3).every(isInt)) throw new MiniGridStateError(`${where}: expected [type, color, state], got ${JSON.stringify(enc)}`);
  const [t, c, s] = enc as number[];
  const id = newFromEncoding(env, t!, c!, s!, where);
  if (enc.length > 3 && id !== 0) env.objContains[id] = decodeObject(env, enc[3], `${where} content`);
  return id;
}

function newFromEncoding(env: MiniGridEnv, t: number, c: number, s: number, where: string): number {
  if (t === OBJECT.empty) return 0;
  if (t === OBJECT.wall && c === COLOR.grey) return WALL_ID;
  if (t < OBJECT.wall || t > OBJECT.lava || c > 5 || s > 2) throw new MiniGridStateError(`${where}: no world object encodes as (${t},${c},${s})`);
  if (t !== OBJECT.door && s !== 0) throw new MiniGridStateError(`${where}: only doors have a state, got (${t},${c},${s})`);
  return env.newObject(t, c, s);
}

/** Loads a full recorded world (golden `initial` plus `task`, or a `getState()` result). */
export function loadWorldState(env: MiniGridEnv, raw: unknown): void {
  if (raw === null || typeof raw !== 'object') throw new MiniGridStateError('MiniGrid state must be an object');
  const st = raw as Partial<MiniGridState>;
  const { width, height, grid } = st;
  if (!isInt(width) || !isInt(height) || width < 1 || height < 1) throw new MiniGridStateError('MiniGrid state needs integer width and height');
  if (typeof grid !== 'string' || grid.length !== width * height * 3 || !/^[0-9]*$/.test(grid)) {
    throw new MiniGridStateError(`MiniGrid state grid must be ${width * height * 3} digits (width × height × 3)`);
  }
  if (!isPair(st.agent_pos)) throw new MiniGridStateError('MiniGrid state needs agent_pos [x, y]');
  if (!isInt(st.agent_dir) || st.agent_dir < 0 || st.agent_dir > 3) throw new MiniGridStateError('MiniGrid state needs agent_dir 0..3');
  if (!isInt(st.max_steps) || st.max_steps < 1) throw new MiniGridStateError('MiniGrid state needs a positive integer max_steps');
  const [ax, ay] = st.agent_pos;
  if (ax < 0 || ay < 0 || ax >= width || ay >= height) throw new MiniGridStateError(`agent_pos ${JSON.stringify(st.agent_pos)} is outside the ${width}×${height} grid`);

  env.clearWorld(width, height);
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) {
      const k = (x * height + y) * 3;
      env.set(x, y, newFromEncoding(env, grid.charCodeAt(k) - 48, grid.charCodeAt(k + 1) - 48, grid.charCodeAt(k + 2) - 48, `grid cell (${x},${y})`));
    }
  }
  for (const entry of st.box_contents ?? []) {
    if (!Array.isArray(entry) || !isInt(entry[0]) || !isInt(entry[1])) throw new MiniGridStateError(`box_contents entry ${JSON.stringify(entry)} is not [x, y, object]`);
    const box = env.get(entry[0], entry[1]);
    if (box === 0 || env.objType[box] !== OBJECT.box) throw new MiniGridStateError(`box_contents names (${entry[0]},${entry[1]}), which holds no box`);
    env.objContains[box] = decodeObject(env, entry[2], `box content at (${entry[0]},${entry[1]})`);
  }
  env.carrying = st.carrying === null || st.carrying === undefined ? 0 : decodeObject(env, st.carrying, 'carrying');
  env.agentX = ax;
  env.agentY = ay;
  env.agentDir = st.agent_dir;
  env.maxSteps = st.max_steps;
  env.seeThroughWalls = st.see_through_walls === true;
  env.mission = typeof st.mission === 'string' ? st.mission : '';
  env.stepCount = isInt(st.step_count) ? st.step_count : 0;
  if (Array.isArray(st.rng) && st.rng.length === 4 && st.rng.every(isInt)) env.rng.setState(st.rng);

  const task = st.task;
  if (task !== undefined && task.kind !== env.taskKind) throw new MiniGridStateError(`task kind ${String(task.kind)} does not match this environment's ${env.taskKind}`);
  if (env.taskKind !== 'goal' && env.taskKind !== 'babyai') {
    if (task === undefined) throw new MiniGridStateError(`a ${env.taskKind} task needs task.target_pos to know which object counts`);
    if (task.target_pos === null) {
      if (env.carrying === 0) throw new MiniGridStateError('task.target_pos is null (target carried) but the agent carries nothing');
      env.targetId = env.carrying;
    } else {
      if (!isPair(task.target_pos)) throw new MiniGridStateError('task.target_pos must be [x, y] or null');
      const id = env.get(task.target_pos[0], task.target_pos[1]);
      if (id === 0 || id === WALL_ID) throw new MiniGridStateError(`task.target_pos ${JSON.stringify(task.target_pos)} holds no object`);
      env.targetId = id;
    }
    if (env.taskKind === 'open_door' && env.objType[env.targetId] !== OBJECT.door) throw new MiniGridStateError(`task.target_pos ${JSON.stringify(task.target_pos)} holds no door`);
    const t = task.target;
    const id = env.targetId;
    if (Array.isArray(t) && (t[0] !== env.objType[id] || t[1] !== env.objColor[id] || (t[2] !== undefined && t[2] !== env.objState[id]))) {
      throw new MiniGridStateError(`task.target ${JSON.stringify(t)} does not match the object at the target position`);
    }
  }
}

export function worldSnapshot(env: MiniGridEnv): MiniGridSnapshot {
  const visible: number[] = [];
  const mask = env.viewMask;
  const dx = DIR_DX[env.agentDir]!;
  const dy = DIR_DY[env.agentDir]!;
  for (let i = 0; i < VIEW_SIZE; i++) {
    for (let j = 0; j < VIEW_SIZE; j++) {
      if (mask[i * VIEW_SIZE + j] === 0) continue;
      const f = VIEW_SIZE - 1 - j;
      const r = i - 3;
      const x = env.agentX + dx * f - dy * r;
      const y = env.agentY + dy * f + dx * r;
      if (x >= 0 && y >= 0 && x < env.width && y < env.height) visible.push(x * env.height + y);
    }
  }
  return {
    width: env.width,
    height: env.height,
    grid: encodeGrid(env),
    agent: [env.agentX, env.agentY, env.agentDir],
    carrying: env.carrying === 0 ? null : encodeObject(env, env.carrying),
    visible: visible.sort((a, b) => a - b),
    mission: env.mission,
    step: env.stepCount,
    maxSteps: env.maxSteps,
  };
}

const OBJECT_CHAR: Readonly<Record<string, string>> = { wall: 'W', floor: 'F', door: 'D', key: 'K', ball: 'A', box: 'B', goal: 'G', lava: 'V' };
const AGENT_CHAR = ['>', 'V', '<', '^'];

/** MiniGrid's `str(env)`: two characters per cell, rows top to bottom. */
export function renderWorldText(env: MiniGridEnv): string {
  const rows: string[] = [];
  for (let y = 0; y < env.height; y++) {
    let row = '';
    for (let x = 0; x < env.width; x++) {
      if (x === env.agentX && y === env.agentY) {
        row += AGENT_CHAR[env.agentDir]!.repeat(2);
        continue;
      }
      const id = env.get(x, y);
      if (id === 0) {
        row += '  ';
        continue;
      }
      const t = env.objType[id]!;
      const c = COLOR_INDEX_NAMES[env.objColor[id]!]![0]!.toUpperCase();
      if (t === OBJECT.door) {
        const s = env.objState[id];
        row += s === 0 ? '__' : s === 2 ? `L${c}` : `D${c}`;
        continue;
      }
      row += `${OBJECT_CHAR[OBJECT_NAMES[t]!] ?? '?'}${c}`;
    }
    rows.push(row);
  }
  return rows.join('\n');
}
