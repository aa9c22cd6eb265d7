/**
 * Per-skill outcomes: what each episode achieved of the skills its environment family declares
 * (src/skills/), and each skill's rate over a submission. Plain JSON data.
 */

/**
 * `success`: 1 or 0 per episode; `fraction`: a share of the episode in [0, 1] (time upright);
 * `steps`: a count (steps to the first pickup), reported but not ranked.
 */
export type SkillKind = 'success' | 'fraction' | 'steps';

/** One episode's outcome per skill id; null when the skill did not apply to that episode (no lava to avoid). */
export type EpisodeSkills = Record<string, number | null>;

/** A skill over one submission's episodes: its mean (a success rate for `success`) and standard error. */
export interface SkillRate {
  id: string;
  label: string;
  kind: SkillKind;
  mean: number;
  stderr: number;
  /** Episodes the skill applied to. */
  count: number;
}
