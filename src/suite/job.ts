/** One run of a suite: an environment, an agent, a repeat. Its id names its workspace folder and its queue job. */
export const SUITE_AGENTS = ['autotune', 'random'] as const;
export type SuiteAgent = (typeof SUITE_AGENTS)[number];

export interface SuiteJob {
  /** `<env>__<agent>__r<repeat>`: stable, so a resumed suite finds the same workspace and queue job. */
  id: string;
  envId: string;
  agent: SuiteAgent;
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

export function planJobs(envs: readonly string[], agent: SuiteAgent, repeats: number, budget: number, extra: Pick<SuiteJob, 'validationCases' | 'heldOutCases'> = {}): SuiteJob[] {
  return envs.flatMap((envId) =>
    Array.from({ length: repeats }, (_, i) => ({ id: jobId(envId, agent, i + 1), envId, agent, repeat: i + 1, budget, seed: i + 1, ...extra })),
  );
}
