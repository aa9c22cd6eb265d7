/** Environment id → EnvDefinition.family, for choosing the replay renderer. */
import { createRegistry, type EnvRegistry } from '../../envs';

let registry: EnvRegistry | undefined;

export function builtInFamily(envId: string): string | undefined {
  registry ??= createRegistry();
  return registry.has(envId) ? registry.get(envId).family : undefined;
}

export function familyOf(envId: string, custom?: (envId: string) => string | undefined): string {
  return custom?.(envId) ?? builtInFamily(envId) ?? (envId.startsWith('MiniGrid-') || envId.startsWith('BabyAI-') ? 'minigrid' : 'unknown');
}
