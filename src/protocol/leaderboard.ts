/**
 * The leaderboard document (`policyforge leaderboard --json`, a suite's `leaderboard.json`, and
 * the Leaderboard panel's snapshot), declared once: src/leaderboard computes it, every surface
 * reads it through this schema. A rank score is NaN where an environment has fewer than two
 * entries (no rank to compare); JSON writes that as null, so both are accepted.
 */
import { z } from 'zod';

export type EntryKind = 'agent' | 'baseline';

export interface RankedEntry {
  entry: string;
  kind: EntryKind;
  /** Mean over this entry's rows for the environment (null when none had a score). */
  score: number | null;
  /** Rows averaged into `score`. */
  repeats: number;
  /** Competition rank among all K entries, baselines included (1 = best; ties share the best rank). */
  rank: number;
  /** (K − rank) / (K − 1); NaN (null in JSON) when K < 2. */
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

const num = z.number();
/** NaN survives postMessage (structured clone) but becomes null in JSON; both mean "no value". */
const numOrNaN = z.union([z.number(), z.nan(), z.null()]).transform((v) => (v === null ? Number.NaN : v));
const kind = z.enum(['agent', 'baseline']);

const rankedEntrySchema = z.looseObject({
  entry: z.string(),
  kind,
  score: num.nullable(),
  repeats: num,
  rank: num,
  rankScore: numOrNaN,
  placement: num.nullable(),
});

const environmentRankingSchema = z.looseObject({
  environment: z.string(),
  family: z.string(),
  lowerIsBetter: z.boolean(),
  ranking: z.array(rankedEntrySchema),
});

const leaderboardEntrySchema = z.looseObject({
  entry: z.string(),
  kind,
  rankScore: numOrNaN,
  wins: num.nullable(),
  podiums: num.nullable(),
  averagePlacement: num.nullable(),
  families: z.record(z.string(), numOrNaN),
  environments: num,
});

export const leaderboardSchema: z.ZodType<Leaderboard, unknown> = z.looseObject({
  entries: z.array(leaderboardEntrySchema),
  environments: z.array(environmentRankingSchema),
  skipped: z.array(z.string()),
});
