/**
 * Budget-matched baselines computed outside the run (autotune: src/agents/autotuneBaseline.ts).
 * Each is a whole run of its own on a copy of this run's secret, so its training, validation and
 * held-out cases are this run's; its record (`.policyforge/baselines/<name>.json`) carries the
 * secret's fingerprint, and the report takes in only records whose fingerprint is this run's: a
 * baseline scored on other cases never sits beside the selected policy.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ReturnStats, RunReport } from '../protocol/feedback';
import { readJson, writeJsonAtomic } from './atomicFs';

export interface BaselineRecord {
  /** The report's `baselines` key (`autotune`). */
  name: string;
  /** The baseline's selected policy on the held-out cases (null: it selected nothing). */
  heldOut: ReturnStats | null;
  /** The baseline run's budget, the same total as this run's. */
  budget: { used: number; total: number };
  /** The submission its own selection picked. */
  selected: number | null;
  /** The starter policy's held-out result in the baseline's own run: equal to this run's when the cases are the same. */
  starterHeldOut?: ReturnStats | null;
  /** SeedDeriver.fingerprint() of the secret it ran on. */
  secretFingerprint: string;
  createdAt: string;
  error?: string;
}

export function baselinesDir(root: string): string {
  return path.join(root, '.policyforge', 'baselines');
}

export function baselineRecordFile(root: string, name: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error(`invalid baseline name "${name}"`);
  return path.join(baselinesDir(root), `${name}.json`);
}

export function writeBaselineRecord(root: string, record: BaselineRecord): void {
  fs.mkdirSync(baselinesDir(root), { recursive: true });
  writeJsonAtomic(baselineRecordFile(root, record.name), record);
}

/** Records that ran on this run's cases (by the secret's fingerprint), by name. */
export function readBaselineRecords(root: string, fingerprint: string): BaselineRecord[] {
  const dir = baselinesDir(root);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => readJson<BaselineRecord>(path.join(dir, f)))
    .filter((r): r is BaselineRecord => r !== undefined && typeof r.name === 'string' && r.secretFingerprint === fingerprint);
}

/** The report with every matching record among its baselines (`{ heldOut, budget, selected }`). */
export function withBaselineRecords(report: RunReport, root: string, fingerprint: string): RunReport {
  const records = readBaselineRecords(root, fingerprint);
  if (records.length === 0) return report;
  const baselines = { ...(report.baselines ?? {}) };
  for (const r of records) baselines[r.name] = { heldOut: r.heldOut, budget: r.budget, selected: r.selected, ...(r.error ? { error: r.error } : {}) };
  return { ...report, baselines };
}
