/**
 * The BabyAI ids of MiniGrid 3.1 with their registered constructor arguments. They belong to
 * the MiniGrid family (same observation, actions, replay), without a TimeLimit: each level
 * truncates at its own max_steps, which most levels derive from the instruction at reset.
 */
import type { Env } from '../../core/env';
import type { LevelGenConfig } from './level';
import { minigridImplementations } from '../lazy';
import { keyCorridor as corridorRooms, levelGenConfig, localRoom, mazeRooms, redBallRoom, sizedRoom, twoRooms, withDistractors, type Configurable, type MazeArgs } from './training';

export interface BabyAIId {
  id: string;
  description: string;
  create: () => Env;
  /** The generator's arguments as parameters and training knobs, for the ids that take them. */
  config?: Configurable;
}

/** The level classes, loaded with the first BabyAI environment made (../implementations.ts). */
const L = () => minigridImplementations().levels;

const REWARD = 'Reward 1 − 0.9·steps/max_steps when the instruction is verified, else 0. `info.mission` holds the parsed instruction.';

function b(name: string, what: string, create: () => Env): BabyAIId {
  return { id: `BabyAI-${name}-v0`, description: `${what} ${REWARD}`, create };
}

/** An id whose generator takes parameters: `config(id)` builds them; its defaults make the registered level. */
function c(name: string, what: string, config: (id: string) => Configurable, version = 'v0'): BabyAIId {
  const id = `BabyAI-${name}-${version}`;
  const made = config(id);
  return { id, description: `${what} ${REWARD}`, create: () => made.create({}), config: made };
}

const levelGen = (name: string, what: string, cfg: LevelGenConfig): BabyAIId => c(name, what, (id) => levelGenConfig(id, cfg, (k) => new (minigridImplementations().LevelGen)(k)));
const goTo = (name: string, what: string, maze: Partial<MazeArgs>, numDists: number, doorsOpen: boolean): BabyAIId =>
  c(name, what, (id) => mazeRooms(id, { roomSize: maze.roomSize ?? 8, numRows: maze.numRows ?? 3, numCols: maze.numCols ?? 3 }, numDists, { doorsOpen }, (cfg, n, open) => new (L().GoToLevel)(cfg, n, open)));

const goToLocal = (
  [
    [5, 2],
    [6, 2],
    [6, 3],
    [6, 4],
    [7, 4],
    [7, 5],
    [8, 2],
    [8, 3],
    [8, 4],
    [8, 5],
    [8, 6],
    [8, 7],
  ] as const
).map(([s, n]) => c(`GoToLocalS${s}N${n}`, `Go to an object in one ${s}×${s} room with ${n} distractors.`, (id) => localRoom(id, s, n, 'num_dists', (rs, k) => new (L().GoToLocalLevel)(rs, k))));

const goToObjMaze = ([4, 5, 6, 7] as const).map((s) => goTo(`GoToObjMazeS${s}`, `Go to the one object in a 3×3 maze of ${s}×${s} rooms.`, { roomSize: s }, 1, false));

const keyCorridor = (
  [
    [3, 1],
    [3, 2],
    [3, 3],
    [4, 3],
    [5, 3],
    [6, 3],
  ] as const
).map(([s, r]) => c(`KeyCorridorS${s}R${r}`, `Find the key, unlock the room off the corridor and pick up the ball (rooms ${s}×${s}, ${r} rows).`, (id) => corridorRooms(id, s, r, (rs, nr) => new (L().KeyCorridorLevel)(rs, nr))));

const putNext = (
  [
    [4, 1],
    [5, 2],
    [5, 1],
    [6, 3],
    [7, 4],
  ] as const
).map(([s, n]) => c(`PutNextS${s}N${n}`, `Put an object next to another across two open ${s}×${s} rooms (${n} objects each).`, (id) => twoRooms(id, s, n, (rs, k) => new (L().PutNextLevel)(rs, k))));

const putNextCarrying = (
  [
    [5, 2],
    [6, 3],
    [7, 4],
  ] as const
).map(([s, n]) => c(`PutNextS${s}N${n}Carrying`, `As PutNextS${s}N${n}, starting with the object to move in hand.`, (id) => twoRooms(id, s, n, (rs, k) => new (L().PutNextLevel)(rs, k, true))));

export const babyaiIds: readonly BabyAIId[] = [
  c('GoToRedBallGrey', 'Go to the red ball in one room; the 7 distractors are grey.', (id) => redBallRoom(id, 7, (n) => new (L().GoToRedBallLevel)(n, true))),
  c('GoToRedBall', 'Go to the red ball in one room with 7 distractors.', (id) => redBallRoom(id, 7, (n) => new (L().GoToRedBallLevel)(n))),
  c('GoToRedBallNoDists', 'Go to the red ball, alone in one room.', (id) => redBallRoom(id, 0, (n) => new (L().GoToRedBallLevel)(n))),
  c('GoToObj', 'Go to the only object in one 8×8 room.', (id) => sizedRoom(id, 8, [4, 8], (s) => new (L().GoToObjLevel)(s))),
  c('GoToObjS4', 'Go to the only object in one 4×4 room.', (id) => sizedRoom(id, 4, [4, 8], (s) => new (L().GoToObjLevel)(s))),
  c('GoToObjS6', 'Go to the only object in one 6×6 room.', (id) => sizedRoom(id, 6, [4, 8], (s) => new (L().GoToObjLevel)(s)), 'v1'),
  c('GoToLocal', 'Go to an object in one 8×8 room with 8 distractors.', (id) => localRoom(id, 8, 8, 'num_dists', (s, n) => new (L().GoToLocalLevel)(s, n))),
  ...goToLocal,
  goTo('GoTo', 'Go to an object anywhere in a 3×3 maze of rooms with closed doors, 18 distractors.', {}, 18, false),
  goTo('GoToOpen', 'As GoTo, with every door open.', {}, 18, true),
  goTo('GoToObjMaze', 'Go to the one object in a 3×3 maze of rooms.', {}, 1, false),
  goTo('GoToObjMazeOpen', 'Go to the one object in a 3×3 maze of rooms with open doors.', {}, 1, true),
  goTo('GoToObjMazeS4R2', 'Go to the one object in a 2×2 maze of 4×4 rooms.', { roomSize: 4, numRows: 2, numCols: 2 }, 1, false),
  ...goToObjMaze,
  b('GoToImpUnlock', 'Go to an object in a locked room; its key is elsewhere in the maze.', () => new (L().GoToImpUnlockLevel)()),
  levelGen('GoToSeq', 'Sequences of go-to instructions in a 3×3 maze.', { actionKinds: ['goto'], lockedRoomProb: 0, locations: false, unblocking: false }),
  levelGen('GoToSeqS5R2', 'Sequences of go-to instructions in a 2×2 maze of 5×5 rooms.', { roomSize: 5, numRows: 2, numCols: 2, numDists: 4, actionKinds: ['goto'], lockedRoomProb: 0, locations: false, unblocking: false }),
  b('GoToRedBlueBall', 'Go to the red or the blue ball (only one of them is present) among 7 distractors.', () => new (L().GoToRedBlueBallLevel)()),
  b('GoToDoor', 'Go to one of the four doors of the room.', () => new (L().GoToDoorLevel)()),
  b('GoToObjDoor', 'Go to an object or a door of the room.', () => new (L().GoToObjDoorLevel)()),
  c('Open', 'Open a door, possibly in another room of a 3×3 maze.', (id) => mazeRooms(id, { roomSize: 8, numRows: 3, numCols: 3 }, 18, { needsDoors: true }, (cfg, n) => new (L().OpenLevel)(cfg, n))),
  b('OpenRedDoor', 'Open the red door of the room.', () => new (L().OpenRedDoorLevel)()),
  b('OpenDoor', 'Open one of four doors, named by colour or by location.', () => new (L().OpenDoorLevel)()),
  b('OpenDoorDebug', 'As OpenDoor; opening a wrong door fails.', () => new (L().OpenDoorLevel)(true)),
  b('OpenDoorColor', 'Open one of four doors, named by colour.', () => new (L().OpenDoorLevel)(false, 'color')),
  b('OpenDoorLoc', 'Open one of four doors, named by location.', () => new (L().OpenDoorLevel)(false, 'loc')),
  b('OpenTwoDoors', 'Open two doors in order.', () => new (L().OpenTwoDoorsLevel)()),
  b('OpenRedBlueDoors', 'Open the red door, then the blue door.', () => new (L().OpenTwoDoorsLevel)('red', 'blue')),
  b('OpenRedBlueDoorsDebug', 'Open the red door, then the blue door; a wrong first door fails.', () => new (L().OpenTwoDoorsLevel)('red', 'blue', true)),
  b('OpenDoorsOrderN2', 'Open one or two of 2 doors in the stated order.', () => new (L().OpenDoorsOrderLevel)(2)),
  b('OpenDoorsOrderN4', 'Open one or two of 4 doors in the stated order.', () => new (L().OpenDoorsOrderLevel)(4)),
  b('OpenDoorsOrderN2Debug', 'As OpenDoorsOrderN2; a wrong door fails.', () => new (L().OpenDoorsOrderLevel)(2, true)),
  b('OpenDoorsOrderN4Debug', 'As OpenDoorsOrderN4; a wrong door fails.', () => new (L().OpenDoorsOrderLevel)(4, true)),
  c('Pickup', 'Pick up an object anywhere in a 3×3 maze, 18 distractors.', (id) => mazeRooms(id, { roomSize: 8, numRows: 3, numCols: 3 }, 18, {}, (cfg, n) => new (L().PickupLevel)(cfg, n))),
  b('UnblockPickup', 'Pick up an object in a 3×3 maze where some object blocks the way.', () => new (L().UnblockPickupLevel)()),
  levelGen('PickupLoc', 'Pick up an object in one room, possibly named by its location.', { actionKinds: ['pickup'], instrKinds: ['action'], numRows: 1, numCols: 1, numDists: 8, lockedRoomProb: 0, locations: true, unblocking: false }),
  b('PickupDist', 'Pick up an object named by type, colour or both, among 5.', () => new (L().PickupDistLevel)()),
  b('PickupDistDebug', 'As PickupDist; picking up a wrong object fails.', () => new (L().PickupDistLevel)(true)),
  b('PickupAbove', 'Pick up the object in the room above.', () => new (L().PickupAboveLevel)()),
  c('PutNextLocal', 'Put one object next to another in one 8×8 room with 8 distinct objects.', (id) => localRoom(id, 8, 8, 'num_objs', (s, n) => new (L().PutNextLocalLevel)(s, n))),
  c('PutNextLocalS5N3', 'Put one object next to another in one 5×5 room with 3 objects.', (id) => localRoom(id, 5, 3, 'num_objs', (s, n) => new (L().PutNextLocalLevel)(s, n))),
  c('PutNextLocalS6N4', 'Put one object next to another in one 6×6 room with 4 objects.', (id) => localRoom(id, 6, 4, 'num_objs', (s, n) => new (L().PutNextLocalLevel)(s, n))),
  ...putNext,
  ...putNextCarrying,
  b('Unlock', 'Open a locked door somewhere in a 3×3 maze; find its key first.', () => new (L().UnlockLevel)()),
  c('UnlockLocal', 'Open the locked door of the room with the key lying in it.', (id) => withDistractors(id, false, (d) => new (L().UnlockLocalLevel)(d))),
  c('UnlockLocalDist', 'As UnlockLocal with 3 distractors.', (id) => withDistractors(id, true, (d) => new (L().UnlockLocalLevel)(d))),
  b('KeyInBox', 'Open the locked door; the key is inside a box.', () => new (L().KeyInBoxLevel)()),
  c('UnlockPickup', 'Unlock the door to the next room and pick up the box there.', (id) => withDistractors(id, false, (d) => new (L().UnlockPickupLevel)(d))),
  c('UnlockPickupDist', 'As UnlockPickup with 4 distractors.', (id) => withDistractors(id, true, (d) => new (L().UnlockPickupLevel)(d))),
  b('BlockedUnlockPickup', 'Move the ball blocking the locked door, unlock it, pick up the box behind it.', () => new (L().BlockedUnlockPickupLevel)()),
  b('UnlockToUnlock', 'Unlock a door to fetch the key of a second locked door, then pick up the ball.', () => new (L().UnlockToUnlockLevel)()),
  b('ActionObjDoor', 'Go to, pick up or open an object or door of the room.', () => new (L().ActionObjDoorLevel)()),
  ...([5, 6, 7] as const).map((s) => c(`FindObjS${s}`, `Pick up an object somewhere in a 3×3 maze of ${s}×${s} rooms.`, (id) => sizedRoom(id, s, [4, 7], (rs) => new (L().FindObjLevel)(rs)))),
  c('KeyCorridor', 'Find the key, unlock the room off the corridor and pick up the ball (rooms 6×6, 3 rows).', (id) => corridorRooms(id, 6, 3, (rs, nr) => new (L().KeyCorridorLevel)(rs, nr))),
  ...keyCorridor,
  ...([8, 12, 16, 20] as const).map((s) => c(`OneRoomS${s}`, `Pick up the ball in one ${s}×${s} room.`, (id) => sizedRoom(id, s, [5, 20], (rs) => new (L().OneRoomLevel)(rs)))),
  b('MoveTwoAcrossS5N2', 'Two put-next instructions in order across two open 5×5 rooms.', () => new (L().MoveTwoAcrossLevel)(5, 2)),
  b('MoveTwoAcrossS8N9', 'Two put-next instructions in order across two open 8×8 rooms.', () => new (L().MoveTwoAcrossLevel)(8, 9)),
  levelGen('Synth', 'One random instruction (go to, pick up, open, put next) in a 3×3 maze.', { instrKinds: ['action'], locations: false, unblocking: true, implicitUnlock: false }),
  levelGen('SynthS5R2', 'As Synth in a 3×2 maze of 5×5 rooms.', { roomSize: 5, numRows: 2, instrKinds: ['action'], locations: false, unblocking: true, implicitUnlock: false }),
  levelGen('SynthLoc', 'As Synth, objects also named by location.', { instrKinds: ['action'], locations: true, unblocking: true, implicitUnlock: false }),
  levelGen('SynthSeq', 'Random instructions joined by "and", ", then" and "after you", with locations.', { locations: true, unblocking: true, implicitUnlock: false }),
  levelGen('MiniBossLevel', 'The full instruction language in a 2×2 maze of 5×5 rooms.', { numCols: 2, numRows: 2, roomSize: 5, numDists: 7, lockedRoomProb: 0.25 }),
  levelGen('BossLevel', 'The full instruction language in a 3×3 maze, sometimes behind a locked door.', {}),
  levelGen('BossLevelNoUnlock', 'As BossLevel without a locked room.', { lockedRoomProb: 0, implicitUnlock: false }),
];
