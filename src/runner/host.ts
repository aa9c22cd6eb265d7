/**
 * Serving one workspace: open (and recover) its run, start the WebSocket server, register
 * runner.json. Used by the runner child process, `policyforge runner` and the embedded
 * headless run alike.
 */
import * as fs from 'node:fs';
import packageJson from '../../package.json';
import { createRegistry } from '../envs';
import type { EnvRegistry } from '../envs/core/registry';
import { PROTOCOL_VERSION } from '../protocol/run';
import type { EpisodeExecutor } from './executor';
import { readJson } from './atomicFs';
import { workspacePaths } from './paths';
import { Run, type RunOptions } from './run';
import { processAlive, readRunnerFile, removeRunnerFile, writeRunnerFile } from './runnerFile';
import { createSandboxExecutor } from './sandboxExecutor';
import { RunnerServer } from './server';
import { loadAnalysisHooks } from './analysisHooks';
import { acquireRunnerLock } from './runnerLock';
import { watchPolicy } from './policyWatcher';
import { ArenaRunner } from './arena/arenaRunner';
import type { ArenaService } from './arena/service';

export interface HostOptions {
  port?: number;
  host?: string;
  executor?: EpisodeExecutor;
  /** Sandbox worker processes of the host's own executor (default: one per core). */
  workers?: number;
  registry?: EnvRegistry;
  maxMessageBytes?: number;
  log?: (message: string) => void;
  assessStarter?: boolean;
  /** Wire the edit analysis into feedback and report (default true; loaded lazily). */
  analysis?: boolean;
}

export interface RunnerHost {
  readonly run: Run;
  /** The arena side of the run, when its environment is an arena game. */
  readonly arena?: ArenaService;
  readonly server: RunnerServer;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

export class RunnerAlreadyRunning extends Error {
  override name = 'RunnerAlreadyRunning';
  constructor(readonly pid: number, readonly port: number) {
    super(`a runner (pid ${pid}) already serves this workspace on port ${port}`);
  }
}

export async function startRunnerHost(workspace: string, opts: HostOptions = {}): Promise<RunnerHost> {
  const paths = workspacePaths(workspace);
  const existing = readRunnerFile(paths.root);
  if (existing && existing.pid !== process.pid && processAlive(existing.pid)) throw new RunnerAlreadyRunning(existing.pid, existing.port);
  const lock = acquireRunnerLock(paths.state);
  if (!lock.ok) {
    const f = readRunnerFile(paths.root);
    throw new RunnerAlreadyRunning(lock.pid, f?.port ?? 0);
  }
  try {
    return await serve(paths.root, opts, lock.release);
  } catch (e) {
    lock.release();
    throw e;
  }
}

async function serve(root: string, opts: HostOptions, releaseLock: () => void): Promise<RunnerHost> {
  const paths = workspacePaths(root);
  const registry = opts.registry ?? createRegistry();
  const ownExecutor = !opts.executor;
  const executor = opts.executor ?? createSandboxExecutor(opts.workers ? { workers: opts.workers } : {});
  const runOpts: RunOptions = { executor, registry, log: opts.log, runnerVersion: packageJson.version, assessStarter: opts.assessStarter };
  if (opts.analysis ?? true) Object.assign(runOpts, loadAnalysisHooks(opts.log));
  // Plugin environments must be registered before the run (which checks its env id) opens.
  const frozen = readJson<{ plugins?: unknown }>(paths.runJson);
  for (const p of Array.isArray(frozen?.plugins) ? frozen.plugins : []) {
    if (typeof p !== 'string') continue;
    const r = registry.loadPlugin(p);
    if (!r.ok) opts.log?.(r.error.message);
  }
  const run = Run.open(paths.root, runOpts);
  const arena = run.config.arena ? new ArenaRunner(run.config, paths, { executor, log: opts.log }) : undefined;
  const server = await RunnerServer.start(run, { host: opts.host, port: opts.port, maxMessageBytes: opts.maxMessageBytes, log: opts.log, ...(arena ? { arena } : {}) });
  run.prebuild();
  const watcher = watchPolicy(paths.policy, () => run.prebuild());
  writeRunnerFile(paths.root, { host: server.host, port: server.port, token: server.token, pid: process.pid, protocolVersion: PROTOCOL_VERSION, startedAt: new Date().toISOString() });
  let closed = false;
  return {
    run,
    ...(arena ? { arena } : {}),
    server,
    port: server.port,
    token: server.token,
    async close() {
      if (closed) return;
      closed = true;
      watcher.close();
      removeRunnerFile(paths.root);
      await server.close();
      await arena?.close();
      await run.close();
      if (ownExecutor) await executor.close();
      releaseLock();
    },
  };
}

/** True when the workspace has a run (a frozen run.json). */
export function hasRun(workspace: string): boolean {
  return fs.existsSync(workspacePaths(workspace).runJson);
}
