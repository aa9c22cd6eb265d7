/**
 * `policyforge run`: a whole headless run with a built-in agent. Creates a workspace (a temp
 * folder by default), serves it with an embedded runner, drives it over the same WebSocket
 * protocol as any client, then prints the report against the starter policy.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { agentsMd } from '../../agents/agentsMd';
import { policyforgeCommand } from '../../agents/cliCommand';
import { runAutotune } from '../../agents/autotune/autotune';
import { createRegistry } from '../../envs';
import type { RunReport } from '../../protocol/feedback';
import type { RunStatus } from '../../protocol/run';
import { RunnerClient } from '../../runner/client';
import { startRunnerHost } from '../../runner/host';
import { initWorkspace } from '../../runner/workspace';
import { parse, parseIntArg, parseParams } from '../args';
import { ExitCode, UsageError, type CliCommand } from '../command';
import { historyScoreFormat } from '../../stats/scoreFormat';
import { formatReport } from './format';
import { attachProgress } from './progress';
import { printJson } from './runClient';
import { externalAgentRequested, runWithExternalAgent, RUN_AGENT_USAGE } from './runAgent';

export const runCommand: CliCommand = {
  name: 'run',
  summary: 'A whole headless run: new workspace, built-in agent, validation, held-out report',
  usage: `policyforge run --env ID [--agent autotune|none] [--budget N] [--batch N] [--seed N] [--param name=value]... [--dir DIR | --keep] [--json] [--quiet]\n       ${RUN_AGENT_USAGE}`,
  async run(argv) {
    if (externalAgentRequested(argv)) return runWithExternalAgent(argv);
    const { values } = parse(
      argv,
      {
        env: { type: 'string' },
        agent: { type: 'string' },
        budget: { type: 'string' },
        batch: { type: 'string' },
        seed: { type: 'string' },
        param: { type: 'string', multiple: true },
        dir: { type: 'string' },
        json: { type: 'boolean' },
        quiet: { type: 'boolean' },
        keep: { type: 'boolean' },
      },
      false,
    );
    if (!values.env) throw new UsageError('--env is required (see `policyforge envs`)');
    const agent = values.agent ?? 'autotune';
    if (agent !== 'autotune' && agent !== 'none') throw new UsageError(`--agent must be autotune or none, got "${agent}"`);
    const json = values.json ?? false;
    const say = (line: string): void => {
      if (!json && !values.quiet) process.stderr.write(`${line}\n`);
    };
    const dir = values.dir ? path.resolve(values.dir) : fs.mkdtempSync(path.join(os.tmpdir(), `policyforge-${values.env.replace(/[^A-Za-z0-9]+/g, '-')}-`));
    const registry = createRegistry();
    const init = initWorkspace(
      dir,
      { envId: values.env, budget: parseIntArg('budget', values.budget, 128, 1), params: parseParams(values.param) as Record<string, number | string | boolean> },
      registry,
      { extraFiles: (def, config) => ({ 'AGENTS.md': agentsMd(def, config, policyforgeCommand()) }) },
    );
    if (!init.ok) {
      process.stderr.write(`policyforge run: ${init.error}\n`);
      return ExitCode.failed;
    }
    say(`workspace ${dir}: ${init.config.envId}, budget ${init.config.budget}, agent ${agent}`);
    const host = await startRunnerHost(dir, { registry, log: (m) => say(`[runner] ${m}`) });
    const client = await RunnerClient.connect({ port: host.port, token: host.token });
    const stop = attachProgress(client, !json && !values.quiet);
    let report: RunReport;
    let history: RunStatus['history'] = [];
    try {
      if (agent === 'autotune') {
        const r = await runAutotune(client, dir, { batch: parseIntArg('batch', values.batch, 8, 1), seed: parseIntArg('seed', values.seed, 1), log: say });
        const st = await client.status();
        say(`autotune: ${r.submissions} submissions, best train #${r.best.submission} (${historyScoreFormat(st.history).score(r.best.mean)})`);
      } else {
        const info = await client.info();
        for (let st = await client.status(); st.phase === 'agent' && st.budget.remaining > 0; st = await client.status()) {
          await client.submit({ episodes: Math.min(st.budget.remaining, info.maxEpisodesPerSubmit) });
        }
      }
      report = await client.finish();
      history = (await client.status()).history;
    } finally {
      stop();
      await client.close();
      await host.close();
    }
    // A workspace this command made up in the temporary folder is removed unless asked to keep it;
    // one named with --dir is the user's.
    const removed = !values.dir && !values.keep;
    if (removed) fs.rmSync(dir, { recursive: true, force: true });
    if (json) printJson({ ok: true, workspace: removed ? null : dir, report });
    else process.stdout.write(`${formatReport(report, history)}${removed ? `workspace removed (--keep keeps it, --dir DIR names it)` : `workspace: ${dir}`}\n`);
    return ExitCode.ok;
  },
};
