/**
 * The distributed engine: BullMQ on Redis. `runOnRedis` (the suite's own process) puts each job on
 * the queue under a stable id and writes every report that comes back into the suite folder;
 * `startRedisWorker` (`policyforge suite worker`, on any machine) takes jobs and runs them.
 *
 * A worker that dies mid-run stops renewing its job's lock; BullMQ's stalled-job check puts the
 * job back on the queue and another worker takes it. That worker resumes the run's workspace when
 * it can see it (a shared work folder: the journal keeps every charge, so none is made twice) or
 * starts the run afresh in its own; either way the suite records exactly one report per job.
 */
import * as path from 'node:path';
import { Job, Queue, Worker, type ConnectionOptions } from 'bullmq';
import type { EnvRegistry } from '../envs/core/registry';
import type { RunReport } from '../protocol/feedback';
import type { EpisodeExecutor } from '../runner/executor';
import type { SuiteJob } from './job';
import type { JobEvents } from './localEngine';
import { runJob } from './runJob';
import type { SuiteFolder } from './suiteFolder';

export const QUEUE_NAME = 'policyforge-suite';

export interface QueuedJob extends SuiteJob {
  suiteId: string;
}

export function redisConnection(url: string): ConnectionOptions {
  if (!/^rediss?:\/\//.test(url)) throw new Error(`--queue must be a redis:// URL, got "${url}"`);
  // Workers block on the queue: ioredis must not give up on commands while Redis is briefly away.
  return { url, maxRetriesPerRequest: null };
}

const queueJobId = (suiteId: string, job: SuiteJob): string => `${suiteId}__${job.id}`;

export interface RedisSuiteOptions {
  url: string;
  suiteId: string;
  /** Attempts per job before the suite gives up on it (a stalled attempt counts). */
  attempts?: number;
  pollMs?: number;
}

/** Queues every job without a report, then waits for all of them; resolves with the ids that failed. */
export async function runOnRedis(folder: SuiteFolder, jobs: readonly SuiteJob[], opts: RedisSuiteOptions, events: JobEvents = {}): Promise<string[]> {
  const queue = new Queue<QueuedJob, RunReport>(QUEUE_NAME, { connection: redisConnection(opts.url) });
  try {
    const pending = new Map<string, SuiteJob>();
    for (const job of jobs) {
      if (folder.report(job)) continue;
      const id = queueJobId(opts.suiteId, job);
      const existing = await Job.fromId<QueuedJob, RunReport>(queue, id);
      if (existing && (await existing.getState()) === 'failed') await existing.retry();
      else if (!existing) await queue.add('run', { ...job, suiteId: opts.suiteId }, { jobId: id, attempts: opts.attempts ?? 3, removeOnComplete: false, removeOnFail: false });
      pending.set(id, job);
    }
    const started = new Set<string>();
    const progress = new Map<string, string>();
    const failed: string[] = [];
    while (pending.size > 0) {
      for (const [id, job] of [...pending]) {
        // The state first, then the job: a job read while active and completed just after has no return value yet.
        const state = await queue.getJobState(id);
        const j = await Job.fromId<QueuedJob, RunReport>(queue, id);
        if (!j || state === 'unknown') throw new Error(`job ${id} vanished from the queue`);
        if (state === 'completed') {
          const report = typeof j.returnvalue === 'string' ? (JSON.parse(j.returnvalue) as RunReport) : j.returnvalue;
          if (!report) continue;
          folder.storeReport(job, report);
          pending.delete(id);
          events.finished?.(job, report);
        } else if (state === 'failed' && j.attemptsMade >= (j.opts.attempts ?? 1)) {
          pending.delete(id);
          failed.push(job.id);
          events.failed?.(job, new Error(j.failedReason || 'failed'));
        } else if (state === 'active') {
          if (!started.has(id)) {
            started.add(id);
            events.started?.(job);
          }
          const p = j.progress as { used?: number; total?: number } | number;
          const key = JSON.stringify(p);
          if (typeof p === 'object' && p.used !== undefined && p.total !== undefined && progress.get(id) !== key) {
            progress.set(id, key);
            events.progress?.(job, p.used, p.total);
          }
        }
      }
      if (pending.size > 0) await new Promise((r) => setTimeout(r, opts.pollMs ?? 500));
    }
    return failed;
  } finally {
    await queue.close();
  }
}

export interface RedisWorkerOptions {
  url: string;
  /** Where this worker keeps run workspaces: `<workDir>/<suite id>/<job id>/`. */
  workDir: string;
  concurrency: number;
  registry: EnvRegistry;
  executor: EpisodeExecutor;
  /** How long a job's lock lasts without renewal; a dead worker's job is retried after about this long. */
  lockMs?: number;
  /**
   * Run jobs whose agent is an external command. Off by default: such a job asks the worker to
   * run a shell command line it took from the queue, which only a queue the worker's owner trusts
   * may do (`suite worker --allow-agent-cmd`).
   */
  allowAgentCommands?: boolean;
  log?: (line: string) => void;
}

export interface RedisWorker {
  close(): Promise<void>;
}

export async function startRedisWorker(opts: RedisWorkerOptions): Promise<RedisWorker> {
  const log = opts.log ?? (() => undefined);
  const lockDuration = opts.lockMs ?? 30_000;
  const worker = new Worker<QueuedJob, RunReport>(
    QUEUE_NAME,
    async (job) => {
      const data = job.data;
      if (data.external && !opts.allowAgentCommands) {
        throw new Error(`${data.id} runs the external agent command "${data.external.command}": start this worker with --allow-agent-cmd to run such jobs`);
      }
      log(`${data.id}: started (attempt ${job.attemptsMade + 1})`);
      const report = await runJob(data, path.join(opts.workDir, data.suiteId, data.id), {
        registry: opts.registry,
        executor: opts.executor,
        log,
        onSubmitted: (used, total) => void job.updateProgress({ used, total }).catch(() => undefined),
      });
      log(`${data.id}: done, held-out ${report.heldOut ? report.heldOut.mean.toFixed(3) : 'none'}`);
      return report;
    },
    {
      connection: redisConnection(opts.url),
      concurrency: opts.concurrency,
      lockDuration,
      stalledInterval: Math.max(1000, Math.round(lockDuration / 2)),
      // A job whose worker died is put back this many times before it fails.
      maxStalledCount: 3,
    },
  );
  worker.on('failed', (job, err) => log(`${job?.data.id ?? '?'}: failed: ${err.message}`));
  worker.on('error', (err) => log(`worker error: ${err.message}`));
  await worker.waitUntilReady();
  return { close: () => worker.close() };
}
