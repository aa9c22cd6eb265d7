/**
 * The MiniGrid family: every MiniGrid 3.1 id the project supports, registered with Gymnasium's
 * ids and constructor arguments. MiniGrid truncates internally at max_steps, so no TimeLimit.
 */
import type { EnvDefinition } from '../core/definition';
import type { Env } from '../core/env';
import { babyaiIds } from './babyai';
import { BABYAI_DECLARATIONS, BABYAI_POLICY_MODULE, BABYAI_STARTER } from './babyai/policyFiles';
import { CrossingEnv } from './envs/crossing';
import { MultiRoomEnv } from './envs/multiRoom';
import { ObstructedMaze1Env, ObstructedMazeFullEnv, type ObstructedMazeFullConfig } from './envs/obstructedMaze';
import { KeyCorridorEnv, UnlockEnv, UnlockPickupEnv } from './envs/rooms';
import { DoorKeyEnv, EmptyEnv, FourRoomsEnv, LavaGapEnv } from './envs/simple';
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

const REWARD = 'Reward 1 − 0.9·steps/max_steps on success, else 0.';

const empty = [5, 6, 8, 16].flatMap((n) => {
  const fixed = minigrid(`MiniGrid-Empty-${n}x${n}-v0`, `Reach the green goal in an empty ${n}×${n} room from the top-left corner. ${REWARD}`, () => new EmptyEnv(n, false));
  if (n > 6) return [fixed];
  return [fixed, minigrid(`MiniGrid-Empty-Random-${n}x${n}-v0`, `Reach the green goal in an empty ${n}×${n} room from a random start. ${REWARD}`, () => new EmptyEnv(n, true))];
});

const doorKey = [5, 6, 8, 16].map((n) =>
  minigrid(`MiniGrid-DoorKey-${n}x${n}-v0`, `Pick up the yellow key, unlock the door in the wall and reach the goal (${n}×${n}). ${REWARD}`, () => new DoorKeyEnv(n)),
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
  minigrid(`MiniGrid-KeyCorridorS${s}R${r}-v0`, `Find the key behind closed doors, unlock the locked room off the corridor and pick up the ball (rooms ${s}×${s}, ${r} rows). ${REWARD}`, () => new KeyCorridorEnv(s, r)),
);

const lavaGap = [5, 6, 7].map((n) =>
  minigrid(`MiniGrid-LavaGapS${n}-v0`, `Cross a lava column through its single gap to the goal (${n}×${n}); lava ends the episode. ${REWARD}`, () => new LavaGapEnv(n)),
);

const crossings = (
  [
    [9, 1],
    [9, 2],
    [9, 3],
    [11, 5],
  ] as const
).flatMap(([s, n]) => [
  minigrid(`MiniGrid-LavaCrossingS${s}N${n}-v0`, `Cross ${n} lava river(s) through their openings to the goal (${s}×${s}); lava ends the episode. ${REWARD}`, () => new CrossingEnv(s, n, 'lava')),
  minigrid(`MiniGrid-SimpleCrossingS${s}N${n}-v0`, `Find the openings in ${n} wall(s) and reach the goal (${s}×${s}). ${REWARD}`, () => new CrossingEnv(s, n, 'wall')),
]);

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
    () => new ObstructedMaze1Env(inBox, blocked),
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
    () => new ObstructedMazeFullEnv({ ...cfg, v1: version === 'v1' }),
  ),
);

const unlock = [
  minigrid('MiniGrid-Unlock-v0', `Open the locked door with the key in the same room. ${REWARD}`, () => new UnlockEnv()),
  minigrid('MiniGrid-UnlockPickup-v0', `Unlock the door to the next room and pick up the box there. ${REWARD}`, () => new UnlockPickupEnv(false)),
  minigrid('MiniGrid-BlockedUnlockPickup-v0', `Move the ball blocking the locked door, unlock it and pick up the box behind it. ${REWARD}`, () => new UnlockPickupEnv(true)),
];

const multiRoom = [
  minigrid('MiniGrid-MultiRoom-N2-S4-v0', `Traverse 2 small rooms through a closed door to the goal. ${REWARD}`, () => new MultiRoomEnv(2, 2, 4)),
  minigrid('MiniGrid-MultiRoom-N4-S5-v0', `Traverse a chain of rooms (legacy id: 6 rooms of size ≤ 5) through closed doors to the goal. ${REWARD}`, () => new MultiRoomEnv(6, 6, 5)),
  minigrid('MiniGrid-MultiRoom-N4-S5-v1', `Traverse 4 rooms of size ≤ 5 through closed doors to the goal. ${REWARD}`, () => new MultiRoomEnv(4, 4, 5)),
  minigrid('MiniGrid-MultiRoom-N6-v0', `Traverse 6 rooms of size ≤ 10 through closed doors to the goal. ${REWARD}`, () => new MultiRoomEnv(6, 6, 10)),
];

export const minigridEnvironments: readonly EnvDefinition[] = [
  ...empty,
  ...doorKey,
  minigrid('MiniGrid-FourRooms-v0', `Reach the goal somewhere in four rooms joined by gaps, within 100 steps. ${REWARD}`, () => new FourRoomsEnv()),
  ...keyCorridor,
  ...lavaGap,
  ...crossings,
  ...om1,
  ...omFull,
  ...unlock,
  ...multiRoom,
  ...babyaiIds.map((b) => ({
    ...minigrid(b.id, b.description, b.create),
    starterPolicy: BABYAI_STARTER,
    declarations: BABYAI_DECLARATIONS,
    workspaceFiles: { 'policy/minigrid.ts': MINIGRID_POLICY_MODULE, 'policy/babyai.ts': BABYAI_POLICY_MODULE },
  })),
];

export { MiniGridEnv, type MiniGridObservation, type TaskKind } from './minigridEnv';
export type { MiniGridSnapshot, MiniGridState } from './worldState';
export { ACTION, COLOR, OBJECT, STATE } from './constants';
export { BabyAILevel, type BabyAIInfo } from './babyai/level';
export type { InstrSpec, ObjDescSpec } from './babyai/instr';
