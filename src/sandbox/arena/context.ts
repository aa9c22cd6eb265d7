/**
 * The policy context's arena part: on a two-sided game the policy learns its side and its own
 * agents, and the parameters lose `opponent` (the runner's choice of the other side, which a
 * policy must not be able to tell apart, least of all a hidden assessment opponent).
 */
import { arenaPolicyContext } from '../../envs/arena/definitions';
import type { PublicParamValue } from '../../protocol/policy';

export function arenaContext(env: unknown, params: Readonly<Record<string, PublicParamValue>>): { side?: string; ownAgents?: readonly string[]; params?: Readonly<Record<string, PublicParamValue>> } {
  const arena = arenaPolicyContext(env);
  if (!arena) return {};
  const { opponent: _hidden, ...rest } = params;
  return { ...arena, params: rest };
}
