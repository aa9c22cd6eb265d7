/**
 * How a sandbox worker process is started: the current Node binary (Electron's, run as Node,
 * inside VS Code), the permission model allowing reads of the worker script and the plugins
 * only (so no writes, no child processes, no worker threads, no addons), a bounded heap, no
 * string code generation in any realm, an environment with nothing but allocator settings, and
 * the IPC channel in V8's serialization (records carry their trajectories as long strings, which
 * JSON would escape).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { WorkerArgs } from '../worker/messages';
import { mujocoReadPaths } from '../../envs/mujoco/engineFiles';

export interface SpawnConfig {
  nodePath: string;
  workerScript: string;
  heapMb: number;
  plugins: readonly string[];
}

export function workerArgv(config: SpawnConfig): string[] {
  const flags = process.allowedNodeEnvironmentFlags;
  // Node 20 spells it --experimental-permission; Node 22.13+ also accepts --permission.
  const permission = flags.has('--permission') ? '--permission' : '--experimental-permission';
  const args: WorkerArgs = { plugins: [...config.plugins] };
  return [
    permission,
    `--allow-fs-read=${config.workerScript}`,
    ...config.plugins.map((p) => `--allow-fs-read=${p}`),
    ...engineReads(),
    `--max-old-space-size=${config.heapMb}`,
    '--disallow-code-generation-from-strings',
    // One worker per core: V8's helper threads (parallel GC, concurrent compilation) would only
    // take turns with the other workers (measured: ~13% less worker CPU per batch without the GC
    // ones), and each holds memory of its own. A small young generation: episodes allocate little
    // that lives long, and each MiB of it is resident in every worker.
    '--single-threaded',
    '--max-semi-space-size=1',
    '--no-warnings',
    config.workerScript,
    JSON.stringify(args),
  ];
}

/** Environment engines the worker loads (the MuJoCo WebAssembly build: dist/mujoco/, node_modules). */
function engineReads(): string[] {
  return mujocoReadPaths().map((dir) => `--allow-fs-read=${dir}`);
}

/**
 * glibc's allocator, told to give memory back (other C libraries ignore these). V8's optimizing
 * compiler and a WebAssembly engine loading a model allocate tens of MB for moments; by default
 * glibc keeps such blocks in the heap once freed (its mmap threshold grows with every large free)
 * and gives helper threads arenas of their own, so a worker would stay at its highest footprint
 * for life. A fixed threshold at glibc's initial 128 KiB maps large blocks and unmaps them on free.
 */
export const WORKER_ALLOCATOR_ENV: Readonly<NodeJS.ProcessEnv> = {
  MALLOC_ARENA_MAX: '1',
  MALLOC_MMAP_THRESHOLD_: String(128 * 1024),
};

export function spawnWorker(config: SpawnConfig): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...WORKER_ALLOCATOR_ENV };
  if (process.versions['electron']) env['ELECTRON_RUN_AS_NODE'] = '1';
  // fd 4: the trace pipe (worker/trace.ts).
  return spawn(config.nodePath, workerArgv(config), { stdio: ['ignore', 'ignore', 'pipe', 'ipc', 'pipe'], env, serialization: 'advanced' });
}

/**
 * `dist/sandboxWorker.js`: beside this code when it runs bundled (dist/cli.js, dist/extension.js),
 * otherwise in the package's dist/ above it (tests and benchmarks run the sources through tsx).
 */
export function findWorkerScript(from: string = __dirname): string {
  const beside = path.join(from, 'sandboxWorker.js');
  if (existsSync(beside)) return beside;
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'dist', 'sandboxWorker.js');
    if (existsSync(candidate) && existsSync(path.join(dir, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(`the sandbox worker script dist/sandboxWorker.js was not found above ${from}: run \`npm run build\``);
}
