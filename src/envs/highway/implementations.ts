/**
 * The six scenes (and through them the whole simulation): what the definitions (index.ts)
 * require on the first create, so a process that never makes a driving environment never runs it.
 */
export { HighwayEnv } from './scenes/highway';
export { IntersectionEnv } from './scenes/intersection';
export { MergeEnv } from './scenes/merge';
export { ParkingEnv } from './scenes/parking';
export { ROUNDABOUT_TARGET_SPEEDS, RoundaboutEnv } from './scenes/roundabout';
