/**
 * Memory of a real submit: a 128-episode MiniGrid-DoorKey-8x8 `policyforge submit` of the starter
 * policy through the CLI (which starts the detached runner and its sandbox workers from dist/),
 * then the peak resident memory (VmHWM) of the runner and of its busiest sandbox worker, each
 * against the peak of a bare `node` process started in the same run; also the peak of the
 * runner's short-lived TypeScript tools child and the submit's trajectory bytes; a worker's resident
 * memory after twelve such submits in one run against after the first; then the peak of a
 * sandbox worker with MuJoCo loaded, from a short HalfCheetah submit and a FetchPush one. Linux only (/proc).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { childProcesses, peakResidentMb, residentMb } from '../src/sandbox/pool/residentMemory';
import type { BenchModule } from './harness';
import { bareNodeMb, MUJOCO_WORKER_GOAL_MIB } from './processMemory';

const ROOT = path.resolve(__dirname, '..');
const CLI = path.join(ROOT, 'bin', 'policyforge.js');
const ENV_ID = 'MiniGrid-DoorKey-8x8-v0';
const EPISODES = 128;
/** A walker (one small model, 1000-step episodes) and a robot arm (meshes, 50-step episodes). */
const MUJOCO_SUBMITS = [
  { id: 'HalfCheetah-v5', episodes: 16 },
  { id: 'FetchPush-v4', episodes: 128 },
] as const;

function cli(cwd: string, ...args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`policyforge ${args.join(' ')} exited ${r.status}: ${r.stderr || r.stdout}`);
  return r.stdout;
}

interface SubmitPeaks {
  runner: number;
  workers: number[];
  tools: number[];
  bytes: number;
}

/**
 * A run of the starter on `envId` in a new workspace `root/name` with `budget` episodes: its
 * first `policyforge submit` of `episodes` episodes, which starts the runner, then `measure`
 * with the workspace and the runner's pid; the runner is stopped after.
 */
function inRun<T>(root: string, name: string, envId: string, budget: number, episodes: number, measure: (ws: string, runnerPid: number) => T): T {
  const ws = path.join(root, name);
  let runnerPid: number | undefined;
  try {
    cli(root, 'init', '--env', envId, '--budget', String(budget), name);
    cli(ws, 'submit', '--episodes', String(episodes));
    runnerPid = (JSON.parse(fs.readFileSync(path.join(ws, '.policyforge', 'runner.json'), 'utf8')) as { pid: number }).pid;
    return measure(ws, runnerPid);
  } finally {
    if (runnerPid !== undefined) {
      try {
        process.kill(runnerPid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
  }
}

/** A real `policyforge submit` of the starter on `envId` (`episodes` episodes), then the peaks of the runner and its children. */
function submitPeaks(root: string, envId: string, episodes: number): SubmitPeaks {
  return inRun(root, envId, envId, episodes * 2, episodes, (ws, runnerPid) => {
    const runner = peakResidentMb(runnerPid);
    const workers = childProcesses(runnerPid, 'sandboxWorker').map((p) => peakResidentMb(p) ?? 0);
    // The type check and edit analysis run in a child that exits after a minute idle (src/runner/tsTools).
    const tools = childProcesses(runnerPid, 'tsTools').map((p) => peakResidentMb(p) ?? 0);
    if (runner === null || workers.length === 0) throw new Error(`memory: no peak for the runner (${runnerPid}) or its ${workers.length} sandbox workers`);
    const dir = path.join(ws, 'feedback', 'submit-0001', 'episodes');
    const bytes = fs.readdirSync(dir).reduce((a, f) => a + fs.statSync(path.join(dir, f)).size, 0);
    return { runner, workers, tools, bytes };
  });
}

/** Submits of the creep row: enough that garbage a worker kept would show, as a long run's submits would. */
const CREEP_SUBMITS = 12;

/** Resident memory (MiB) of the runner's largest sandbox worker. */
function workerRss(runnerPid: number): number {
  return Math.max(...childProcesses(runnerPid, 'sandboxWorker').map((p) => residentMb(p) ?? 0));
}

/**
 * `CREEP_SUBMITS` back-to-back submits of the starter in one run: the largest worker's resident
 * memory after the first and after the last.
 */
function submitCreep(root: string, envId: string, episodes: number): { first: number; last: number } {
  return inRun(root, `${envId}-creep`, envId, episodes * (CREEP_SUBMITS + 1), episodes, (ws, runnerPid) => {
    const first = workerRss(runnerPid);
    for (let i = 1; i < CREEP_SUBMITS; i++) cli(ws, 'submit', '--episodes', String(episodes));
    return { first, last: workerRss(runnerPid) };
  });
}

export const memoryBench: BenchModule = {
  name: 'memory',
  async run(table) {
    if (process.platform !== 'linux') {
      process.stdout.write('memory: skipped (peak resident memory is read from /proc)\n');
      return;
    }
    const bare = bareNodeMb();
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-bench-memory-'));
    try {
      const m = submitPeaks(root, ENV_ID, EPISODES);
      table.duration(`runner peak RSS, ${EPISODES}-episode DoorKey-8x8 submit`, m.runner, 'MiB', 'bare node', bare, '≤ 150 MiB');
      table.duration(`sandbox worker peak RSS (max of ${m.workers.length})`, Math.max(...m.workers), 'MiB', 'bare node', bare, '≤ 80 MiB');
      if (m.tools.length > 0) process.stdout.write(`  the runner's TypeScript tools child peaked at ${Math.max(...m.tools).toFixed(0)} MiB (it exits when idle)\n`);
      process.stdout.write(`  trajectories of that submit: ${(m.bytes / 1e6).toFixed(2)} MB (goal ≤ 3 MB)\n`);
      const creep = submitCreep(root, ENV_ID, EPISODES);
      table.duration(`sandbox worker RSS after ${CREEP_SUBMITS} DoorKey-8x8 submits`, creep.last, 'MiB', 'after the first', creep.first, '≤ 1.1×');
      // One MuJoCo model per worker, as a run on one environment has it.
      for (const { id, episodes } of MUJOCO_SUBMITS) {
        const j = submitPeaks(root, id, episodes);
        table.duration(`sandbox worker peak RSS with MuJoCo loaded, ${episodes}-episode ${id} submit`, Math.max(...j.workers), 'MiB', 'bare node', bare, `≤ ${MUJOCO_WORKER_GOAL_MIB.toFixed(0)} MiB (150 MB)`);
        process.stdout.write(`  trajectories of that submit: ${(j.bytes / 1e6).toFixed(2)} MB\n`);
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  },
};
