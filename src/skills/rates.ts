/** Per-skill rates over a submission's episodes (their text is src/stats/skillText.ts). */
import type { EpisodeStatus } from '../protocol/episodes';
import type { EpisodeSkills, SkillRate } from '../protocol/skills';
import { returnStats } from '../stats/returnStats';
import type { SkillDeclaration } from './types';

/**
 * Each declared skill's mean and standard error over the episodes it applied to (runner faults
 * left out: the policy never got the whole episode). A skill no episode applied to is omitted.
 */
export function skillRates(declared: readonly SkillDeclaration[], episodes: readonly { status: EpisodeStatus; skills?: EpisodeSkills }[]): SkillRate[] {
  const out: SkillRate[] = [];
  for (const d of declared) {
    const values: { return: number; status: EpisodeStatus }[] = [];
    for (const e of episodes) {
      const v = e.status === 'runner_fault' ? undefined : e.skills?.[d.id];
      if (typeof v === 'number' && Number.isFinite(v)) values.push({ return: v, status: 'ok' });
    }
    if (values.length === 0) continue;
    const s = returnStats(values);
    out.push({ id: d.id, label: d.label, kind: d.kind, mean: s.mean, stderr: s.stderr, count: s.count });
  }
  return out;
}
