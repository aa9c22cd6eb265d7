/** Environment id → EnvDefinition.family, for choosing the replay renderer. */
import { createRegistry, type EnvRegistry } from '../../envs';

let registry: EnvRegistry | undefined;

/** The built-in environments, registered once. */
export function builtInRegistry(): EnvRegistry {
  registry ??= createRegistry();
  return registry;
}

export function builtInFamily(envId: string): string | undefined {
  const r = builtInRegistry();
  return r.has(envId) ? r.get(envId).family : undefined;
}

export function familyOf(envId: string, custom?: (envId: string) => string | undefined): string {
  return custom?.(envId) ?? builtInFamily(envId) ?? (envId.startsWith('MiniGrid-') || envId.startsWith('BabyAI-') ? 'minigrid' : 'unknown');
}
