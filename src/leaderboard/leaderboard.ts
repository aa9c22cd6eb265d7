/**
 * The EvoPolicyGym leaderboard over result rows: per-environment competition ranking, the paper's
 * aggregate rank score (baselines included in K), family sub-scores, and wins, podiums and average
 * placement among the agents. Pure: the caller reads the rows (see sources.ts).
 */
import { competitionRanks, rankToScore } from './rank';
import type { EntryKind, EnvironmentRanking, Leaderboard, LeaderboardEntry, RankedEntry, ScoreRow } from './types';

export interface LeaderboardOptions {
  /** The environment's family when a row does not name one (default: the environment id). */
  familyOf?: (environment: string) => string;
  /** True when the environment declares that a lower score is better. */
  lowerIsBetter?: (environment: string) => boolean;
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Rows grouped by environment, then by entry, in first-seen order. */
function group(rows: readonly ScoreRow[]): Map<string, Map<string, ScoreRow[]>> {
  const out = new Map<string, Map<string, ScoreRow[]>>();
  for (const row of rows) {
    let env = out.get(row.environment);
    if (!env) out.set(row.environment, (env = new Map()));
    const list = env.get(row.entry);
    if (list) list.push(row);
    else env.set(row.entry, [row]);
  }
  return out;
}

function kindOf(entry: string, rows: readonly ScoreRow[]): EntryKind {
  const kinds = new Set(rows.map((r) => r.kind));
  if (kinds.size > 1) throw new Error(`entry "${entry}" is listed both as an agent and as a baseline`);
  return rows[0]!.kind;
}

function rankEnvironment(environment: string, byEntry: Map<string, ScoreRow[]>, options: LeaderboardOptions): EnvironmentRanking {
  const lowerIsBetter = options.lowerIsBetter?.(environment) ?? false;
  const family = [...byEntry.values()].flat().find((r) => r.family)?.family ?? options.familyOf?.(environment) ?? environment;
  const items = [...byEntry].map(([entry, rows]) => {
    const finite = rows.map((r) => r.score).filter((s): s is number => s !== null && Number.isFinite(s));
    return { entry, kind: kindOf(entry, rows), score: finite.length ? mean(finite) : null, repeats: rows.length };
  });
  const ranks = competitionRanks(items.map((i) => i.score), lowerIsBetter);
  const agents = items.map((it, i) => ({ it, i })).filter(({ it }) => it.kind === 'agent');
  const agentRanks = competitionRanks(agents.map(({ it }) => it.score), lowerIsBetter);
  const placement = new Map(agents.map(({ i }, j) => [i, agentRanks[j]!]));
  const K = items.length;
  const ranking: RankedEntry[] = items.map((it, i) => ({
    ...it,
    rank: ranks[i]!,
    rankScore: K >= 2 ? rankToScore(ranks[i]!, K) : NaN,
    placement: placement.get(i) ?? null,
  }));
  ranking.sort((a, b) => a.rank - b.rank || a.entry.localeCompare(b.entry));
  return { environment, family, lowerIsBetter, ranking };
}

export function buildLeaderboard(rows: readonly ScoreRow[], options: LeaderboardOptions = {}): Leaderboard {
  const environments = [...group(rows)].map(([env, byEntry]) => rankEnvironment(env, byEntry, options));
  const ranked = environments.filter((e) => e.ranking.length >= 2);
  const skipped = environments.filter((e) => e.ranking.length < 2).map((e) => e.environment);
  const per = new Map<string, { kind: EntryKind; scores: number[]; byFamily: Map<string, number[]>; placements: number[] }>();
  for (const env of ranked) {
    for (const r of env.ranking) {
      let acc = per.get(r.entry);
      if (!acc) per.set(r.entry, (acc = { kind: r.kind, scores: [], byFamily: new Map(), placements: [] }));
      if (acc.kind !== r.kind) throw new Error(`entry "${r.entry}" is listed both as an agent and as a baseline`);
      acc.scores.push(r.rankScore);
      const fam = acc.byFamily.get(env.family);
      if (fam) fam.push(r.rankScore);
      else acc.byFamily.set(env.family, [r.rankScore]);
      if (r.placement !== null) acc.placements.push(r.placement);
    }
  }
  const entries: LeaderboardEntry[] = [...per].map(([entry, acc]) => {
    const agent = acc.kind === 'agent';
    return {
      entry,
      kind: acc.kind,
      rankScore: mean(acc.scores),
      wins: agent ? acc.placements.filter((p) => p === 1).length : null,
      podiums: agent ? acc.placements.filter((p) => p <= 3).length : null,
      averagePlacement: agent ? mean(acc.placements) : null,
      families: Object.fromEntries([...acc.byFamily].sort(([a], [b]) => a.localeCompare(b)).map(([f, s]) => [f, mean(s)])),
      environments: acc.scores.length,
    };
  });
  entries.sort((a, b) => b.rankScore - a.rankScore || a.entry.localeCompare(b.entry));
  return { entries, environments, skipped };
}
