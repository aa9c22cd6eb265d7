/** Shared set-up of the runner tests: temp workspaces, one sandbox pool, hosts over real sockets. */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRegistry } from '../../../src/envs';
import { RunnerClient } from '../../../src/runner/client';
import type { RunConfigInput } from '../../../src/runner/config';
import type { EpisodeExecutor } from '../../../src/runner/executor';
import { startRunnerHost, type HostOptions, type RunnerHost } from '../../../src/runner/host';
import { createSandboxExecutor } from '../../../src/runner/sandboxExecutor';
import { processAlive, readRunnerFile } from '../../../src/runner/runnerFile';
import { initWorkspace } from '../../../src/runner/workspace';

export const REPO = path.resolve(__dirname, '..', '..', '..');
export const CLI = path.join(REPO, 'bin', 'policyforge.js');
export const RUNNER_ENTRY = path.join(REPO, 'dist', 'runnerProcess.js');

const tmpRoots: string[] = [];

export function tmpDir(prefix: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `pf-${prefix}-`));
  tmpRoots.push(d);
  return d;
}

/** Every test process keeps its run secrets in a temp data dir, never in the user's. */
export function useTempDataDir(): string {
  const d = tmpDir('data');
  process.env.POLICYFORGE_DATA_DIR = d;
  return d;
}

/** Removes the temp folders, after stopping the runners the CLI started detached in them. */
export function cleanupTmp(): void {
  for (const d of tmpRoots.splice(0)) {
    stopWorkspaceRunners(d);
    fs.rmSync(d, { recursive: true, force: true });
  }
}

/**
 * Stops every runner registered in a workspace at or under `root`: a CLI command starts its
 * workspace's runner detached, and it would outlive the test until its idle exit (30 minutes).
 * SIGTERM first so it closes its sandbox workers, SIGKILL if it is still up after 5 s.
 */
export function stopWorkspaceRunners(root: string): void {
  for (const ws of workspacesUnder(root, 4)) {
    const f = readRunnerFile(ws);
    if (!f || !isRunnerProcess(f.pid)) continue;
    try {
      process.kill(f.pid, 'SIGTERM');
    } catch {
      continue;
    }
    const deadline = Date.now() + 5000;
    while (processAlive(f.pid) && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    if (processAlive(f.pid)) process.kill(f.pid, 'SIGKILL');
  }
}

function workspacesUnder(dir: string, depth: number): string[] {
  if (fs.existsSync(path.join(dir, '.policyforge', 'run.json'))) return [dir];
  if (depth === 0) return [];
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.filter((e) => e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')).flatMap((e) => workspacesUnder(path.join(dir, e.name), depth - 1));
}

/**
 * Only a runner process is signalled: a pid in a stale runner.json may since belong to another
 * process, and a host a test runs in process registers the test's own pid.
 */
function isRunnerProcess(pid: number): boolean {
  if (pid === process.pid || !processAlive(pid)) return false;
  if (process.platform !== 'linux') return true;
  try {
    const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args.some((a) => a.endsWith('runnerProcess.js')) || (args.some((a) => a.endsWith('policyforge.js')) && args.includes('runner'));
  } catch {
    return false;
  }
}

export function makeWorkspace(config: Partial<RunConfigInput> = {}): string {
  const dir = tmpDir('ws');
  const r = initWorkspace(dir, { envId: 'CartPole-v1', budget: 16, validationCases: 4, heldOutCases: 4, ...config }, createRegistry());
  if (!r.ok) throw new Error(r.error);
  return dir;
}

export function writePolicy(dir: string, source: string, file = 'policy/policy.ts'): void {
  fs.writeFileSync(path.join(dir, file), source);
}

/** A CartPole policy with a tunable constant: pushes by the sign of angle + k·angular velocity. */
export function cartPolicy(k: number, extra = ''): string {
  return `export class Policy {
  constructor(_ctx: PolicyContext) {}
  act(o: Observation): Action {
    ${extra}
    return o[2]! + ${k.toFixed(3)} * o[3]! > 0 ? 1 : 0;
  }
}
`;
}

/**
 * Iterations per act that keep a CartPole batch running for a good fraction of a second per
 * episode (its policy balances the whole 500 steps), so a test can interrupt it mid-batch however
 * fast the sandbox runs the loop; one act stays far below the act limit.
 */
export const INTERRUPTIBLE_ITERATIONS = 1_000_000;

/** A policy whose every act burns CPU, so a submission takes long enough to be interrupted. */
export function slowPolicy(iterations = 3_000_000): string {
  return cartPolicy(0.5, `let x = 0; for (let i = 0; i < ${iterations}; i++) x += Math.sqrt(i); if (x < 0) return 0;`);
}

let shared: EpisodeExecutor | undefined;
export function sharedExecutor(): EpisodeExecutor {
  shared ??= createSandboxExecutor({ workers: 2 });
  return shared;
}

export async function closeSharedExecutor(): Promise<void> {
  await shared?.close();
  shared = undefined;
}

export async function startHost(dir: string, opts: HostOptions = {}): Promise<RunnerHost> {
  return startRunnerHost(dir, { executor: sharedExecutor(), analysis: false, assessStarter: false, log: () => undefined, ...opts });
}

export async function connect(host: RunnerHost): Promise<RunnerClient> {
  return RunnerClient.connect({ port: host.port, token: host.token });
}

export function readEvents(dir: string): { type: string; [k: string]: unknown }[] {
  return fs
    .readFileSync(path.join(dir, '.policyforge', 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string });
}

export async function waitFor<T>(what: string, fn: () => T | undefined | false, timeoutMs = 15_000, everyMs = 20): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export interface Runner {
  child: ChildProcess;
  client: RunnerClient;
  exited: Promise<number | null>;
}

const spawned: ChildProcess[] = [];

/** Spawns the real runner process (dist/runnerProcess.js) and connects to it. */
export async function spawnRunner(dir: string, extraArgs: string[] = []): Promise<Runner> {
  const child = spawn(process.execPath, [RUNNER_ENTRY, '--workspace', dir, ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  spawned.push(child);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const ready = await new Promise<{ port: number; pid: number }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))) as { port: number; pid: number });
    });
    child.once('exit', (code) => reject(new Error(`runner exited ${code}: ${err}`)));
  });
  assert.equal(ready.pid, child.pid);
  const info = readRunnerFile(dir)!;
  assert.equal(info.port, ready.port);
  const client = await RunnerClient.connect({ port: info.port, token: info.token });
  return { child, client, exited };
}

/** Kills every runner process a test spawned that is still alive. */
export function killSpawnedRunners(): void {
  for (const c of spawned.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}

/**
 * Mocha hooks for a describe whose tests start runners in this process: data goes to a temporary
 * folder, and the shared sandbox executor and the folder are gone afterwards.
 */
export function useInProcessRunners(): void {
  before(() => useTempDataDir());
  after(async () => {
    await closeSharedExecutor();
    cleanupTmp();
  });
}

/**
 * Mocha hooks for a describe whose tests spawn real runner processes: the built runner must
 * exist, data goes to a temporary folder, and every spawned runner and temporary folder is gone
 * afterwards, even when a test failed half-way.
 */
export function useSpawnedRunners(): void {
  before(() => {
    assert.ok(fs.existsSync(RUNNER_ENTRY), 'dist/runnerProcess.js is built (npm run build)');
    useTempDataDir();
  });
  after(() => {
    killSpawnedRunners();
    cleanupTmp();
  });
}
