/**
 * What the Leaderboard panel shows and exports, computed by src/leaderboard exactly as
 * `policyforge leaderboard` computes it: rows from each source, one board, the CLI's JSON and CSV.
 * No `vscode` import, so it is unit-tested in plain Node.
 */
import { leaderboardCsv } from '../../leaderboard/format';
import { buildLeaderboard, type LeaderboardOptions } from '../../leaderboard/leaderboard';
import { readSource } from '../../leaderboard/sources';
import type { Leaderboard, ScoreRow } from '../../leaderboard/types';
import type { LeaderboardSnapshot, LeaderboardSource } from '../../protocol/webview';

export interface LoadedLeaderboard {
  snapshot: LeaderboardSnapshot;
  board: Leaderboard | null;
}

/** Reads every source (one that fails is named in `problems`; the rest still count) and ranks the rows. */
export function loadLeaderboard(paths: readonly string[], options: LeaderboardOptions): LoadedLeaderboard {
  const sources: LeaderboardSource[] = [];
  const problems: string[] = [];
  const rows: ScoreRow[] = [];
  for (const p of paths) {
    try {
      const read = readSource(p);
      sources.push({ path: p, kind: read.kind, rows: read.rows.length });
      rows.push(...read.rows);
    } catch (e) {
      problems.push(e instanceof Error ? e.message : String(e));
    }
  }
  let board: Leaderboard | null = null;
  if (rows.length > 0) {
    try {
      board = buildLeaderboard(rows, options);
    } catch (e) {
      problems.push(e instanceof Error ? e.message : String(e));
    }
  }
  return { snapshot: { type: 'leaderboard.snapshot', sources, board, problems }, board };
}

/** The file the CLI writes: `--json --out FILE` or `--format csv --out FILE`. */
export function leaderboardExport(board: Leaderboard, format: 'json' | 'csv'): string {
  return format === 'json' ? `${JSON.stringify(board, null, 2)}\n` : leaderboardCsv(board);
}
