/** One run of a suite: an environment, an agent, a repeat. Its id names its workspace folder and its queue job. */
export const SUITE_AGENTS = ['autotune', 'random'] as const;
export type BuiltInAgent = (typeof SUITE_AGENTS)[number];

/**
 * An external coding agent as a job's agent (src/agents/external): the command line (a preset's
 * or `--agent-cmd`), the environment variables it may see, and the launcher's limits.
 */
export interface ExternalAgentSpec {
  command: string;
  allowEnv?: string[];
  timeLimitS?: number;
  retries?: number;
  backoffMs?: number;
  graceS?: number;
}

export interface SuiteJob {
  /** `<env>__<agent>__r<repeat>`: stable, so a resumed suite finds the same workspace and queue job. */
  id: string;
  envId: string;
  /** The agent's name: a built-in one, or the leaderboard entry of an external agent. */
  agent: string;
  /** Present when an external coding agent drives the run. */
  external?: ExternalAgentSpec;
  /** 1-based. */
  repeat: number;
  budget: number;
  /** The agent's seed (autotune's mutations); differs per repeat. */
  seed: number;
  validationCases?: number;
  heldOutCases?: number;
}

export function jobId(envId: string, agent: string, repeat: number): string {
  return `${envId}__${agent}__r${repeat}`;
}

export function planJobs(
  envs: readonly string[],
  agent: string,
  repeats: number,
  budget: number,
  extra: Pick<SuiteJob, 'validationCases' | 'heldOutCases' | 'external'> = {},
): SuiteJob[] {
  return envs.flatMap((envId) =>
    Array.from({ length: repeats }, (_, i) => ({ id: jobId(envId, agent, i + 1), envId, agent, repeat: i + 1, budget, seed: i + 1, ...extra })),
  );
}
