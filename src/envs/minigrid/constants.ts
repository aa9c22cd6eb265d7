/** MiniGrid's index tables and directions (docs/environments.md §7.1), exactly as MiniGrid 3.1. */

export const OBJECT = { unseen: 0, empty: 1, wall: 2, floor: 3, door: 4, key: 5, ball: 6, box: 7, goal: 8, lava: 9, agent: 10 } as const;
export const COLOR = { red: 0, green: 1, blue: 2, purple: 3, yellow: 4, grey: 5 } as const;
export const STATE = { open: 0, closed: 1, locked: 2 } as const;
export const ACTION = { left: 0, right: 1, forward: 2, pickup: 3, drop: 4, toggle: 5, done: 6 } as const;

export type ObjectName = keyof typeof OBJECT;
export type ColorName = keyof typeof COLOR;

/**
 * MiniGrid's COLOR_NAMES: the colour names sorted alphabetically. Random colour draws and the
 * ObstructedMaze colour roles index this list, which is not in index order.
 */
export const COLOR_NAMES: readonly ColorName[] = ['blue', 'green', 'grey', 'purple', 'red', 'yellow'];

export const OBJECT_NAMES: readonly ObjectName[] = ['unseen', 'empty', 'wall', 'floor', 'door', 'key', 'ball', 'box', 'goal', 'lava', 'agent'];
export const COLOR_INDEX_NAMES: readonly ColorName[] = ['red', 'green', 'blue', 'purple', 'yellow', 'grey'];

/** DIR_TO_VEC: 0 east, 1 south (y grows downward), 2 west, 3 north. */
export const DIR_DX: readonly number[] = [1, 0, -1, 0];
export const DIR_DY: readonly number[] = [0, 1, 0, -1];

export const VIEW_SIZE = 7;

/** Object id of the shared grey wall in a world (wall identity never matters); 0 is an empty cell. */
export const WALL_ID = 1;

/**
 * Where a training configuration puts the key relative to the locked door: `anywhere` (MiniGrid's
 * rule, the default), `near_door` (within two steps of the door) or `far_from_door` (the farther
 * half of the free cells on the agent's side).
 */
export type KeyPlacement = 'anywhere' | 'near_door' | 'far_from_door';
export const KEY_PLACEMENTS: readonly KeyPlacement[] = ['anywhere', 'near_door', 'far_from_door'];
