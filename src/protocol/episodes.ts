/**
 * Per-episode records: what the sandbox returns for each episode and what feedback files and
 * protocol replies carry. Plain JSON data.
 */
import { MINIGRID_DELTA_FORMAT } from './minigridTrajectory';
import { WALKER_DELTA_FORMAT } from './walkerTrajectory';
import { CAR_DELTA_FORMAT } from './carTrajectory';
import { LANDER_DELTA_FORMAT } from './landerTrajectory';
import { MUJOCO_DELTA_FORMAT } from './mujocoTrajectory';
import { HIGHWAY_DELTA_FORMAT } from './highwayTrajectory';
import { expandCarSteps } from './trajectoryReaders/car';
import { expandHighwaySteps } from './trajectoryReaders/highway';
import { expandLanderSteps } from './trajectoryReaders/lander';
import { expandMiniGridSteps } from './trajectoryReaders/minigrid';
import { expandMujocoSteps } from './trajectoryReaders/mujoco';
import { expandWalkerSteps } from './trajectoryReaders/walker';
import type { EpisodeSkills } from './skills';

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
  /** Which deadline fired, for timeouts: the whole episode's, or that of the call that overran (the message says which step). */
  deadline?: 'episode' | 'module' | 'constructor' | 'reset' | 'act';
}

/** One recorded step: the observation the policy saw, the action it returned, and what followed. */
export interface TrajectoryStep {
  /**
   * Observation as JSON (typed arrays as number arrays; MiniGrid as {image, direction, mission}).
   * Absent only in the stored steps of a layout that records changes (`Trajectory.format`), which
   * `expandTrajectory` rebuilds.
   */
  observation?: unknown;
  action: unknown;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  info?: Record<string, unknown>;
  /** Environment snapshot after the step, for replay renderers (env.snapshot()). */
  snapshot?: unknown;
}

export interface Trajectory {
  /**
   * Absent: plain steps, as TrajectoryStep says. Otherwise the steps hold what each step changed
   * in the family's own layout (`minigrid-delta/1`, see minigridTrajectory.ts) and
   * `expandTrajectory` gives the plain form.
   */
  format?: string;
  /** The environment snapshot right after reset. */
  initialSnapshot?: unknown;
  steps: TrajectoryStep[];
  /** True when the step cap cut the trajectory short (the episode itself may have gone on). */
  truncated: boolean;
}

/**
 * A trajectory as an EpisodeRecord carries it: the steps already serialized as the JSON lines of
 * `feedback/submit-NNNN/episodes/case-III.jsonl`. The worker that ran the episode writes them
 * while the other workers run theirs; the runner only copies the text to disk. Serializing
 * 64k steps on the runner's one thread cost more than running them.
 */
export interface RecordedTrajectory {
  /** As Trajectory.format: absent for plain steps. */
  format?: string;
  /** One TrajectoryStep (or, with a format, one step of that format) as JSON per line, '\n' between lines, none after the last ('' for no steps). */
  stepsJsonl: string;
  stepCount: number;
  /** True when the step cap cut the trajectory short (the episode itself may have gone on). */
  truncated: boolean;
  /** The environment snapshot right after reset. */
  initialSnapshot?: unknown;
}

/** The steps of a recorded trajectory as objects, in the plain form. */
export function parseRecordedTrajectory(t: RecordedTrajectory): Trajectory {
  const steps = t.stepsJsonl === '' ? [] : t.stepsJsonl.split('\n').map((line) => JSON.parse(line) as TrajectoryStep);
  const out: Trajectory = { steps, truncated: t.truncated };
  if (t.initialSnapshot !== undefined) out.initialSnapshot = t.initialSnapshot;
  if (t.format !== undefined) out.format = t.format;
  return expandTrajectory(out);
}

/**
 * The plain form of a trajectory in any known format (a plain one as it is). Throws an Error
 * saying what does not fit when the format is unknown or the data does not match it.
 */
/** The stored formats, by name, and what turns each back into plain steps. */
const EXPANDERS: Record<string, ((initial: unknown, steps: readonly unknown[]) => { initialSnapshot: unknown; steps: TrajectoryStep[] }) | undefined> = {
  [MINIGRID_DELTA_FORMAT]: expandMiniGridSteps,
  [WALKER_DELTA_FORMAT]: expandWalkerSteps,
  [LANDER_DELTA_FORMAT]: expandLanderSteps,
  [CAR_DELTA_FORMAT]: expandCarSteps,
  [MUJOCO_DELTA_FORMAT]: expandMujocoSteps,
  [HIGHWAY_DELTA_FORMAT]: expandHighwaySteps,
};

export function expandTrajectory(t: Trajectory): Trajectory {
  if (t.format === undefined) return t;
  const expand = EXPANDERS[t.format];
  if (expand === undefined) throw new Error(`trajectory format "${t.format}" is not one this version reads (${Object.keys(EXPANDERS).join(', ')} or plain steps)`);
  const { initialSnapshot, steps } = expand(t.initialSnapshot, t.steps);
  return { initialSnapshot, steps, truncated: t.truncated };
}

export const NO_TRAJECTORY: RecordedTrajectory = Object.freeze({ stepsJsonl: '', stepCount: 0, truncated: false });

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
  trajectory: RecordedTrajectory;
  /** The policy's console output, capped. */
  log: { text: string; truncated: boolean };
  /** Each skill the environment family declares, as this episode measured it (src/skills); absent for families without skills. */
  skills?: EpisodeSkills;
  /** Ids of the bundle's coverage probes that ran (ascending), when the batch asked for coverage (src/sandbox/coverage). */
  coverage?: number[];
}
