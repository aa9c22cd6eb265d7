/**
 * Per-episode records: what the sandbox returns for each episode and what feedback files and
 * protocol replies carry. Plain JSON data.
 */

/** `ok`, or a policy failure (charged to the budget), or `runner_fault` (an environment or runner bug; never the policy's fault). */
export type EpisodeStatus = 'ok' | 'exception' | 'timeout' | 'invalid_action' | 'memory' | 'runner_fault';

export const POLICY_FAILURE_STATUSES: readonly EpisodeStatus[] = ['exception', 'timeout', 'invalid_action', 'memory'];

/** A place in the policy's own sources, mapped back through the bundle's source map. */
export interface SourceLocation {
  /** Path relative to the workspace, e.g. `policy/policy.ts`. */
  file: string;
  line: number;
  column: number;
}

export interface EpisodeError {
  message: string;
  /** Stack with frames mapped to `policy/*.ts` lines; host frames removed. */
  stack?: string;
  /** The innermost policy frame, when there is one. */
  location?: SourceLocation;
  /** Which deadline fired, for timeouts: the whole episode or one `act` call. */
  deadline?: 'episode' | 'act' | 'constructor';
}

/** One recorded step: the observation the policy saw, the action it returned, and what followed. */
export interface TrajectoryStep {
  /** Observation as JSON (typed arrays as number arrays; MiniGrid as {image, direction, mission}). */
  observation: unknown;
  action: unknown;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  info?: Record<string, unknown>;
  /** Environment snapshot after the step, for replay renderers (env.snapshot()). */
  snapshot?: unknown;
}

export interface Trajectory {
  /** The environment snapshot right after reset. */
  initialSnapshot?: unknown;
  steps: TrajectoryStep[];
  /** True when the step cap cut the trajectory short (the episode itself may have gone on). */
  truncated: boolean;
}

export interface EpisodeRecord {
  caseIndex: number;
  status: EpisodeStatus;
  /** Sum of rewards up to the end or the failure. */
  return: number;
  length: number;
  terminated: boolean;
  truncated: boolean;
  wallMs: number;
  error?: EpisodeError;
  trajectory: Trajectory;
  /** The policy's console output, capped. */
  log: { text: string; truncated: boolean };
}
