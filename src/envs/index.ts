/** The environment registry with every built-in family. Plugins are added with `loadPlugin`. */
import { classicEnvironments } from './classic';
import { EnvRegistry } from './core/registry';

export function createRegistry(): EnvRegistry {
  const registry = new EnvRegistry();
  registry.registerAll(classicEnvironments);
  return registry;
}

export { EnvRegistry } from './core/registry';
export type { EnvDefinition } from './core/definition';
