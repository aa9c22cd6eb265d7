/**
 * A short real run in-process: episodes of a real environment under a simple scripted policy,
 * tracked exactly as the sandbox worker tracks them, and the submission's skill rates. The
 * proposer tests feed these rates, not hand-made numbers.
 */
import { strict as assert } from 'node:assert';
import type { Env } from '../../../src/envs/core/env';
import type { EnvRegistry } from '../../../src/envs/core/registry';
import type { EpisodeSkills, SkillRate } from '../../../src/protocol/skills';
import { declaredSkills, trackSkills } from '../../../src/skills';
import { skillRates } from '../../../src/skills/rates';

/** A deterministic stream in [0, 1) for scripted policies (the rates must not depend on Math.random). */
export function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export interface RealRun {
  rates: SkillRate[];
  outcomes: EpisodeSkills[];
}

export interface RealRunOptions {
  firstSeed?: number;
  /**
   * The bare environment to run instead of the registry's (CarRacing without drawing its frames,
   * say), truncated at the definition's step limit.
   */
  env?: Env<unknown, unknown>;
}

export async function realRun(registry: EnvRegistry, envId: string, params: Record<string, unknown>, act: (observation: unknown, step: number) => unknown, episodes: number, opts: RealRunOptions = {}): Promise<RealRun> {
  await registry.prepare(envId);
  const made = registry.make(envId, params);
  const env = opts.env ?? made.env;
  const inner = opts.env ?? made.env.inner;
  const limit = opts.env ? (made.definition.maxEpisodeSteps ?? Infinity) : Infinity;
  const outcomes: EpisodeSkills[] = [];
  for (let i = 0; i < episodes; i++) {
    const first = env.reset({ seed: (opts.firstSeed ?? 0) + i });
    const tracker = trackSkills(envId, made.definition.family, inner, first.observation);
    assert.ok(tracker, `${envId} declares skills`);
    let observation: unknown = first.observation;
    for (let t = 0; ; t++) {
      const a = act(observation, t);
      const r = env.step(a as never);
      tracker.step(a, r);
      observation = r.observation;
      if (r.terminated || r.truncated || t + 1 >= limit) break;
    }
    outcomes.push(tracker.outcomes());
  }
  const rates = skillRates(declaredSkills(envId, made.definition.family), outcomes.map((skills) => ({ status: 'ok' as const, skills })));
  return { rates, outcomes };
}
