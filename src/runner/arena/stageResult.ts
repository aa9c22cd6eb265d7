/** Per-opponent W/D/L and the points and win rates of a set of games (win 1, draw ½). */
import type { ArenaGame, ArenaStageResult, OpponentKind, OpponentResult } from '../../protocol/arena';

export function stageResult(games: readonly ArenaGame[], kindOf: (id: string) => OpponentKind): ArenaStageResult {
  const by = new Map<string, OpponentResult>();
  let points = 0, wins = 0;
  for (const g of games) {
    const r = by.get(g.opponent) ?? { opponent: g.opponent, kind: kindOf(g.opponent), W: 0, D: 0, L: 0, games: 0, points: 0, errors: [] };
    r[g.outcome]++;
    r.games++;
    const p = g.outcome === 'W' ? 1 : g.outcome === 'D' ? 0.5 : 0;
    r.points += p;
    points += p;
    if (g.outcome === 'W') wins++;
    if (g.error) r.errors.push(`${g.error.side}: ${g.error.message}`);
    by.set(g.opponent, r);
  }
  const n = games.length;
  return { games: n, pointsRate: n ? points / n : 0, winRate: n ? wins / n : 0, perOpponent: [...by.values()] };
}
