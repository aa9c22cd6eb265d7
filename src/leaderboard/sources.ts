/**
 * Where leaderboard rows come from: CSV files, run workspaces (their `.policyforge/report.json`)
 * and suite folders (their `results.csv`). A run contributes its selected policy's held-out mean
 * as an agent row and each baseline the report carries (the starter, and the budget-matched ones)
 * as a baseline row, all on the same held-out cases.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseScoreRows } from './csv';
import type { ScoreRow } from './types';

/** The parts of a report.json a leaderboard reads (older reports lack `baselines`). */
interface ReportLike {
  envId: string;
  heldOut: { mean: number } | null;
  starterHeldOut?: { mean: number } | null;
  baselines?: Record<string, { heldOut: { mean: number } | null } | undefined>;
}

export const SUITE_RESULTS = 'results.csv';

function isReport(x: unknown): x is ReportLike {
  return typeof x === 'object' && x !== null && typeof (x as ReportLike).envId === 'string' && 'heldOut' in x;
}

/** Rows from one run report: the agent, the starter and any other baselines. */
export function rowsFromReport(report: ReportLike, entry: string): ScoreRow[] {
  const rows: ScoreRow[] = [{ environment: report.envId, entry, score: report.heldOut?.mean ?? null, kind: 'agent' }];
  const baselines = new Map<string, number | null>();
  if (report.starterHeldOut !== undefined) baselines.set('starter', report.starterHeldOut?.mean ?? null);
  for (const [name, b] of Object.entries(report.baselines ?? {})) if (b) baselines.set(name, b.heldOut?.mean ?? null);
  for (const [name, score] of baselines) rows.push({ environment: report.envId, entry: name, score, kind: 'baseline' });
  return rows;
}

function readReport(file: string): ReportLike {
  const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!isReport(parsed)) throw new Error(`${file} is not a run report (no envId/heldOut)`);
  return parsed;
}

export type SourceKind = 'suite' | 'csv' | 'run' | 'report';

/**
 * Rows from one source, and what kind of source it was: a CSV file, a suite folder
 * (`results.csv`), a run workspace (`.policyforge/report.json`, entry named `entry` or after the
 * folder), or a report.json itself.
 */
export function readSource(source: string, entry?: string): { kind: SourceKind; rows: ScoreRow[] } {
  if (!fs.existsSync(source)) throw new Error(`${source}: no such file or folder`);
  if (fs.statSync(source).isDirectory()) {
    const suite = path.join(source, SUITE_RESULTS);
    if (fs.existsSync(suite)) return { kind: 'suite', rows: parseScoreRows(fs.readFileSync(suite, 'utf8'), suite) };
    const name = entry ?? path.basename(path.resolve(source));
    for (const report of [path.join(source, '.policyforge', 'report.json'), path.join(source, 'report.json')]) {
      if (fs.existsSync(report)) return { kind: 'run', rows: rowsFromReport(readReport(report), name) };
    }
    throw new Error(`${source}: neither a suite folder (${SUITE_RESULTS}) nor a finished run (.policyforge/report.json)`);
  }
  if (source.endsWith('.json')) return { kind: 'report', rows: rowsFromReport(readReport(source), entry ?? path.basename(path.dirname(path.resolve(source)))) };
  return { kind: 'csv', rows: parseScoreRows(fs.readFileSync(source, 'utf8'), source) };
}

/** Rows from one source (see readSource). */
export function readRows(source: string, entry?: string): ScoreRow[] {
  return readSource(source, entry).rows;
}
