/**
 * BabyAI's training parameters, per level group: the generator arguments a practice
 * configuration may change (room size, rooms in the maze, distractors, open doors, the odds of a
 * locked room, which instructions are drawn). Each default is the id's registered argument, so a
 * run left at its defaults gets MiniGrid's levels. A combination the generator could never lay
 * out (more objects than the rooms hold, an open-a-door instruction without doors) is refused
 * when the environment is made, naming the parameter, instead of rejection-sampling forever.
 */
import type { Env } from '../../core/env';
import { ParamError, type ParamSpec, type ParamSpecs, type ParamValues } from '../../core/params';
import type { TrainingSchema } from '../../core/training';
import type { LevelGenConfig } from './level';

/** What an id adds to its definition when its generator takes parameters. */
export interface Configurable {
  params: ParamSpecs;
  training: TrainingSchema;
  create: (p: ParamValues) => Env;
}

const int = (d: number, min: number, max: number, description: string): ParamSpec => ({ type: 'integer', default: d, min, max, description });
const get = (p: ParamValues, name: string, d: number): number => (p[name] as number | undefined) ?? d;

const ROOM_SIZE = 'Side of each room, walls included';
const NUM_DISTS = 'Distractor objects placed besides the target';

/**
 * Objects (the agent included) a room of this side holds with room to walk between them: half
 * its free cells. Every registered id stays within it.
 */
export const roomCapacity = (roomSize: number): number => Math.floor((roomSize - 2) ** 2 / 2);

function fits(id: string, param: string, objects: number, rooms: number, roomSize: number): void {
  const cap = rooms * roomCapacity(roomSize);
  if (objects > cap) throw new ParamError(id, param, `asks for ${objects} objects and the agent, but ${rooms} room(s) of side ${roomSize} hold at most ${cap}`);
}

/** One fixed 8×8 room with a target among `num_dists` distractors (GoToRedBall and friends). */
export function redBallRoom(id: string, numDists: number, make: (numDists: number) => Env): Configurable {
  return {
    params: { num_dists: int(numDists, 0, 7, NUM_DISTS) },
    training: { num_dists: { min: 0, max: 7 } },
    create: (p) => make(get(p, 'num_dists', numDists)),
  };
}

/** A level whose only argument is its room side (GoToObj, OneRoom, FindObj). */
export function sizedRoom(id: string, roomSize: number, bounds: readonly [number, number], make: (roomSize: number) => Env): Configurable {
  return {
    params: { room_size: int(roomSize, bounds[0], bounds[1], ROOM_SIZE) },
    training: { room_size: { min: bounds[0], max: bounds[1] } },
    create: (p) => make(get(p, 'room_size', roomSize)),
  };
}

/** One room with a number of objects (GoToLocal: `num_dists`; PutNextLocal: `num_objs`). */
export function localRoom(id: string, roomSize: number, count: number, countName: 'num_dists' | 'num_objs', make: (roomSize: number, count: number) => Env): Configurable {
  const least = countName === 'num_objs' ? 2 : 1;
  return {
    params: { room_size: int(roomSize, 5, 8, ROOM_SIZE), [countName]: int(count, least, 8, countName === 'num_objs' ? 'Objects in the room' : NUM_DISTS) },
    training: { room_size: { min: 5, max: 8 }, [countName]: { min: least, max: 8 } },
    create(p) {
      const s = get(p, 'room_size', roomSize);
      const n = get(p, countName, count);
      fits(id, countName, n + 1, 1, s);
      return make(s, n);
    },
  };
}

export interface MazeArgs {
  roomSize: number;
  numRows: number;
  numCols: number;
}

/**
 * A maze of rooms joined by doors with distractors (GoTo*, Open, Pickup). `doorsOpen`: the id's
 * value when the generator can open every door (GoTo), else undefined. `needsDoors`: the
 * instruction is about a door, so the maze needs two rooms at least.
 */
export function mazeRooms(
  id: string,
  args: MazeArgs,
  numDists: number,
  opts: { doorsOpen?: boolean; needsDoors?: boolean },
  make: (cfg: MazeArgs, numDists: number, doorsOpen: boolean) => Env,
): Configurable {
  const params: Record<string, ParamSpec> = {
    room_size: int(args.roomSize, 4, 8, ROOM_SIZE),
    num_rows: int(args.numRows, 1, 3, 'Rows of rooms'),
    num_cols: int(args.numCols, 1, 3, 'Columns of rooms'),
    num_dists: int(numDists, 1, 18, NUM_DISTS),
  };
  const training: Record<string, TrainingSchema[string]> = { room_size: { min: 4, max: 8 }, num_rows: { min: 1, max: 3 }, num_cols: { min: opts.needsDoors ? 2 : 1, max: 3 } };
  // Go to the one object of the maze stays that task: its distractor count is not a knob.
  if (numDists > 1) training['num_dists'] = { min: 1, max: 18 };
  if (opts.doorsOpen !== undefined) {
    params['doors_open'] = { type: 'boolean', default: opts.doorsOpen, description: 'Open every door of the maze at the start' };
    training['doors_open'] = { values: [false, true] };
  }
  return {
    params,
    training,
    create(p) {
      const cfg = { roomSize: get(p, 'room_size', args.roomSize), numRows: get(p, 'num_rows', args.numRows), numCols: get(p, 'num_cols', args.numCols) };
      const n = get(p, 'num_dists', numDists);
      const rooms = cfg.numRows * cfg.numCols;
      if (opts.needsDoors && rooms < 2) throw new ParamError(id, 'num_cols', `gives a maze of one room, which has no door to open (num_rows × num_cols must be at least 2)`);
      fits(id, 'num_dists', n + 1, rooms, cfg.roomSize);
      return make(cfg, n, p['doors_open'] === undefined ? (opts.doorsOpen ?? false) : p['doors_open'] === true);
    },
  };
}

/** KeyCorridor: rooms either side of a corridor, one locked. */
export function keyCorridor(id: string, roomSize: number, numRows: number, make: (roomSize: number, numRows: number) => Env): Configurable {
  return {
    params: { room_size: int(roomSize, 3, 8, ROOM_SIZE), num_rows: int(numRows, 1, 4, 'Rows of rooms beside the corridor') },
    training: { room_size: { min: 3, max: 6 }, num_rows: { min: 1, max: 3 } },
    create: (p) => make(get(p, 'room_size', roomSize), get(p, 'num_rows', numRows)),
  };
}

/** PutNext across two open rooms, `objs_per_room` in each. */
export function twoRooms(id: string, roomSize: number, objsPerRoom: number, make: (roomSize: number, objsPerRoom: number) => Env): Configurable {
  return {
    params: { room_size: int(roomSize, 4, 8, ROOM_SIZE), objs_per_room: int(objsPerRoom, 1, 6, 'Objects in each of the two rooms') },
    training: { room_size: { min: 4, max: 7 }, objs_per_room: { min: 1, max: 4 } },
    create(p) {
      const s = get(p, 'room_size', roomSize);
      const n = get(p, 'objs_per_room', objsPerRoom);
      fits(id, 'objs_per_room', n + 1, 1, s);
      return make(s, n);
    },
  };
}

/** UnlockLocal and UnlockPickup: with or without their distractors. */
export function withDistractors(id: string, distractors: boolean, make: (distractors: boolean) => Env): Configurable {
  return {
    params: { distractors: { type: 'boolean', default: distractors, description: 'Add the Dist variant\'s distractor objects' } },
    training: { distractors: { values: [false, true] } },
    create: (p) => make(p['distractors'] === undefined ? distractors : p['distractors'] === true),
  };
}

const ACTION_KINDS = { all: ['goto', 'pickup', 'open', 'putnext'], goto: ['goto'], pickup: ['pickup'], open: ['open'], putnext: ['putnext'] } as const;
const INSTR_KINDS = { action: ['action'], action_and: ['action', 'and'], action_and_seq: ['action', 'and', 'seq'] } as const;
type ActionKinds = keyof typeof ACTION_KINDS;
type InstrKinds = keyof typeof INSTR_KINDS;

function kindsName<K extends string>(table: Readonly<Record<K, readonly string[]>>, kinds: readonly string[] | undefined, all: NoInfer<K>): K {
  if (!kinds) return all;
  const hit = (Object.keys(table) as K[]).find((k) => table[k].join() === kinds.join());
  if (!hit) throw new Error(`BabyAI: no name for the instruction kinds ${kinds.join(', ')}`);
  return hit;
}

/**
 * The random-instruction levels (Synth*, GoToSeq*, PickupLoc, BossLevel…): distractors, the odds
 * of a locked room, and which instructions are drawn: `action_kinds` (one verb, or all four)
 * and `instr_kinds` (single actions, "and", sequences), narrowed from the id's own.
 */
export function levelGenConfig(id: string, cfg: LevelGenConfig, make: (cfg: LevelGenConfig) => Env): Configurable {
  const numDists = cfg.numDists ?? 18;
  const lockedRoomProb = cfg.lockedRoomProb ?? 0.5;
  const actionKinds = kindsName(ACTION_KINDS, cfg.actionKinds, 'all');
  const instrKinds = kindsName(INSTR_KINDS, cfg.instrKinds, 'action_and_seq');
  const instrOrder = Object.keys(INSTR_KINDS) as InstrKinds[];
  const params: ParamSpecs = {
    num_dists: int(numDists, 2, 30, NUM_DISTS),
    locked_room_prob: { type: 'number', default: lockedRoomProb, min: 0, max: 1, description: 'Chance of a locked room whose key lies elsewhere' },
    action_kinds: { type: 'enum', default: actionKinds, values: Object.keys(ACTION_KINDS), description: 'Verbs instructions are drawn from: all four, or one' },
    instr_kinds: { type: 'enum', default: instrKinds, values: instrOrder, description: 'Instruction shapes: single actions, also "and", also sequences ("then", "after you")' },
  };
  const training: Record<string, TrainingSchema[string]> = {};
  if (numDists > 2) training['num_dists'] = { min: 2, max: numDists };
  if (lockedRoomProb > 0) training['locked_room_prob'] = { min: 0, max: 1 };
  if (actionKinds === 'all') training['action_kinds'] = { values: Object.keys(ACTION_KINDS) };
  if (instrKinds !== 'action') training['instr_kinds'] = { values: instrOrder.slice(0, instrOrder.indexOf(instrKinds) + 1) };
  const rooms = (cfg.numRows ?? 3) * (cfg.numCols ?? 3);
  return {
    params,
    training,
    create(p) {
      const n = get(p, 'num_dists', numDists);
      const verbs = p['action_kinds'] as ActionKinds | undefined;
      if (verbs === 'open' && rooms < 2) throw new ParamError(id, 'action_kinds', 'is open, but this level has one room and no door');
      // The locked room's key and the agent need space besides the distractors.
      fits(id, 'num_dists', n + 2, rooms, cfg.roomSize ?? 8);
      return make({
        ...cfg,
        numDists: n,
        lockedRoomProb: get(p, 'locked_room_prob', lockedRoomProb),
        actionKinds: verbs === undefined ? cfg.actionKinds : ACTION_KINDS[verbs],
        instrKinds: p['instr_kinds'] === undefined ? cfg.instrKinds : INSTR_KINDS[p['instr_kinds'] as InstrKinds],
      });
    },
  };
}
