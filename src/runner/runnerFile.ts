/** `.policyforge/runner.json` (mode 0600): how clients find and authenticate to a live runner. */
import * as fs from 'node:fs';
import { readJson, writeJsonAtomic } from './atomicFs';
import { workspacePaths } from './paths';

export interface RunnerFile {
  host: string;
  port: number;
  token: string;
  pid: number;
  protocolVersion: number;
  startedAt: string;
}

export function writeRunnerFile(workspace: string, info: RunnerFile): void {
  writeJsonAtomic(workspacePaths(workspace).runnerJson, info, 0o600);
}

export function readRunnerFile(workspace: string): RunnerFile | undefined {
  const f = readJson<Partial<RunnerFile>>(workspacePaths(workspace).runnerJson);
  if (!f || typeof f.port !== 'number' || typeof f.token !== 'string' || typeof f.pid !== 'number') return undefined;
  return { host: f.host ?? '127.0.0.1', port: f.port, token: f.token, pid: f.pid, protocolVersion: f.protocolVersion ?? 0, startedAt: f.startedAt ?? '' };
}

/** Removes runner.json only if it still describes this process (a newer runner may own it). */
export function removeRunnerFile(workspace: string, pid = process.pid): void {
  const f = readRunnerFile(workspace);
  if (f && f.pid !== pid) return;
  fs.rmSync(workspacePaths(workspace).runnerJson, { force: true });
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * A runner that died but was not reaped yet (its parent has not waited for it, or a container's
 * init never does) still answers signal 0; on Linux its state in /proc says it is gone, so a
 * client restarts the runner instead of waiting on a dead one.
 */
function isZombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state follows the parenthesised command name, which may itself contain ") ".
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}
