/**
 * What an environment family declares about its skills: how to measure them while an episode
 * runs. Trackers run beside the environment in the sandbox worker, outside the policy's realm,
 * and read the environment's own state, so a policy cannot report a skill it did not show.
 */
import type { StepResult } from '../envs/core/env';
import type { EpisodeSkills, SkillKind } from '../protocol/skills';

export interface SkillDeclaration {
  id: string;
  /** Short phrase for feedback: "picked up the key". */
  label: string;
  kind: SkillKind;
}

/** Measures one episode; made right after the reset. */
export interface SkillTracker {
  /** After every environment step, with the action the environment received. */
  step(action: unknown, result: StepResult<unknown>): void;
  /** The outcome of each declared skill when the episode ended (ok or not). */
  outcomes(): EpisodeSkills;
}

export interface SkillFamily {
  /** Matches EnvDefinition.family exactly, or as a prefix when it ends in '/'. */
  family: string;
  /** Every skill this family may report (an episode may leave some null). */
  skills(envId: string, family: string): readonly SkillDeclaration[];
  /** `env` is the bare environment (inside the episode-limit wrapper), just reset. */
  track(envId: string, family: string, env: unknown, firstObservation: unknown): SkillTracker;
}
