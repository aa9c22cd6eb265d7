/** Runs a starter policy's source (TypeScript) against an environment, outside the sandbox. */
import { transformSync } from 'esbuild';
import type { EnvRegistry } from '../../../src/envs/core/registry';

export function runStarter(registry: EnvRegistry, id: string, params: Record<string, unknown>, episodes: number, firstSeed = 0, maxSteps = Infinity): number[] {
  const def = registry.get(id);
  const js = transformSync(def.starterPolicy, { loader: 'ts', format: 'cjs' }).code;
  const mod: { exports: { Policy?: new (ctx: unknown) => { act(o: unknown, info: unknown): unknown; reset?(o: unknown, info: unknown): void } } } = { exports: {} };
  new Function('module', 'exports', js)(mod, mod.exports);
  const Policy = mod.exports.Policy;
  if (!Policy) throw new Error(`${id} starter exports no Policy`);
  const returns: number[] = [];
  for (let e = 0; e < episodes; e++) {
    const { env, params: resolved } = registry.make(id, params);
    const policy = new Policy({ envId: id, observationSpace: env.observationSpace.describe(), actionSpace: env.actionSpace.describe(), params: resolved, maxEpisodeSteps: def.maxEpisodeSteps, rewardRange: def.rewardRange, seed: e });
    const r0 = env.reset({ seed: firstSeed + e });
    policy.reset?.(r0.observation, r0.info);
    let obs = r0.observation;
    let info = r0.info;
    let total = 0;
    for (let t = 0; t < maxSteps; t++) {
      const r = env.step(policy.act(obs, info));
      total += r.reward;
      obs = r.observation;
      info = r.info;
      if (r.terminated || r.truncated) break;
    }
    returns.push(total);
  }
  return returns;
}
