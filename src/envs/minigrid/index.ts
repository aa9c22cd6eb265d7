/**
 * The MiniGrid family: every MiniGrid 3.1 id the project supports, registered with Gymnasium's
 * ids and constructor arguments. MiniGrid truncates internally at max_steps, so no TimeLimit.
 */
import type { EnvDefinition } from '../core/definition';
import type { Env } from '../core/env';
import { ParamError, type ParamSpecs, type ParamValues } from '../core/params';
import type { TrainingSchema } from '../core/training';
import { babyaiIds } from './babyai';
import { BABYAI_DECLARATIONS, BABYAI_POLICY_MODULE, BABYAI_STARTER } from './babyai/policyFiles';
import { KEY_PLACEMENTS, type KeyPlacement } from './constants';
import type { ObstructedMazeFullConfig } from './envs/obstructedMaze';
import { minigridImplementations as impl } from './lazy';
import { MINIGRID_DECLARATIONS, MINIGRID_POLICY_MODULE, MINIGRID_STARTER } from './policyFiles';

function minigrid(id: string, description: string, create: () => Env): EnvDefinition {
  return {
    id,
    family: 'minigrid',
    description,
    params: {},
    maxEpisodeSteps: null,
    rewardRange: [0, 1],
    // No reward but on success: an episode that never reaches its goal returns 0.
    failureReturn: 0,
    create,
    starterPolicy: MINIGRID_STARTER,
    declarations: MINIGRID_DECLARATIONS,
    workspaceFiles: { 'policy/minigrid.ts': MINIGRID_POLICY_MODULE },
  };
}

/**
 * An id whose generator takes Gymnasium's constructor arguments (plus `key_placement`, ours) as
 * parameters: the defaults are the id's registered values, so a run left at its defaults gets
 * MiniGrid's levels; training configurations may change the `training` subset.
 */
function configurable(id: string, description: string, params: ParamSpecs, training: TrainingSchema, create: (p: ParamValues) => Env): EnvDefinition {
  return { ...minigrid(id, description, () => create({})), params, training, create };
}

const int = (p: ParamValues, name: string): number | undefined => p[name] as number | undefined;
const placement = (p: ParamValues): KeyPlacement => (p['key_placement'] as KeyPlacement | undefined) ?? 'anywhere';
const KEY_PLACEMENT_PARAM = {
  type: 'enum',
  default: 'anywhere',
  values: KEY_PLACEMENTS,
  description: 'Where the key lies relative to the locked door: anywhere (MiniGrid), near_door or far_from_door',
} as const;
const sizeParam = (n: number, min: number): ParamSpecs[string] => ({ type: 'integer', default: n, min, max: 32, description: 'Grid side, walls included' });

const REWARD = 'Reward 1 − 0.9·steps/max_steps on success, else 0.';

const empty = [5, 6, 8, 16].flatMap((n) => {
  const fixed = minigrid(`MiniGrid-Empty-${n}x${n}-v0`, `Reach the green goal in an empty ${n}×${n} room from the top-left corner. ${REWARD}`, () => new (impl().EmptyEnv)(n, false));
  if (n > 6) return [fixed];
  return [fixed, minigrid(`MiniGrid-Empty-Random-${n}x${n}-v0`, `Reach the green goal in an empty ${n}×${n} room from a random start. ${REWARD}`, () => new (impl().EmptyEnv)(n, true))];
});

const doorKey = [5, 6, 8, 16].map((n) =>
  configurable(
    `MiniGrid-DoorKey-${n}x${n}-v0`,
    `Pick up the yellow key, unlock the door in the wall and reach the goal (${n}×${n}). ${REWARD}`,
    { size: sizeParam(n, 5), key_placement: KEY_PLACEMENT_PARAM },
    { size: { min: 5, max: 16 }, key_placement: { values: KEY_PLACEMENTS } },
    (p) => new (impl().DoorKeyEnv)(int(p, 'size') ?? n, placement(p)),
  ),
);

const keyCorridor = (
  [
    [3, 1],
    [3, 2],
    [3, 3],
    [4, 3],
    [5, 3],
    [6, 3],
  ] as const
).map(([s, r]) =>
  configurable(
    `MiniGrid-KeyCorridorS${s}R${r}-v0`,
    `Find the key behind closed doors, unlock the locked room off the corridor and pick up the ball (rooms ${s}×${s}, ${r} rows). ${REWARD}`,
    {
      room_size: { type: 'integer', default: s, min: 3, max: 10, description: 'Side of each room, walls included' },
      num_rows: { type: 'integer', default: r, min: 1, max: 6, description: 'Rows of rooms beside the corridor' },
      key_placement: KEY_PLACEMENT_PARAM,
    },
    { room_size: { min: 3, max: 6 }, num_rows: { min: 1, max: 3 }, key_placement: { values: KEY_PLACEMENTS } },
    (p) => new (impl().KeyCorridorEnv)(int(p, 'room_size') ?? s, int(p, 'num_rows') ?? r, placement(p)),
  ),
);

const lavaGap = [5, 6, 7].map((n) =>
  configurable(
    `MiniGrid-LavaGapS${n}-v0`,
    `Cross a lava column through its single gap to the goal (${n}×${n}); lava ends the episode. ${REWARD}`,
    { size: sizeParam(n, 5) },
    { size: { min: 5, max: 9 } },
    (p) => new (impl().LavaGapEnv)(int(p, 'size') ?? n),
  ),
);

const crossings = (
  [
    [9, 1],
    [9, 2],
    [9, 3],
    [11, 5],
  ] as const
).flatMap(([s, n]) => {
  const params: ParamSpecs = {
    size: sizeParam(s, 5),
    num_crossings: { type: 'integer', default: n, min: 0, max: 30, description: 'Rivers (lava or walls) to cross; at most the grid has room for' },
  };
  const training: TrainingSchema = { size: { min: 5, max: 11 }, num_crossings: { min: 0, max: 5 } };
  return [
    configurable(`MiniGrid-LavaCrossingS${s}N${n}-v0`, `Cross ${n} lava river(s) through their openings to the goal (${s}×${s}); lava ends the episode. ${REWARD}`, params, training, (p) => new (impl().CrossingEnv)(int(p, 'size') ?? s, int(p, 'num_crossings') ?? n, 'lava')),
    configurable(`MiniGrid-SimpleCrossingS${s}N${n}-v0`, `Find the openings in ${n} wall(s) and reach the goal (${s}×${s}). ${REWARD}`, params, training, (p) => new (impl().CrossingEnv)(int(p, 'size') ?? s, int(p, 'num_crossings') ?? n, 'wall')),
  ];
});

const om1 = (
  [
    ['1Dl', false, false],
    ['1Dlh', true, false],
    ['1Dlhb', true, true],
  ] as const
).map(([name, inBox, blocked]) =>
  minigrid(
    `MiniGrid-ObstructedMaze-${name}-v0`,
    `Unlock the door to the next room${inBox ? ' (the key hides in a box)' : ''}${blocked ? ', move the ball blocking it,' : ''} and pick up the blue ball. ${REWARD}`,
    () => new (impl().ObstructedMaze1Env)(inBox, blocked),
  ),
);

type FullSpec = [string, string, Omit<ObstructedMazeFullConfig, 'v1'>];
const fullSpecs: FullSpec[] = [
  ['2Dl', 'v0', { agentRoom: [2, 1], keyInBox: false, blocked: false, numQuarters: 1, roomsVisited: 4 }],
  ['2Dlh', 'v0', { agentRoom: [2, 1], keyInBox: true, blocked: false, numQuarters: 1, roomsVisited: 4 }],
  ['2Dlhb', 'v0', { agentRoom: [2, 1], keyInBox: true, blocked: true, numQuarters: 1, roomsVisited: 4 }],
  ['1Q', 'v0', { agentRoom: [1, 1], keyInBox: true, blocked: true, numQuarters: 1, roomsVisited: 5 }],
  ['2Q', 'v0', { agentRoom: [2, 1], keyInBox: true, blocked: true, numQuarters: 2, roomsVisited: 11 }],
  ['Full', 'v0', { agentRoom: [1, 1], keyInBox: true, blocked: true, numQuarters: 4, roomsVisited: 25 }],
  ['2Dlhb', 'v1', { agentRoom: [2, 1], keyInBox: true, blocked: true, numQuarters: 1, roomsVisited: 4 }],
  ['1Q', 'v1', { agentRoom: [1, 1], keyInBox: true, blocked: true, numQuarters: 1, roomsVisited: 5 }],
  ['2Q', 'v1', { agentRoom: [2, 1], keyInBox: true, blocked: true, numQuarters: 2, roomsVisited: 11 }],
  ['Full', 'v1', { agentRoom: [1, 1], keyInBox: true, blocked: true, numQuarters: 4, roomsVisited: 25 }],
];
const omFull = fullSpecs.map(([name, version, cfg]) =>
  minigrid(
    `MiniGrid-ObstructedMaze-${name}-${version}`,
    `A 3×3 maze of rooms: open locked doors with keys${cfg.keyInBox ? ' hidden in boxes' : ''}${cfg.blocked ? ', move balls blocking doors,' : ''} and pick up the blue ball in a corner room.${version === 'v0' && cfg.keyInBox && cfg.blocked ? ' (v0: a blocking ball can overwrite a key box.)' : ''} ${REWARD}`,
    () => new (impl().ObstructedMazeFullEnv)({ ...cfg, v1: version === 'v1' }),
  ),
);

const unlock = [
  minigrid('MiniGrid-Unlock-v0', `Open the locked door with the key in the same room. ${REWARD}`, () => new (impl().UnlockEnv)()),
  minigrid('MiniGrid-UnlockPickup-v0', `Unlock the door to the next room and pick up the box there. ${REWARD}`, () => new (impl().UnlockPickupEnv)(false)),
  minigrid('MiniGrid-BlockedUnlockPickup-v0', `Move the ball blocking the locked door, unlock it and pick up the box behind it. ${REWARD}`, () => new (impl().UnlockPickupEnv)(true)),
];

function multiRoomId(id: string, description: string, minRooms: number, maxRooms: number, maxSize: number): EnvDefinition {
  return configurable(
    id,
    description,
    {
      minNumRooms: { type: 'integer', default: minRooms, min: 1, max: 6, description: 'Fewest rooms in the chain' },
      maxNumRooms: { type: 'integer', default: maxRooms, min: 1, max: 6, description: 'Most rooms in the chain (at least minNumRooms)' },
      maxRoomSize: { type: 'integer', default: maxSize, min: 4, max: 10, description: 'Largest room side, walls included' },
    },
    { minNumRooms: { min: 1, max: 6 }, maxNumRooms: { min: 1, max: 6 }, maxRoomSize: { min: 4, max: 10 } },
    (p) => {
      const lo = int(p, 'minNumRooms') ?? minRooms;
      const hi = int(p, 'maxNumRooms') ?? maxRooms;
      if (lo > hi) throw new ParamError(id, 'maxNumRooms', `must be >= minNumRooms (${lo}), got ${hi}`);
      return new (impl().MultiRoomEnv)(lo, hi, int(p, 'maxRoomSize') ?? maxSize);
    },
  );
}

const multiRoom = [
  multiRoomId('MiniGrid-MultiRoom-N2-S4-v0', `Traverse 2 small rooms through a closed door to the goal. ${REWARD}`, 2, 2, 4),
  multiRoomId('MiniGrid-MultiRoom-N4-S5-v0', `Traverse a chain of rooms (legacy id: 6 rooms of size ≤ 5) through closed doors to the goal. ${REWARD}`, 6, 6, 5),
  multiRoomId('MiniGrid-MultiRoom-N4-S5-v1', `Traverse 4 rooms of size ≤ 5 through closed doors to the goal. ${REWARD}`, 4, 4, 5),
  multiRoomId('MiniGrid-MultiRoom-N6-v0', `Traverse 6 rooms of size ≤ 10 through closed doors to the goal. ${REWARD}`, 6, 6, 10),
];

export const minigridEnvironments: readonly EnvDefinition[] = [
  ...empty,
  ...doorKey,
  minigrid('MiniGrid-FourRooms-v0', `Reach the goal somewhere in four rooms joined by gaps, within 100 steps. ${REWARD}`, () => new (impl().FourRoomsEnv)()),
  ...keyCorridor,
  ...lavaGap,
  ...crossings,
  ...om1,
  ...omFull,
  ...unlock,
  ...multiRoom,
  ...babyaiIds.map((b) => ({
    ...minigrid(b.id, b.description, b.create),
    ...(b.config ?? {}),
    starterPolicy: BABYAI_STARTER,
    declarations: BABYAI_DECLARATIONS,
    workspaceFiles: { 'policy/minigrid.ts': MINIGRID_POLICY_MODULE, 'policy/babyai.ts': BABYAI_POLICY_MODULE },
  })),
];

// Types only: the classes load with the first environment (implementations.ts); import them from their modules.
export type { MiniGridEnv, MiniGridObservation, TaskKind } from './minigridEnv';
export type { MiniGridSnapshot, MiniGridState } from './worldState';
export { ACTION, COLOR, OBJECT, STATE } from './constants';
export type { BabyAILevel, BabyAIInfo } from './babyai/level';
export type { InstrSpec, ObjDescSpec } from './babyai/instr';
