/** The environment registry with every built-in family. Plugins are added with `loadPlugin`. */
import { arenaEnvironments } from './arena/definitions';
import { box2dEnvironments } from './box2d';
import { classicEnvironments } from './classic';
import { EnvRegistry } from './core/registry';
import { highwayEnvironments } from './highway';
import { minigridEnvironments } from './minigrid';
import { mujocoEnvironments } from './mujoco';

export function createRegistry(): EnvRegistry {
  const registry = new EnvRegistry();
  registry.registerAll(classicEnvironments);
  registry.registerAll(minigridEnvironments);
  registry.registerAll(highwayEnvironments);
  registry.registerAll(box2dEnvironments);
  registry.registerAll(mujocoEnvironments);
  // Two-sided games: a run on one is an arena run (src/runner/arena).
  registry.registerAll(arenaEnvironments);
  return registry;
}

export { EnvRegistry } from './core/registry';
export type { EnvDefinition } from './core/definition';
