/**
 * The Box2D environments, which the family's definitions (`index.ts`) load on first use: with
 * them comes planck and CarRacing's frame buffers, which a process that never runs a Box2D task
 * (a sandbox worker on another family, the CLI listing ids) should not execute or allocate.
 */
export { BipedalWalkerEnv } from './bipedalWalker';
export { CarRacingEnv } from './carRacing';
export { LunarLanderEnv } from './lunarLander';
