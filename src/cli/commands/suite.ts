/**
 * `policyforge suite`: many runs (environments × repeats) with one agent, locally on an embedded
 * queue or through BullMQ on Redis with `suite worker` processes on any machine; resumable, and
 * it writes the leaderboard at the end (src/suite).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRegistry } from '../../envs';
import { createSandboxExecutor } from '../../runner/sandboxExecutor';
import { AGENT_PRESETS, findPreset } from '../../agents/external/presets';
import { SUITE_AGENTS, planJobs, type ExternalAgentSpec, type SuiteJob } from '../../suite/job';
import { runLocal, type JobEvents } from '../../suite/localEngine';
import { describePresets, resolveEnvs } from '../../suite/presets';
import { runOnRedis, startRedisWorker } from '../../suite/redisEngine';
import { SuiteFolder, type SuiteSpec } from '../../suite/suiteFolder';
import { parse, parseIntArg } from '../args';
import { ExitCode, UsageError, type CliCommand } from '../command';
import { listArg } from './agentSession';
import { registryLeaderboardOptions } from './leaderboard';
import { printJson } from './runClient';

const USAGE = [
  `policyforge suite run --envs <ids|preset>[,…] [--agent autotune|random|${AGENT_PRESETS.map((p) => p.name).join('|')}] [--repeats N] [--budget B] [--dir DIR] [--parallel P] [--queue redis://host:port] [--validation-cases N] [--held-out-cases N] [--json]`,
  '       policyforge suite run --envs … --agent-cmd "COMMAND" [--agent-name NAME] [--agent-env NAME,...] [--time-limit SECONDS] [--retries N] [--retry-backoff-ms MS] [--grace SECONDS] …',
  '       policyforge suite run --dir DIR            (resume a suite: runs without a report are run or resumed)',
  '       policyforge suite worker --queue redis://host:port [--concurrency N] [--work DIR] [--workers N] [--allow-agent-cmd]',
  '       policyforge suite presets [--json]',
].join('\n');

function newSuiteId(): string {
  const t = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return `suite-${t}-${Math.random().toString(36).slice(2, 6)}`;
}

function progressEvents(total: number, quiet: boolean, doneBefore: number): JobEvents {
  let done = doneBefore;
  const say = (line: string): void => {
    if (!quiet) process.stderr.write(`${line}\n`);
  };
  return {
    started: (job) => say(`[${done}/${total}] ${job.id}: started`),
    progress: (job, used, budget) => say(`[${done}/${total}] ${job.id}: ${used}/${budget} episodes`),
    finished: (job, report) => {
      done++;
      const held = report.heldOut ? report.heldOut.mean.toPrecision(4) : 'no selection';
      const starter = report.starterHeldOut ? `, starter ${report.starterHeldOut.mean.toPrecision(4)}` : '';
      say(`[${done}/${total}] ${job.id}: held-out ${held}${starter}`);
    },
    failed: (job, e) => say(`[${done}/${total}] ${job.id}: FAILED: ${e.message}`),
  };
}

interface AgentArgs {
  agent?: string;
  'agent-cmd'?: string;
  'agent-name'?: string;
  'agent-env'?: string[];
  'time-limit'?: string;
  retries?: string;
  'retry-backoff-ms'?: string;
  grace?: string;
}

/**
 * The suite's agent: a built-in one, an external-agent preset (`--agent codex`) or a command line
 * (`--agent-cmd`), which the launcher of `policyforge run --agent-cmd` runs on every job.
 */
function suiteAgent(values: AgentArgs): { agent: string; external?: ExternalAgentSpec } {
  const preset = values.agent ? findPreset(values.agent) : undefined;
  const command = preset?.command ?? values['agent-cmd'];
  const launcherFlags = (['agent-env', 'time-limit', 'retries', 'retry-backoff-ms', 'grace', 'agent-name'] as const).filter((k) => values[k] !== undefined);
  if (command === undefined) {
    const agent = values.agent ?? 'autotune';
    if (!(SUITE_AGENTS as readonly string[]).includes(agent)) {
      throw new UsageError(`--agent must be one of ${[...SUITE_AGENTS, ...AGENT_PRESETS.map((p) => p.name)].join(', ')} (or give --agent-cmd), got "${agent}"`);
    }
    if (launcherFlags.length) throw new UsageError(`--${launcherFlags[0]} applies to external agents only (--agent-cmd or a preset)`);
    return { agent };
  }
  if (values.agent && values['agent-cmd']) throw new UsageError('give --agent PRESET or --agent-cmd COMMAND, not both');
  if (!command.trim()) throw new UsageError('--agent-cmd needs a command line');
  const agent = values['agent-name'] ?? preset?.name ?? 'agent-cmd';
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(agent)) throw new UsageError(`--agent-name must be letters, digits, ".", "_" or "-" (it names job folders), got "${agent}"`);
  if ((SUITE_AGENTS as readonly string[]).includes(agent)) throw new UsageError(`--agent-name "${agent}" is a built-in agent's name; pick another`);
  const allowEnv = [...(preset?.env ?? []), ...listArg(values['agent-env'])];
  const bad = allowEnv.find((n) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
  if (bad) throw new UsageError(`--agent-env takes variable names, got "${bad}"`);
  return {
    agent,
    external: {
      command,
      ...(allowEnv.length ? { allowEnv } : {}),
      ...(values['time-limit'] !== undefined ? { timeLimitS: parseIntArg('time-limit', values['time-limit'], 3600, 1) } : {}),
      ...(values.retries !== undefined ? { retries: parseIntArg('retries', values.retries, 5, 0) } : {}),
      ...(values['retry-backoff-ms'] !== undefined ? { backoffMs: parseIntArg('retry-backoff-ms', values['retry-backoff-ms'], 4000, 0) } : {}),
      ...(values.grace !== undefined ? { graceS: parseIntArg('grace', values.grace, 10, 0) } : {}),
    },
  };
}

async function suiteRun(argv: string[]): Promise<number> {
  const { values } = parse(
    argv,
    {
      envs: { type: 'string' },
      agent: { type: 'string' },
      repeats: { type: 'string' },
      budget: { type: 'string' },
      dir: { type: 'string' },
      parallel: { type: 'string' },
      queue: { type: 'string' },
      'validation-cases': { type: 'string' },
      'held-out-cases': { type: 'string' },
      'agent-cmd': { type: 'string' },
      'agent-name': { type: 'string' },
      'agent-env': { type: 'string', multiple: true },
      'time-limit': { type: 'string' },
      retries: { type: 'string' },
      'retry-backoff-ms': { type: 'string' },
      grace: { type: 'string' },
      json: { type: 'boolean' },
      quiet: { type: 'boolean' },
    },
    false,
  );
  const registry = createRegistry();
  const folder = new SuiteFolder(path.resolve(values.dir ?? newSuiteId()));
  let spec = folder.readSpec();
  if (spec && values.envs) throw new UsageError(`${folder.root} already holds a suite (suite.json); run "policyforge suite run --dir ${values.dir}" alone to resume it`);
  if (!spec) {
    if (!values.envs) throw new UsageError('--envs is required (ids or presets; see "policyforge suite presets")');
    const { agent, external } = suiteAgent(values);
    const envs = resolveEnvs(values.envs, (id) => registry.has(id));
    if (envs.available.length === 0) throw new UsageError(`none of the environments is available here: ${envs.missing.join(', ')}`);
    const validationCases = values['validation-cases'] ? parseIntArg('validation-cases', values['validation-cases'], 16, 1) : undefined;
    const heldOutCases = values['held-out-cases'] ? parseIntArg('held-out-cases', values['held-out-cases'], 32, 1) : undefined;
    spec = {
      id: path.basename(folder.root).replace(/[^A-Za-z0-9._-]+/g, '-'),
      envs: envs.available,
      missing: envs.missing,
      agent,
      ...(external ? { external } : {}),
      repeats: parseIntArg('repeats', values.repeats, 1, 1),
      budget: parseIntArg('budget', values.budget, 128, 1),
      ...(validationCases ? { validationCases } : {}),
      ...(heldOutCases ? { heldOutCases } : {}),
      createdAt: new Date().toISOString(),
    } satisfies SuiteSpec;
    folder.writeSpec(spec);
  }
  const quiet = values.json === true || values.quiet === true;
  const jobs: SuiteJob[] = planJobs(spec.envs, spec.agent, spec.repeats, spec.budget, {
    ...(spec.validationCases ? { validationCases: spec.validationCases } : {}),
    ...(spec.heldOutCases ? { heldOutCases: spec.heldOutCases } : {}),
    ...(spec.external ? { external: spec.external } : {}),
  });
  const already = jobs.filter((j) => folder.report(j)).length;
  if (!quiet) {
    process.stderr.write(`suite ${folder.root}: ${jobs.length} runs (${spec.envs.length} environments × ${spec.repeats}), agent ${spec.agent}, budget ${spec.budget}${already ? `, ${already} already done` : ''}\n`);
    if (spec.missing.length) process.stderr.write(`not available in this build (skipped): ${spec.missing.join(', ')}\n`);
  }
  const events = progressEvents(jobs.length, quiet, already);
  let failed: string[];
  if (values.queue) {
    failed = await runOnRedis(folder, jobs, { url: values.queue, suiteId: spec.id }, events);
  } else {
    const parallel = parseIntArg('parallel', values.parallel, Math.max(1, Math.floor(os.availableParallelism() / 2)), 1);
    const executor = createSandboxExecutor({});
    try {
      failed = await runLocal(folder, jobs, { parallel, registry, executor }, events);
    } finally {
      await executor.close();
    }
  }
  const board = folder.writeLeaderboard(jobs, registryLeaderboardOptions());
  if (values.json) printJson({ ok: failed.length === 0, suite: folder.root, failed, missing: spec.missing, leaderboard: board });
  else {
    process.stdout.write(`${fs.readFileSync(path.join(folder.root, 'leaderboard.md'), 'utf8')}`);
    process.stdout.write(`\nsuite folder: ${folder.root} (results.csv, leaderboard.md, leaderboard.json)\n`);
    if (failed.length) process.stdout.write(`failed runs (rerun "policyforge suite run --dir ${folder.root}" to retry): ${failed.join(', ')}\n`);
  }
  return failed.length ? ExitCode.failed : ExitCode.ok;
}

async function suiteWorker(argv: string[]): Promise<number> {
  const { values } = parse(
    argv,
    { queue: { type: 'string' }, concurrency: { type: 'string' }, work: { type: 'string' }, workers: { type: 'string' }, 'lock-ms': { type: 'string' }, 'allow-agent-cmd': { type: 'boolean' } },
    false,
  );
  if (!values.queue) throw new UsageError('--queue redis://host:port is required');
  const workDir = path.resolve(values.work ?? path.join(os.tmpdir(), 'policyforge-suite-worker'));
  const workers = values.workers ? parseIntArg('workers', values.workers, 0, 1) : undefined;
  const executor = createSandboxExecutor(workers ? { workers } : {});
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const worker = await startRedisWorker({
    url: values.queue,
    workDir,
    concurrency: parseIntArg('concurrency', values.concurrency, 1, 1),
    registry: createRegistry(),
    executor,
    ...(values['lock-ms'] ? { lockMs: parseIntArg('lock-ms', values['lock-ms'], 30_000, 1000) } : {}),
    allowAgentCommands: values['allow-agent-cmd'] === true,
    log,
  });
  log(`suite worker ready on ${values.queue}, runs in ${workDir}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  log('suite worker: finishing the current run, then stopping');
  await worker.close();
  await executor.close();
  return ExitCode.ok;
}

function suitePresets(argv: string[]): number {
  const { values } = parse(argv, { json: { type: 'boolean' } }, false);
  const registry = createRegistry();
  const presets = describePresets((id) => registry.has(id));
  if (values.json) printJson(presets);
  else
    for (const p of presets) {
      process.stdout.write(`${p.name} (${p.ids.length}): ${p.ids.join(', ')}\n`);
      process.stdout.write(p.missing.length ? `  not available yet: ${p.missing.join(', ')}\n` : '  all available\n');
    }
  return ExitCode.ok;
}

export const suiteCommand: CliCommand = {
  name: 'suite',
  summary: 'Many runs (environments × repeats) locally or on Redis workers, then the leaderboard',
  usage: USAGE,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === 'run') return suiteRun(rest);
    if (sub === 'worker') return suiteWorker(rest);
    if (sub === 'presets') return suitePresets(rest);
    throw new UsageError(sub ? `unknown suite subcommand "${sub}"` : 'give a subcommand: run, worker or presets');
  },
};
