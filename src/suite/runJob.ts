/**
 * Runs one suite job to its report in a workspace folder, or resumes it there. The run's journal
 * is the ledger: a job interrupted part-way is reopened from its workspace, the runner's recovery
 * keeps what was charged, and the agent spends only the budget that remains, so a retry never
 * charges an episode twice. A workspace that already holds a report is not run again.
 *
 * An external coding agent (`job.external`) is started in the workspace by the same launcher as
 * `policyforge run --agent-cmd` (src/agents/external): its `policyforge` calls reach this job's
 * runner through the workspace's runner.json, and its transcript stays in the workspace.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentsMd } from '../agents/agentsMd';
import { runAutotune } from '../agents/autotune/autotune';
import { policyforgeCommand } from '../agents/cliCommand';
import { runExternalAgent } from '../agents/external/launcher';
import type { EnvRegistry } from '../envs/core/registry';
import type { RunReport } from '../protocol/feedback';
import { RunnerClient } from '../runner/client';
import type { EpisodeExecutor } from '../runner/executor';
import { hasRun, startRunnerHost } from '../runner/host';
import { initWorkspace } from '../runner/workspace';
import type { SuiteJob } from './job';
import { RANDOM_POLICY_SOURCE } from '../envs/core/randomPolicy';

/** Episodes per submission of the random agent: several submissions, so progress and resumption have steps. */
const RANDOM_BATCH = 8;

export interface RunJobOptions {
  registry: EnvRegistry;
  /** A sandbox executor shared by the jobs of one process (the host makes its own without one). */
  executor?: EpisodeExecutor;
  log?: (line: string) => void;
  /** The environment an external agent's allowed variables are taken from (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Called with each submission's budget use, for progress. */
  onSubmitted?: (used: number, total: number) => void;
}

export function reportPath(workspace: string): string {
  return path.join(workspace, '.policyforge', 'report.json');
}

export function readJobReport(workspace: string): RunReport | null {
  const file = reportPath(workspace);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as RunReport) : null;
}

export async function runJob(job: SuiteJob, workspace: string, opts: RunJobOptions): Promise<RunReport> {
  const done = readJobReport(workspace);
  if (done) return done;
  const log = opts.log ?? (() => undefined);
  if (!hasRun(workspace)) {
    fs.mkdirSync(workspace, { recursive: true });
    const init = initWorkspace(
      workspace,
      {
        envId: job.envId,
        budget: job.budget,
        ...(job.validationCases ? { validationCases: job.validationCases } : {}),
        ...(job.heldOutCases ? { heldOutCases: job.heldOutCases } : {}),
      },
      opts.registry,
      // An external agent finds `policyforge` on its PATH (the launcher's shim), so its AGENTS.md names it bare.
      { extraFiles: (def, config) => ({ 'AGENTS.md': agentsMd(def, config, job.external ? 'policyforge' : policyforgeCommand()) }) },
    );
    if (!init.ok) throw new Error(`${job.id}: ${init.error}`);
    if (job.agent === 'random') fs.writeFileSync(path.join(workspace, 'policy', 'policy.ts'), RANDOM_POLICY_SOURCE);
  } else log(`${job.id}: resuming the run in ${workspace}`);
  const host = await startRunnerHost(workspace, { registry: opts.registry, ...(opts.executor ? { executor: opts.executor } : {}), analysis: false, log: (m) => log(`${job.id}: ${m}`) });
  const client = await RunnerClient.connect({ port: host.port, token: host.token });
  if (opts.onSubmitted) client.on('run.submitted', (n) => opts.onSubmitted!(n.summary.budget.used, n.summary.budget.total));
  try {
    if (job.external) {
      const x = job.external;
      const result = await runExternalAgent({
        workspace,
        command: x.command,
        client,
        allowEnv: x.allowEnv ?? [],
        ...(x.timeLimitS !== undefined ? { timeLimitMs: x.timeLimitS * 1000 } : {}),
        ...(x.retries !== undefined ? { retries: x.retries } : {}),
        ...(x.backoffMs !== undefined ? { backoffMs: x.backoffMs } : {}),
        ...(x.graceS !== undefined ? { graceMs: x.graceS * 1000 } : {}),
        ...(opts.env ? { env: opts.env } : {}),
        log: (m) => log(`${job.id}: ${m}`),
      });
      return result.report;
    }
    const info = await client.info();
    const status = await client.status();
    if (status.phase === 'agent' && status.budget.remaining >= info.minEpisodesPerSubmit) {
      if (job.agent === 'autotune') await runAutotune(client, workspace, { seed: job.seed });
      else {
        for (let st = status; st.phase === 'agent' && st.budget.remaining >= info.minEpisodesPerSubmit; st = await client.status()) {
          const n = Math.max(info.minEpisodesPerSubmit, Math.min(st.budget.remaining, info.maxEpisodesPerSubmit, RANDOM_BATCH));
          await client.submit({ episodes: n, note: 'uniform random policy' });
        }
      }
    }
    return await client.finish();
  } finally {
    await client.close();
    await host.close();
  }
}
