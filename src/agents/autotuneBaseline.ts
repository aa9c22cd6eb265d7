/**
 * The autotune baseline of a finished run: autotune given the same budget, from the environment's
 * starter policy, on the same cases. It runs as a run of its own in a scratch workspace with the
 * run's configuration and a copy of its secret, so its training feedback, its hidden validation
 * and the held-out cases its selected policy is scored on are exactly the run's. The result is
 * recorded in `.policyforge/baselines/autotune.json` and added to report.json as
 * `baselines.autotune` (src/runner/baselineRecords.ts); a second request reuses the record.
 *
 *   const { record, report } = await addAutotuneBaseline(workspace, { registry });
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EnvRegistry } from '../envs/core/registry';
import type { RunReport } from '../protocol/feedback';
import { readJson, writeJsonAtomic } from '../runner/atomicFs';
import { baselineRecordFile, withBaselineRecords, writeBaselineRecord, type BaselineRecord } from '../runner/baselineRecords';
import { RunnerClient } from '../runner/client';
import { parseFrozenConfig, type RunConfig } from '../runner/config';
import type { EpisodeExecutor } from '../runner/executor';
import { startRunnerHost } from '../runner/host';
import { workspacePaths } from '../runner/paths';
import { loadSecret, SeedDeriver, secretPath } from '../runner/secret';
import { initWorkspace } from '../runner/workspace';
import { runAutotune } from './autotune/autotune';

export const AUTOTUNE_BASELINE = 'autotune';

export interface AutotuneBaselineOptions {
  registry: EnvRegistry;
  executor?: EpisodeExecutor;
  /** autotune's mutation seed. Default 1. */
  seed?: number;
  log?: (line: string) => void;
}

/** Runs (or reuses) the autotune baseline of a finished run and returns the report with it. */
export async function addAutotuneBaseline(workspace: string, opts: AutotuneBaselineOptions): Promise<{ record: BaselineRecord; report: RunReport; reused: boolean }> {
  const paths = workspacePaths(workspace);
  const frozen = parseFrozenConfig(readJson<unknown>(paths.runJson));
  if (!frozen.ok) throw new Error(frozen.error);
  const report = readJson<RunReport>(paths.report);
  if (!report) throw new Error(`${paths.root} has no report yet: finish the run before adding a baseline`);
  const secret = loadSecret(frozen.config.runId);
  if (!secret) throw new Error(`the secret of this run is missing (${secretPath(frozen.config.runId)}): a baseline on its cases cannot be made`);
  const fingerprint = new SeedDeriver(secret).fingerprint();
  const existing = readJson<BaselineRecord>(baselineRecordFile(paths.root, AUTOTUNE_BASELINE));
  let record: BaselineRecord;
  let reused = false;
  if (existing && existing.secretFingerprint === fingerprint) {
    record = existing;
    reused = true;
  } else {
    record = await runShadow(frozen.config, secret, fingerprint, opts);
    writeBaselineRecord(paths.root, record);
  }
  const merged = withBaselineRecords(report, paths.root, fingerprint);
  writeJsonAtomic(paths.report, merged);
  return { record, report: merged, reused };
}

async function runShadow(config: RunConfig, secret: Buffer, fingerprint: string, opts: AutotuneBaselineOptions): Promise<BaselineRecord> {
  const log = opts.log ?? (() => undefined);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyforge-autotune-baseline-'));
  let shadowRunId: string | undefined;
  try {
    // The run's own configuration, as a new run: same environment, parameters, budget, pool and splits.
    const { protocolVersion: _v, runId: _id, createdAt: _at, ...input } = config;
    const init = initWorkspace(dir, input as Parameters<typeof initWorkspace>[1], opts.registry);
    if (!init.ok) throw new Error(`autotune baseline: ${init.error}`);
    shadowRunId = init.config.runId;
    // The same secret: the same training, validation and held-out cases. Written before the runner opens it.
    const file = secretPath(shadowRunId);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, secret.toString('hex'), { mode: 0o600, flag: 'wx' });
    const host = await startRunnerHost(dir, { registry: opts.registry, ...(opts.executor ? { executor: opts.executor } : {}), analysis: false, log: (m) => log(`autotune baseline: ${m}`) });
    const client = await RunnerClient.connect({ port: host.port, token: host.token });
    try {
      log(`autotune baseline: ${config.budget} episodes on ${config.envId}, from the starter policy`);
      await runAutotune(client, dir, { seed: opts.seed ?? 1, log: (m) => log(`autotune baseline: ${m}`) });
      const shadow = await client.finish();
      return {
        name: AUTOTUNE_BASELINE,
        heldOut: shadow.heldOut,
        budget: { used: shadow.budget.used, total: shadow.budget.total },
        selected: shadow.selected,
        ...(shadow.starterHeldOut !== undefined ? { starterHeldOut: shadow.starterHeldOut } : {}),
        secretFingerprint: fingerprint,
        createdAt: new Date().toISOString(),
        ...(shadow.selected === null ? { error: shadow.reason ?? 'autotune selected no submission' } : {}),
      };
    } finally {
      await client.close();
      await host.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    if (shadowRunId) fs.rmSync(secretPath(shadowRunId), { force: true });
  }
}
