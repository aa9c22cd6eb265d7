/**
 * The BabyAI ids of MiniGrid 3.1 with their registered constructor arguments. They belong to
 * the MiniGrid family (same observation, actions, replay), without a TimeLimit: each level
 * truncates at its own max_steps, which most levels derive from the instruction at reset.
 */
import type { Env } from '../../core/env';
import { levelGen } from './levels';
import * as L from './levels';

export interface BabyAIId {
  id: string;
  description: string;
  create: () => Env;
}

const REWARD = 'Reward 1 − 0.9·steps/max_steps when the instruction is verified, else 0. `info.mission` holds the parsed instruction.';

function b(name: string, what: string, create: () => Env): BabyAIId {
  return { id: `BabyAI-${name}-v0`, description: `${what} ${REWARD}`, create };
}

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
).map(([s, n]) => b(`GoToLocalS${s}N${n}`, `Go to an object in one ${s}×${s} room with ${n} distractors.`, () => new L.GoToLocalLevel(s, n)));

const goToObjMaze = ([4, 5, 6, 7] as const).map((s) => b(`GoToObjMazeS${s}`, `Go to the one object in a 3×3 maze of ${s}×${s} rooms.`, () => new L.GoToLevel({ roomSize: s }, 1)));

const keyCorridor = (
  [
    [3, 1],
    [3, 2],
    [3, 3],
    [4, 3],
    [5, 3],
    [6, 3],
  ] as const
).map(([s, r]) => b(`KeyCorridorS${s}R${r}`, `Find the key, unlock the room off the corridor and pick up the ball (rooms ${s}×${s}, ${r} rows).`, () => new L.KeyCorridorLevel(s, r)));

const putNext = (
  [
    [4, 1],
    [5, 2],
    [5, 1],
    [6, 3],
    [7, 4],
  ] as const
).map(([s, n]) => b(`PutNextS${s}N${n}`, `Put an object next to another across two open ${s}×${s} rooms (${n} objects each).`, () => new L.PutNextLevel(s, n)));

const putNextCarrying = (
  [
    [5, 2],
    [6, 3],
    [7, 4],
  ] as const
).map(([s, n]) => b(`PutNextS${s}N${n}Carrying`, `As PutNextS${s}N${n}, starting with the object to move in hand.`, () => new L.PutNextLevel(s, n, true)));

export const babyaiIds: readonly BabyAIId[] = [
  b('GoToRedBallGrey', 'Go to the red ball in one room; the 7 distractors are grey.', () => new L.GoToRedBallLevel(7, true)),
  b('GoToRedBall', 'Go to the red ball in one room with 7 distractors.', () => new L.GoToRedBallLevel(7)),
  b('GoToRedBallNoDists', 'Go to the red ball, alone in one room.', () => new L.GoToRedBallLevel(0)),
  b('GoToObj', 'Go to the only object in one 8×8 room.', () => new L.GoToObjLevel(8)),
  b('GoToObjS4', 'Go to the only object in one 4×4 room.', () => new L.GoToObjLevel(4)),
  { ...b('GoToObjS6', 'Go to the only object in one 6×6 room.', () => new L.GoToObjLevel(6)), id: 'BabyAI-GoToObjS6-v1' },
  b('GoToLocal', 'Go to an object in one 8×8 room with 8 distractors.', () => new L.GoToLocalLevel(8, 8)),
  ...goToLocal,
  b('GoTo', 'Go to an object anywhere in a 3×3 maze of rooms with closed doors, 18 distractors.', () => new L.GoToLevel()),
  b('GoToOpen', 'As GoTo, with every door open.', () => new L.GoToLevel({}, 18, true)),
  b('GoToObjMaze', 'Go to the one object in a 3×3 maze of rooms.', () => new L.GoToLevel({}, 1)),
  b('GoToObjMazeOpen', 'Go to the one object in a 3×3 maze of rooms with open doors.', () => new L.GoToLevel({}, 1, true)),
  b('GoToObjMazeS4R2', 'Go to the one object in a 2×2 maze of 4×4 rooms.', () => new L.GoToLevel({ roomSize: 4, numRows: 2, numCols: 2 }, 1)),
  ...goToObjMaze,
  b('GoToImpUnlock', 'Go to an object in a locked room; its key is elsewhere in the maze.', () => new L.GoToImpUnlockLevel()),
  b('GoToSeq', 'Sequences of go-to instructions in a 3×3 maze.', levelGen({ actionKinds: ['goto'], lockedRoomProb: 0, locations: false, unblocking: false })),
  b('GoToSeqS5R2', 'Sequences of go-to instructions in a 2×2 maze of 5×5 rooms.', levelGen({ roomSize: 5, numRows: 2, numCols: 2, numDists: 4, actionKinds: ['goto'], lockedRoomProb: 0, locations: false, unblocking: false })),
  b('GoToRedBlueBall', 'Go to the red or the blue ball (only one of them is present) among 7 distractors.', () => new L.GoToRedBlueBallLevel()),
  b('GoToDoor', 'Go to one of the four doors of the room.', () => new L.GoToDoorLevel()),
  b('GoToObjDoor', 'Go to an object or a door of the room.', () => new L.GoToObjDoorLevel()),
  b('Open', 'Open a door, possibly in another room of a 3×3 maze.', () => new L.OpenLevel()),
  b('OpenRedDoor', 'Open the red door of the room.', () => new L.OpenRedDoorLevel()),
  b('OpenDoor', 'Open one of four doors, named by colour or by location.', () => new L.OpenDoorLevel()),
  b('OpenDoorDebug', 'As OpenDoor; opening a wrong door fails.', () => new L.OpenDoorLevel(true)),
  b('OpenDoorColor', 'Open one of four doors, named by colour.', () => new L.OpenDoorLevel(false, 'color')),
  b('OpenDoorLoc', 'Open one of four doors, named by location.', () => new L.OpenDoorLevel(false, 'loc')),
  b('OpenTwoDoors', 'Open two doors in order.', () => new L.OpenTwoDoorsLevel()),
  b('OpenRedBlueDoors', 'Open the red door, then the blue door.', () => new L.OpenTwoDoorsLevel('red', 'blue')),
  b('OpenRedBlueDoorsDebug', 'Open the red door, then the blue door; a wrong first door fails.', () => new L.OpenTwoDoorsLevel('red', 'blue', true)),
  b('OpenDoorsOrderN2', 'Open one or two of 2 doors in the stated order.', () => new L.OpenDoorsOrderLevel(2)),
  b('OpenDoorsOrderN4', 'Open one or two of 4 doors in the stated order.', () => new L.OpenDoorsOrderLevel(4)),
  b('OpenDoorsOrderN2Debug', 'As OpenDoorsOrderN2; a wrong door fails.', () => new L.OpenDoorsOrderLevel(2, true)),
  b('OpenDoorsOrderN4Debug', 'As OpenDoorsOrderN4; a wrong door fails.', () => new L.OpenDoorsOrderLevel(4, true)),
  b('Pickup', 'Pick up an object anywhere in a 3×3 maze, 18 distractors.', () => new L.PickupLevel()),
  b('UnblockPickup', 'Pick up an object in a 3×3 maze where some object blocks the way.', () => new L.UnblockPickupLevel()),
  b('PickupLoc', 'Pick up an object in one room, possibly named by its location.', levelGen({ actionKinds: ['pickup'], instrKinds: ['action'], numRows: 1, numCols: 1, numDists: 8, lockedRoomProb: 0, locations: true, unblocking: false })),
  b('PickupDist', 'Pick up an object named by type, colour or both, among 5.', () => new L.PickupDistLevel()),
  b('PickupDistDebug', 'As PickupDist; picking up a wrong object fails.', () => new L.PickupDistLevel(true)),
  b('PickupAbove', 'Pick up the object in the room above.', () => new L.PickupAboveLevel()),
  b('PutNextLocal', 'Put one object next to another in one 8×8 room with 8 distinct objects.', () => new L.PutNextLocalLevel(8, 8)),
  b('PutNextLocalS5N3', 'Put one object next to another in one 5×5 room with 3 objects.', () => new L.PutNextLocalLevel(5, 3)),
  b('PutNextLocalS6N4', 'Put one object next to another in one 6×6 room with 4 objects.', () => new L.PutNextLocalLevel(6, 4)),
  ...putNext,
  ...putNextCarrying,
  b('Unlock', 'Open a locked door somewhere in a 3×3 maze; find its key first.', () => new L.UnlockLevel()),
  b('UnlockLocal', 'Open the locked door of the room with the key lying in it.', () => new L.UnlockLocalLevel()),
  b('UnlockLocalDist', 'As UnlockLocal with 3 distractors.', () => new L.UnlockLocalLevel(true)),
  b('KeyInBox', 'Open the locked door; the key is inside a box.', () => new L.KeyInBoxLevel()),
  b('UnlockPickup', 'Unlock the door to the next room and pick up the box there.', () => new L.UnlockPickupLevel()),
  b('UnlockPickupDist', 'As UnlockPickup with 4 distractors.', () => new L.UnlockPickupLevel(true)),
  b('BlockedUnlockPickup', 'Move the ball blocking the locked door, unlock it, pick up the box behind it.', () => new L.BlockedUnlockPickupLevel()),
  b('UnlockToUnlock', 'Unlock a door to fetch the key of a second locked door, then pick up the ball.', () => new L.UnlockToUnlockLevel()),
  b('ActionObjDoor', 'Go to, pick up or open an object or door of the room.', () => new L.ActionObjDoorLevel()),
  b('FindObjS5', 'Pick up an object somewhere in a 3×3 maze of 5×5 rooms.', () => new L.FindObjLevel(5)),
  b('FindObjS6', 'Pick up an object somewhere in a 3×3 maze of 6×6 rooms.', () => new L.FindObjLevel(6)),
  b('FindObjS7', 'Pick up an object somewhere in a 3×3 maze of 7×7 rooms.', () => new L.FindObjLevel(7)),
  b('KeyCorridor', 'Find the key, unlock the room off the corridor and pick up the ball (rooms 6×6, 3 rows).', () => new L.KeyCorridorLevel(6, 3)),
  ...keyCorridor,
  b('OneRoomS8', 'Pick up the ball in one 8×8 room.', () => new L.OneRoomLevel(8)),
  b('OneRoomS12', 'Pick up the ball in one 12×12 room.', () => new L.OneRoomLevel(12)),
  b('OneRoomS16', 'Pick up the ball in one 16×16 room.', () => new L.OneRoomLevel(16)),
  b('OneRoomS20', 'Pick up the ball in one 20×20 room.', () => new L.OneRoomLevel(20)),
  b('MoveTwoAcrossS5N2', 'Two put-next instructions in order across two open 5×5 rooms.', () => new L.MoveTwoAcrossLevel(5, 2)),
  b('MoveTwoAcrossS8N9', 'Two put-next instructions in order across two open 8×8 rooms.', () => new L.MoveTwoAcrossLevel(8, 9)),
  b('Synth', 'One random instruction (go to, pick up, open, put next) in a 3×3 maze.', levelGen({ instrKinds: ['action'], locations: false, unblocking: true, implicitUnlock: false })),
  b('SynthS5R2', 'As Synth in a 3×2 maze of 5×5 rooms.', levelGen({ roomSize: 5, numRows: 2, instrKinds: ['action'], locations: false, unblocking: true, implicitUnlock: false })),
  b('SynthLoc', 'As Synth, objects also named by location.', levelGen({ instrKinds: ['action'], locations: true, unblocking: true, implicitUnlock: false })),
  b('SynthSeq', 'Random instructions joined by "and", ", then" and "after you", with locations.', levelGen({ locations: true, unblocking: true, implicitUnlock: false })),
  b('MiniBossLevel', 'The full instruction language in a 2×2 maze of 5×5 rooms.', levelGen({ numCols: 2, numRows: 2, roomSize: 5, numDists: 7, lockedRoomProb: 0.25 })),
  b('BossLevel', 'The full instruction language in a 3×3 maze, sometimes behind a locked door.', levelGen({})),
  b('BossLevelNoUnlock', 'As BossLevel without a locked room.', levelGen({ lockedRoomProb: 0, implicitUnlock: false })),
];
