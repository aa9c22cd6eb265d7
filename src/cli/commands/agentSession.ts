/**
 * The workspace and runner an agent command drives: an existing run named with --dir, or a new
 * workspace (a temporary folder by default, kept: its transcripts are the point), served by an
 * embedded runner whose runner.json lets the agent's own `policyforge` calls reach it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { agentsMd } from '../../agents/agentsMd';
import { createRegistry } from '../../envs';
import { RunnerClient } from '../../runner/client';
import { RunnerAlreadyRunning, startRunnerHost, type RunnerHost } from '../../runner/host';
import { connectOrStart } from '../../runner/launch';
import { workspacePaths } from '../../runner/paths';
import { initWorkspace } from '../../runner/workspace';
import { parseIntArg, parseParams } from '../args';
import { UsageError } from '../command';
import { attachProgress } from './progress';

export interface AgentSession {
  workspace: string;
  client: RunnerClient;
  /** A progress line on stderr (nothing with --json or --quiet). */
  say: (line: string) => void;
  close(): Promise<void>;
}

export interface SessionArgs {
  env?: string;
  dir?: string;
  budget?: string;
  param?: string[];
}

export async function openAgentSession(values: SessionArgs, output: { json: boolean; quiet?: boolean }): Promise<AgentSession> {
  const say = (line: string): void => {
    if (!output.json && !output.quiet) process.stderr.write(`${line}\n`);
  };
  const existing = values.dir && fs.existsSync(workspacePaths(values.dir).runJson);
  let workspace: string;
  if (existing) {
    workspace = path.resolve(values.dir!);
    if (values.env || values.budget || values.param) throw new UsageError(`${workspace} already holds a run: --env, --budget and --param describe a new one`);
  } else {
    if (!values.env) throw new UsageError('--env is required (see `policyforge envs`), unless --dir names an existing run');
    workspace = values.dir ? path.resolve(values.dir) : fs.mkdtempSync(path.join(os.tmpdir(), `policyforge-${values.env.replace(/[^A-Za-z0-9]+/g, '-')}-`));
    const init = initWorkspace(
      workspace,
      { envId: values.env, budget: parseIntArg('budget', values.budget, 128, 1), params: parseParams(values.param) as Record<string, number | string | boolean> },
      createRegistry(),
      // The agent finds `policyforge` on its PATH (a shim to this installation), so AGENTS.md names it bare.
      { extraFiles: (def, config) => ({ 'AGENTS.md': agentsMd(def, config, 'policyforge') }) },
    );
    if (!init.ok) throw new Error(init.error);
    say(`workspace ${workspace}: ${init.config.envId}, budget ${init.config.budget}`);
  }
  let host: RunnerHost | null = null;
  let client: RunnerClient;
  try {
    host = await startRunnerHost(workspace, { log: (m) => say(`[runner] ${m}`) });
    client = await RunnerClient.connect({ port: host.port, token: host.token });
  } catch (e) {
    if (!(e instanceof RunnerAlreadyRunning)) throw e;
    // A runner already serves the run (the editor's, a detached one): drive that one.
    client = await connectOrStart(workspace);
  }
  const stopProgress = attachProgress(client, !output.json && !output.quiet);
  return {
    workspace,
    client,
    say,
    async close() {
      stopProgress();
      await client.close();
      await host?.close();
    },
  };
}

/** `--agent-env A,B --agent-env C` → [A, B, C]. */
export function listArg(values: string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}
