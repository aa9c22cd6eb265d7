/**
 * Finding or starting the runner of a workspace: clients read runner.json and connect; when no
 * live runner answers they spawn `dist/runnerProcess.js` detached (it outlives the client) and
 * wait for its ready line.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RunnerClient } from './client';
import { workspacePaths } from './paths';
import { processAlive, readRunnerFile } from './runnerFile';

/** `dist/runnerProcess.js`, beside this bundle (dist/cli.js) or in the repo's dist/ (tests via tsx). */
export function runnerEntry(): string {
  const candidates = [path.join(__dirname, 'runnerProcess.js'), path.join(__dirname, '..', '..', 'dist', 'runnerProcess.js'), path.join(__dirname, '..', 'dist', 'runnerProcess.js')];
  const found = candidates.find((c) => fs.existsSync(c));
  if (!found) throw new Error(`dist/runnerProcess.js not found (looked in ${candidates.join(', ')}); run "npm run build"`);
  return found;
}

export interface EnsureOptions {
  /** Start a runner when none answers. Default true. */
  start?: boolean;
  timeoutMs?: number;
}

/** Connects to the workspace's runner, starting one detached if needed. */
export async function connectOrStart(workspace: string, opts: EnsureOptions = {}): Promise<RunnerClient> {
  const paths = workspacePaths(workspace);
  if (!fs.existsSync(paths.runJson)) throw new Error(`${paths.root} holds no run (.policyforge/run.json is missing); create one with \`policyforge init --env ID\``);
  const existing = readRunnerFile(paths.root);
  if (existing && processAlive(existing.pid)) {
    try {
      return await RunnerClient.connect({ host: existing.host, port: existing.port, token: existing.token, timeoutMs: 3000 });
    } catch (e) {
      if (opts.start === false) throw e;
    }
  } else if (opts.start === false) {
    throw new Error(`no runner is serving ${paths.root}; start one with \`policyforge runner\``);
  }
  try {
    const ready = await spawnRunner(paths.root, opts.timeoutMs ?? 15_000);
    const f = readRunnerFile(paths.root);
    if (!f || f.port !== ready.port) throw new Error('the runner started but runner.json does not match its ready line');
    return await RunnerClient.connect({ host: f.host, port: f.port, token: f.token });
  } catch (e) {
    // Another client may have started a runner at the same moment and won the lock: use that one.
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      const f = readRunnerFile(paths.root);
      if (f && processAlive(f.pid)) {
        try {
          return await RunnerClient.connect({ host: f.host, port: f.port, token: f.token, timeoutMs: 3000 });
        } catch {
          // not listening yet
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw e;
  }
}

/** Runners started by a client command stop after this long with no client and no work. */
export const DETACHED_IDLE_EXIT_MS = Number(process.env.POLICYFORGE_RUNNER_IDLE_MS ?? 30 * 60 * 1000);

export interface ReadyLine {
  event: 'ready';
  port: number;
  pid: number;
  workspace: string;
}

/** Spawns a detached runner; resolves on its ready line, rejects with its stderr on failure. */
export function spawnRunner(workspace: string, timeoutMs: number): Promise<ReadyLine> {
  const log = path.join(workspacePaths(workspace).state, 'runner.log');
  fs.mkdirSync(path.dirname(log), { recursive: true });
  const errFd = fs.openSync(log, 'a');
  const child = spawn(process.execPath, [runnerEntry(), '--workspace', workspace, '--idle-exit-ms', String(DETACHED_IDLE_EXIT_MS)], { detached: true, stdio: ['ignore', 'pipe', errFd], env: process.env });
  fs.closeSync(errFd);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => finish(new Error(`the runner did not become ready within ${timeoutMs} ms (see ${log})`)), timeoutMs);
    const finish = (err: Error | null, ready?: ReadyLine): void => {
      clearTimeout(timer);
      child.stdout?.removeAllListeners();
      child.removeAllListeners('exit');
      child.stdout?.destroy();
      child.unref();
      if (err) reject(err);
      else resolve(ready!);
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      try {
        const ready = JSON.parse(out.slice(0, nl)) as ReadyLine;
        if (ready.event === 'ready') finish(null, ready);
      } catch {
        finish(new Error(`unexpected runner output: ${out.slice(0, nl)}`));
      }
    });
    child.once('exit', (code) => {
      let tail = '';
      try {
        tail = fs.readFileSync(log, 'utf8').trim().split('\n').slice(-3).join('\n');
      } catch {
        // no log
      }
      finish(new Error(`the runner exited with code ${code} before it was ready${tail ? `: ${tail}` : ''}`));
    });
  });
}
