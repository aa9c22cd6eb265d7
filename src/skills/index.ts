/**
 * Skills: what each environment family declares it can measure per episode, and the rates over
 * a submission. The sandbox worker makes a tracker after each reset (`trackSkills`); the runner
 * aggregates the episodes' outcomes (`skillRates` in rates.ts) into summary.json; feedback lists
 * the weakest first (src/stats/skillText.ts).
 */
import type { SkillDeclaration, SkillFamily, SkillTracker } from './types';
import { miniGridSkills } from './minigrid';
import { classicSkills } from './classic';
import { box2dSkills, drivingSkills, mujocoSkills } from './physical';

export type { SkillDeclaration, SkillFamily, SkillTracker } from './types';

const FAMILIES: readonly SkillFamily[] = [miniGridSkills, classicSkills, box2dSkills, drivingSkills, mujocoSkills];

function familyOf(family: string): SkillFamily | undefined {
  return FAMILIES.find((f) => (f.family.endsWith('/') ? family.startsWith(f.family) : family === f.family || family.startsWith(`${f.family}/`)));
}

/** The skills an environment reports; empty for a family that declares none (a plugin's, say). */
export function declaredSkills(envId: string, family: string): readonly SkillDeclaration[] {
  return familyOf(family)?.skills(envId, family) ?? [];
}

/** A tracker for the episode just reset, or undefined when the family declares no skills. */
export function trackSkills(envId: string, family: string, env: unknown, firstObservation: unknown): SkillTracker | undefined {
  return familyOf(family)?.track(envId, family, env, firstObservation);
}
