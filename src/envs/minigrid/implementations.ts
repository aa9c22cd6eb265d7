/**
 * The MiniGrid and BabyAI environment classes: what the definitions (index.ts, babyai/index.ts)
 * and the skill tracker (src/skills/minigrid.ts) require on first use, so a process that never
 * makes one never runs this code.
 */
export { CrossingEnv } from './envs/crossing';
export { MultiRoomEnv } from './envs/multiRoom';
export { ObstructedMaze1Env, ObstructedMazeFullEnv } from './envs/obstructedMaze';
export { KeyCorridorEnv, UnlockEnv, UnlockPickupEnv } from './envs/rooms';
export { DoorKeyEnv, EmptyEnv, FourRoomsEnv, LavaGapEnv } from './envs/simple';
export { BabyAILevel, LevelGen } from './babyai/level';
export { SeqInstr } from './babyai/instr';
export * as levels from './babyai/levels';
