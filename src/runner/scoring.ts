/** The run's failure return: what its environment declares under the run's parameters. */
import { failureReturnOf } from '../envs/core/failureReturn';
import { resolveParams } from '../envs/core/params';
import type { RunContext } from './runContext';

export function runFailureReturn(ctx: Pick<RunContext, 'registry' | 'config'>): number {
  const def = ctx.registry.get(ctx.config.envId);
  return failureReturnOf(def, resolveParams(def.id, def.params, ctx.config.params));
}
