/**
 * Leaderboard options from environment definitions: an environment's family is the part of
 * `EnvDefinition.family` before the first `/` (`classic/cartpole` → `classic`), and
 * `lowerIsBetter` flips its ranking. Ids no definition knows fall in `other`. The CLI and the
 * Leaderboard panel pass their own registry (the panel's includes plugin environments).
 */
import type { LeaderboardOptions } from './leaderboard';

/** The two fields of an EnvDefinition a leaderboard reads. */
export interface RankedEnvironment {
  family: string;
  lowerIsBetter?: boolean;
}

export function optionsFromDefinitions(defOf: (id: string) => RankedEnvironment | undefined, extraLowerIsBetter: readonly string[] = []): Required<LeaderboardOptions> {
  return {
    familyOf: (id) => defOf(id)?.family.split('/')[0] ?? 'other',
    lowerIsBetter: (id) => extraLowerIsBetter.includes(id) || defOf(id)?.lowerIsBetter === true,
  };
}
