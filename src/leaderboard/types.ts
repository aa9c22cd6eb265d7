/** The leaderboard's input rows and its output document (what `policyforge leaderboard --json` prints). */

export type EntryKind = 'agent' | 'baseline';

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

export interface RankedEntry {
  entry: string;
  kind: EntryKind;
  /** Mean over this entry's rows for the environment (null when none had a score). */
  score: number | null;
  /** Rows averaged into `score`. */
  repeats: number;
  /** Competition rank among all K entries, baselines included (1 = best; ties share the best rank). */
  rank: number;
  /** (K − rank) / (K − 1). */
  rankScore: number;
  /** Competition rank among the agents only (null for baselines). */
  placement: number | null;
}

export interface EnvironmentRanking {
  environment: string;
  family: string;
  lowerIsBetter: boolean;
  /** Entries ranked, best first. */
  ranking: RankedEntry[];
}

export interface LeaderboardEntry {
  entry: string;
  kind: EntryKind;
  /** The paper's aggregate rank score: mean of (K − rank)/(K − 1) over the environments this entry ran. */
  rankScore: number;
  /** Environments with rank 1 among agents (null for baselines). */
  wins: number | null;
  /** Environments placed 1–3 among agents (null for baselines). */
  podiums: number | null;
  /** Mean placement among agents (null for baselines). */
  averagePlacement: number | null;
  /** The rank score within each family's environments. */
  families: Record<string, number>;
  /** Environments this entry was ranked in. */
  environments: number;
}

export interface Leaderboard {
  /** Best aggregate rank score first. */
  entries: LeaderboardEntry[];
  environments: EnvironmentRanking[];
  /** Environments left out of the aggregate because fewer than two entries ran them (no rank to compare). */
  skipped: string[];
}
