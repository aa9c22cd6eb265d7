/** The batch requests a run sends to the sandbox: its cases' seeds, its environment and its limits. */
import type { BatchRequest, EpisodeLimits, PolicyBundle } from '../sandbox/types';
import type { RunConfig } from './config';
import type { SeedDeriver, Split } from './secret';

/** Hidden cases (validation, assessment) record nothing an agent could read. */
const HIDDEN_LIMITS: Partial<EpisodeLimits> = { maxTrajectorySteps: 0, maxLogBytes: 0, recordSnapshots: false, coverage: false };

export type BatchBase = Omit<BatchRequest, 'onEpisode' | 'signal'>;

export function batchRequest(config: RunConfig, seeds: SeedDeriver, bundle: PolicyBundle, split: Split, indices: readonly number[]): BatchBase {
  const limits: Partial<EpisodeLimits> = {
    episodeTimeoutMs: config.episodeTimeoutMs,
    actTimeoutMs: config.actTimeoutMs,
    maxTrajectorySteps: config.maxTrajectorySteps,
    maxLogBytes: config.maxLogBytes,
    recordSnapshots: config.recordSnapshots,
    // Which code ran in each episode, for the feedback's attribution (train cases only).
    coverage: true,
  };
  return {
    bundle,
    envId: config.envId,
    params: config.params,
    episodes: indices.map((i) => seeds.episode(split, i)),
    limits: split === 'train' ? limits : { ...limits, ...HIDDEN_LIMITS },
    plugins: config.plugins.length ? config.plugins : undefined,
  };
}

export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
