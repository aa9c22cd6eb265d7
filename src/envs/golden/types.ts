/** Golden trace files: trajectories recorded from the real Python packages (docs/golden.md). */
export interface GoldenFile {
  env_id: string;
  max_episode_steps?: number | null;
  traces: unknown[];
}

export interface TraceResult {
  name: string;
  passed: boolean;
  steps: number;
  /** The first mismatch, in words: step, field, expected, actual. */
  failure?: string;
  /** For a passing trace that need not agree to its end (a documented horizon): how far it did and where it left. */
  note?: string;
}

export interface GoldenReport {
  envId: string;
  traces: TraceResult[];
}

export class GoldenFormatError extends Error {
  override name = 'GoldenFormatError';
}
