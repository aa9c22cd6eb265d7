/**
 * `policyforge leaderboard`: ranks run results across environments the way the EvoPolicyGym
 * leaderboard does (src/leaderboard). Sources are CSV files, suite folders and run workspaces.
 */
import * as fs from 'node:fs';
import { createRegistry } from '../../envs';
import { buildLeaderboard } from '../../leaderboard/leaderboard';
import { leaderboardCsv, leaderboardMarkdown } from '../../leaderboard/format';
import { optionsFromDefinitions } from '../../leaderboard/options';
import { readRows } from '../../leaderboard/sources';
import type { Leaderboard, ScoreRow } from '../../leaderboard/types';
import { parse } from '../args';
import { ExitCode, UsageError, type CliCommand } from '../command';
import { printJson } from './runClient';

/** Family and score direction from the environment registry; ids it does not know fall in `other`. */
export function registryLeaderboardOptions(extraLowerIsBetter: readonly string[] = []) {
  const registry = createRegistry();
  return optionsFromDefinitions((id) => (registry.has(id) ? registry.get(id) : undefined), extraLowerIsBetter);
}

export function renderLeaderboard(board: Leaderboard, format: 'markdown' | 'csv'): string {
  return format === 'csv' ? leaderboardCsv(board) : leaderboardMarkdown(board);
}

export const leaderboardCommand: CliCommand = {
  name: 'leaderboard',
  summary: 'Rank run results across environments (competition ranks, the paper\'s rank score)',
  usage:
    'policyforge leaderboard <results.csv | suite folder | run workspace>... [--entry NAME] [--lower-is-better ENV]... [--format markdown|csv] [--json] [--out FILE]\n' +
    '  A CSV has the columns environment,entry,score,kind (kind: agent or baseline; optional family).\n' +
    '  A run workspace contributes its selected policy (named --entry, or after the folder) and its baselines.',
  async run(argv) {
    const { values, positionals } = parse(argv, {
      entry: { type: 'string' },
      'lower-is-better': { type: 'string', multiple: true },
      format: { type: 'string' },
      json: { type: 'boolean' },
      out: { type: 'string' },
    });
    if (!positionals.length) throw new UsageError('give at least one results CSV, suite folder or run workspace');
    const format = values.format ?? 'markdown';
    if (format !== 'markdown' && format !== 'csv') throw new UsageError(`--format must be markdown or csv, got "${format}"`);
    const rows: ScoreRow[] = [];
    for (const source of positionals) {
      try {
        rows.push(...readRows(source, values.entry));
      } catch (e) {
        process.stderr.write(`policyforge leaderboard: ${e instanceof Error ? e.message : String(e)}\n`);
        return ExitCode.failed;
      }
    }
    let board: Leaderboard;
    try {
      board = buildLeaderboard(rows, registryLeaderboardOptions(values['lower-is-better']));
    } catch (e) {
      process.stderr.write(`policyforge leaderboard: ${e instanceof Error ? e.message : String(e)}\n`);
      return ExitCode.failed;
    }
    const text = values.json ? `${JSON.stringify(board, null, 2)}\n` : renderLeaderboard(board, format);
    if (values.out) fs.writeFileSync(values.out, text);
    else if (values.json) printJson(board);
    else process.stdout.write(text);
    return ExitCode.ok;
  },
};
