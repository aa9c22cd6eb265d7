/**
 * Runner overhead. `run.status` round trip over the authenticated JSON-RPC WebSocket against a
 * bare WebSocket echo on the same machine; and a 128-episode CartPole `run.submit` until its
 * feedback is durable (bundle, checkpoint, journal, atomic fsynced feedback, edit analysis) against the
 * sandbox running the same 128 episodes directly on the same pool.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { WebSocket, WebSocketServer } from 'ws';
import { createRegistry } from '../src/envs';
import { RunnerClient } from '../src/runner/client';
import { startRunnerHost } from '../src/runner/host';
import { createSandboxExecutor } from '../src/runner/sandboxExecutor';
import { loadSecret, SeedDeriver } from '../src/runner/secret';
import { initWorkspace } from '../src/runner/workspace';
import { parseFrozenConfig } from '../src/runner/config';
import type { BenchModule, BenchTable } from './harness';

const EPISODES = 128;

/**
 * A full collection before each timed batch: a batch leaves ~15 MB of trajectory text behind,
 * and without this the next one (the submit after the direct batch, or the reverse) pays for
 * collecting it in the middle of its own run.
 */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

async function echoRoundTripMs(n: number): Promise<number> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  wss.on('connection', (s) => s.on('message', (d) => s.send(d.toString())));
  const ws = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`);
  await new Promise((r) => ws.once('open', r));
  const payload = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'run.status', params: {} });
  const once = (): Promise<void> => new Promise((r) => { ws.once('message', () => r()); ws.send(payload); });
  for (let i = 0; i < 50; i++) await once();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await once();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6 / n;
  ws.close();
  await new Promise((r) => wss.close(() => r(undefined)));
  return ms;
}

/** Workspaces, each with one submit of a new policy and RESUBMITS of the same one. */
const WORKSPACES = 5;
const RESUBMITS = 3;

/** A workspace with the starter policy. */
function workspace(root: string, i: number): string {
  const dir = path.join(root, `ws-${i}`);
  // Budget above the submits, so no validation starts behind the measurement.
  const r = initWorkspace(dir, { envId: 'CartPole-v1', budget: EPISODES * (RESUBMITS + 2) }, createRegistry());
  if (!r.ok) throw new Error(r.error);
  return dir;
}

/** The policy the bench submits: it keeps the pole up for the whole 500 steps, the heaviest feedback per episode. */
function writeBenchPolicy(dir: string): void {
  const file = path.join(dir, 'policy', 'policy.ts');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('[0.0, 0.0, 1.0, 0.0]', '[0.0, 0.0, 1.0, 0.5]'));
}

/**
 * The idle spell before every timing, direct or submit: about what `policyforge submit` takes to
 * start and connect here (`policyforge status` answers in 250 ms, a bare `node -e 0` in 100),
 * before an agent's or a person's own steps. A policy saved before it is built meanwhile
 * (Run.prebuild), as it would be for them; and both sides start from the same idle spell.
 */
const IDLE_BEFORE_MS = 250;

/**
 * Before each timing: a full collection, so neither timing shares the machine with the last
 * one's leftovers. A submit returns once its feedback is durable, so the runner has nothing left
 * to do in the background.
 */
function quiet(): void {
  collectGarbage();
}

function readRunConfig(dir: string) {
  const r = parseFrozenConfig(JSON.parse(fs.readFileSync(path.join(dir, '.policyforge', 'run.json'), 'utf8')));
  if (!r.ok) throw new Error(r.error);
  return r.config;
}

export const runnerBench: BenchModule = {
  name: 'runner',
  async run(table: BenchTable) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-bench-runner-'));
    const prevData = process.env.POLICYFORGE_DATA_DIR;
    process.env.POLICYFORGE_DATA_DIR = path.join(root, 'data');
    const executor = createSandboxExecutor();
    try {
      // run.status latency.
      const dir0 = workspace(root, 0);
      writeBenchPolicy(dir0);
      const host0 = await startRunnerHost(dir0, { executor, log: () => undefined });
      const client = await RunnerClient.connect({ port: host0.port, token: host0.token });
      const n = 500;
      // The host loads ts-morph in the background for the edit analysis; measure after it.
      await new Promise((r) => setTimeout(r, 2500));
      for (let i = 0; i < 50; i++) await client.status();
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i++) await client.status();
      const statusMs = Number(process.hrtime.bigint() - t0) / 1e6 / n;
      const echoMs = await echoRoundTripMs(n);
      table.duration('run.status round trip', statusMs * 1000, 'µs', 'bare ws echo', echoMs * 1000);
      await client.close();
      await host0.close();

      // Direct sandbox batches of the same episodes (warm pool, bundle built once), interleaved
      // with the runner's submits so both see the same machine load.
      const built = await executor.build(dir0);
      if (!built.ok) throw new Error('bench policy does not build');
      const cfg = readRunConfig(dir0);
      const trainLimits = { maxTrajectorySteps: cfg.maxTrajectorySteps, maxLogBytes: cfg.maxLogBytes, recordSnapshots: cfg.recordSnapshots, episodeTimeoutMs: cfg.episodeTimeoutMs, actTimeoutMs: cfg.actTimeoutMs };
      let direct = Infinity;
      let warm = Infinity;
      let cold = Infinity;
      for (let i = 1; i <= WORKSPACES; i++) {
        const dir = workspace(root, i);
        const host = await startRunnerHost(dir, { executor, log: () => undefined, assessStarter: false });
        const c = await RunnerClient.connect({ port: host.port, token: host.token });
        // The very cases the runner will run: the same seeds, from the run's own secret.
        const secret = loadSecret(readRunConfig(dir).runId);
        if (!secret) throw new Error('the run has no secret');
        const seeds = new SeedDeriver(secret);
        const specs = Array.from({ length: EPISODES }, (_, k) => seeds.episode('train', k));
        const idle = async (): Promise<void> => {
          await new Promise((r) => setTimeout(r, IDLE_BEFORE_MS));
          quiet();
        };
        const timeDirect = async (): Promise<void> => {
          await idle();
          const t = process.hrtime.bigint();
          // The same recording as a submit (trajectory cap, snapshots, log cap), so the ratio is the runner's own cost.
          await executor.runBatch({ bundle: built.bundle, envId: 'CartPole-v1', params: {}, episodes: specs, limits: trainLimits });
          direct = Math.min(direct, Number(process.hrtime.bigint() - t) / 1e6);
        };
        // Untimed: the workspace's first submission (the starter, 2 episodes) makes its feedback
        // and checkpoint folders, which a fresh workspace has yet to make once.
        await c.submit({ cases: '0-1' });
        // Only submits are timed (not the host start). The first is of a new policy, saved while
        // the runner ran, which the edit analysis compares with the starter; the others resubmit
        // the unchanged policy/ (what an agent does to get more evidence). Which of submit and
        // direct batch goes first alternates, so neither always runs right after the other.
        const kinds = ['cold', ...Array<'warm'>(RESUBMITS).fill('warm')] as const;
        for (const [round, kind] of kinds.entries()) {
          if (round % 2 === 0) await timeDirect();
          if (kind === 'cold') writeBenchPolicy(dir);
          await idle();
          const t = process.hrtime.bigint();
          const s = await c.submit({ cases: `0-${EPISODES - 1}` });
          const ms = Number(process.hrtime.bigint() - t) / 1e6;
          if (kind === 'cold') cold = Math.min(cold, ms);
          else warm = Math.min(warm, ms);
          if (!fs.existsSync(path.join(dir, 'feedback', `submit-${String(s.submission).padStart(4, '0')}`, 'summary.json')) || s.episodes.length !== EPISODES) throw new Error('feedback missing');
          if (round % 2 === 1) await timeDirect();
        }
        await c.close();
        await host.close();
      }
      table.duration(`run.submit ${EPISODES} CartPole → feedback (new policy)`, cold, 'ms', 'sandbox runBatch direct', direct, '≤ 1.5×');
      table.duration(`run.submit ${EPISODES} CartPole → feedback (resubmit)`, warm, 'ms', 'sandbox runBatch direct', direct, '≤ 1.5×');
    } finally {
      await executor.close();
      if (prevData === undefined) delete process.env.POLICYFORGE_DATA_DIR;
      else process.env.POLICYFORGE_DATA_DIR = prevData;
      fs.rmSync(root, { recursive: true, force: true });
    }
  },
};
