/** The leaderboard's input rows and its output document (what `policyforge leaderboard --json` prints). */

import type { EntryKind } from '../protocol/leaderboard';

export type { EntryKind } from '../protocol/leaderboard';

/** One result: an entry's score on an environment (several rows of one pair are repeats, averaged). */
export interface ScoreRow {
  environment: string;
  entry: string;
  /** Held-out mean return; null or NaN when the run produced no score (it ranks last). */
  score: number | null;
  kind: EntryKind;
  /** Environment family; when absent the caller's `familyOf` decides. */
  family?: string;
}

/** The output document is declared once, in src/protocol, where the panel's messages read it too. */
export type { EnvironmentRanking, Leaderboard, LeaderboardEntry, RankedEntry } from '../protocol/leaderboard';
