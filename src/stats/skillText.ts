/** Skill rates (src/protocol/skills.ts) as feedback text: the weakest skills first. */
import type { SkillRate } from '../protocol/skills';

/** The rated skills (success and fraction kinds), lowest mean first; ties keep the declaration order. */
export function weakestSkills(rates: readonly SkillRate[]): SkillRate[] {
  return rates.filter((r) => r.kind !== 'steps').sort((a, b) => a.mean - b.mean);
}

const pct = (x: number): string => `${Math.round(x * 100)}%`;

/** Feedback lines: rated skills weakest first as "label 40% ± 11% (n 20)", then the counts. */
export function skillLines(rates: readonly SkillRate[] | undefined): string[] {
  if (!rates || rates.length === 0) return [];
  const rated = weakestSkills(rates).map((r) => `${r.label} ${pct(r.mean)} ± ${pct(r.stderr)} (n ${r.count})`);
  const counts = rates.filter((r) => r.kind === 'steps').map((r) => `${r.label} ${r.mean.toFixed(1)} ± ${r.stderr.toFixed(1)} (n ${r.count})`);
  return [...rated, ...counts];
}
