/** The leaderboard as text: one aggregate table (Markdown or CSV), then each environment's ranking. */
import { toCsv } from './csv';
import type { Leaderboard } from './types';

const fixed = (x: number | null, digits: number): string => (x === null || !Number.isFinite(x) ? '–' : x.toFixed(digits));

function aggregateRows(board: Leaderboard): { header: string[]; rows: (string | number | null)[][] } {
  const families = [...new Set(board.environments.filter((e) => !board.skipped.includes(e.environment)).map((e) => e.family))].sort();
  const header = ['place', 'entry', 'kind', 'rankScore', 'wins', 'podiums', 'averagePlacement', 'environments', ...families.map((f) => `family:${f}`)];
  const rows = board.entries.map((e, i) => [
    i + 1,
    e.entry,
    e.kind,
    Number(e.rankScore.toFixed(4)),
    e.wins,
    e.podiums,
    e.averagePlacement === null ? null : Number(e.averagePlacement.toFixed(2)),
    e.environments,
    ...families.map((f) => (f in e.families ? Number(e.families[f]!.toFixed(4)) : null)),
  ]);
  return { header, rows };
}

export function leaderboardCsv(board: Leaderboard): string {
  const { header, rows } = aggregateRows(board);
  return toCsv(header, rows);
}

const mdCell = (v: string | number | null): string => (v === null ? '–' : String(v).replace(/\|/g, '\\|'));
const mdTable = (header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`)].join('\n');

export function leaderboardMarkdown(board: Leaderboard): string {
  const { header, rows } = aggregateRows(board);
  const parts = [`## Leaderboard\n\n${mdTable(header, rows)}`];
  for (const env of board.environments) {
    const note = board.skipped.includes(env.environment) ? ' (one entry: left out of the aggregate)' : '';
    const dir = env.lowerIsBetter ? ', lower is better' : '';
    parts.push(
      `### ${env.environment} (${env.family}${dir})${note}\n\n${mdTable(
        ['rank', 'entry', 'kind', 'score', 'repeats', 'rankScore'],
        env.ranking.map((r) => [r.rank, r.entry, r.kind, r.score === null ? 'no score' : Number(r.score.toPrecision(6)), r.repeats, fixed(r.rankScore, 3)]),
      )}`,
    );
  }
  return parts.join('\n\n') + '\n';
}
