/**
 * SandboxPool: runs batches of episodes on a pool of sandboxed worker processes (default one
 * per core). Workers start on first use and stay warm between batches. A worker that dies
 * (killed at a deadline or the memory limit, or crashed) is replaced and the rest of the batch
 * goes on; batches may run concurrently and share the workers.
 */
import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRegistry } from '../../envs';
import { NO_TRAJECTORY, type EpisodeRecord } from '../../protocol/episodes';
import type { BatchRequest, EpisodeLimits, SandboxPoolOptions } from '../types';
import { findWorkerScript } from './workerSpawn';
import { JobQueue } from './jobQueue';
import { WorkerHandle, type Job, type LostJobs } from './workerHandle';

export const DEFAULT_EPISODE_LIMITS: EpisodeLimits = {
  episodeTimeoutMs: 30_000,
  actTimeoutMs: 1_000,
  maxTrajectorySteps: 1_000,
  maxLogBytes: 64 * 1024,
  recordSnapshots: false,
};

/** Each worker's V8 heap limit, and how much more it may hold resident (typed arrays live outside the heap). */
export const DEFAULT_HEAP_MB = 512;
export const DEFAULT_RSS_HEADROOM_MB = 512;

/** A request the pool refuses before running anything (unknown environment, bad parameter, bad limits). */
export class SandboxRequestError extends Error {
  override name = 'SandboxRequestError';
}

/** Workers that die before becoming ready this many times in a row fail the queued episodes. */
const MAX_STARTUP_FAILURES = 3;
/** Most episodes in one chunk; smaller near a batch's end, so the workers finish together. */
const MAX_CHUNK = 32;
/**
 * Least expected run time of a chunk. The worker's next chunk is sent when the host has read
 * its last report, and while the workers keep every core busy the host may wait a millisecond
 * or more to be scheduled: chunks of a few short episodes each left the workers idle at the end
 * of a batch (a 128-episode CartPole batch made ~8 round trips per worker).
 */
const MIN_CHUNK_MS = 2;
/** Environment ids and parameters remembered as valid (see checkEnvironment). */
const CHECKED_ENVIRONMENTS_KEPT = 64;
/** Weight of the newest episode in the running estimate of an environment's episode time. */
const EPISODE_MS_WEIGHT = 0.25;

interface Batch {
  request: BatchRequest;
  records: (EpisodeRecord | undefined)[];
  pending: number;
  done: boolean;
  /** A worker running this batch's episodes died: the rest run in exact chunks (see workerHandle.ts). */
  exact: boolean;
  finish(): void;
}

interface QueuedJob extends Job {
  batch: Batch;
  index: number;
  pluginKey: string;
  plugins: readonly string[];
  /** Run alone, reporting every phase. */
  exact: boolean;
}

export class SandboxPool {
  readonly size: number;
  private readonly heapMb: number;
  private readonly rssLimitMb: number;
  private readonly nodePath: string;
  private readonly workerScript: string | undefined;
  private readonly workers = new Set<WorkerHandle>();
  private readonly queue = new JobQueue<QueuedJob>();
  private nextJob = 1;
  private startupFailures = 0;
  private spawned = 0;
  /** Recent wall time of an ok episode, per environment id: sizes chunks (see MIN_CHUNK_MS). */
  private readonly episodeMs = new Map<string, number>();
  private readonly registry = createRegistry();
  /**
   * The environment whose engine each worker has loaded, for ids that need one (MuJoCo's models).
   * Engine memory is never given back (WebAssembly memory only grows), so a worker simulates one
   * such environment for life: keeping a second model would add its memory to the first's, and a
   * pool shared by several runs (a suite) would grow every worker to the sum of their models.
   */
  private readonly engineOf = new WeakMap<WorkerHandle, string>();
  /** Environment ids and parameters known to make an environment (see checkEnvironment). */
  private readonly checkedEnvironments = new Set<string>();
  private closed = false;

  constructor(options: SandboxPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.workers ?? (os.availableParallelism?.() ?? os.cpus().length)));
    this.heapMb = options.heapMb ?? DEFAULT_HEAP_MB;
    this.rssLimitMb = options.rssLimitMb ?? this.heapMb + DEFAULT_RSS_HEADROOM_MB;
    this.nodePath = options.nodePath ?? process.execPath;
    this.workerScript = options.workerScript;
  }

  /**
   * Runs every episode of the request; resolves to their records in request order. Rejects
   * only for a request that cannot run at all (SandboxRequestError) or a closed pool.
   */
  runBatch(request: BatchRequest): Promise<EpisodeRecord[]> {
    if (this.closed) return Promise.reject(new SandboxRequestError('the sandbox pool is closed'));
    let limits: EpisodeLimits;
    try {
      limits = checkLimits({ ...DEFAULT_EPISODE_LIMITS, ...request.limits });
      this.checkEnvironment(request);
    } catch (e) {
      return Promise.reject(e);
    }
    const plugins = [...(request.plugins ?? [])].map((p) => path.resolve(p)).sort();
    const pluginKey = plugins.join('\n');
    return new Promise<EpisodeRecord[]>((resolve) => {
      const batch: Batch = {
        request,
        records: new Array<EpisodeRecord | undefined>(request.episodes.length),
        pending: request.episodes.length,
        done: false,
        exact: false,
        finish: () => {
          if (batch.done) return;
          batch.done = true;
          resolve(batch.records.filter((r): r is EpisodeRecord => r !== undefined));
        },
      };
      if (batch.pending === 0) return batch.finish();
      this.queue.push(request.episodes.map((spec, index): QueuedJob => ({ id: this.nextJob++, batch, index, spec, bundle: request.bundle, ...(request.opponent ? { opponent: request.opponent } : {}), envId: request.envId, params: request.params, limits, crashes: 0, pluginKey, plugins, exact: false })));
      const signal = request.signal;
      if (signal) {
        const onAbort = (): void => this.abortBatch(batch);
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
      }
      this.dispatch();
    });
  }

  /**
   * Worker processes started so far, replacements included: more than `size` means workers were
   * killed (deadlines, memory) or crashed. Each costs a process start and a cold compiler.
   */
  get workersStarted(): number {
    return this.spawned;
  }

  /** Stops every worker; running batches resolve with the records they have. */
  async close(): Promise<void> {
    this.closed = true;
    const batches = new Set([...this.queue.removeWhere(() => true), ...[...this.workers].flatMap((w) => w.pending as QueuedJob[])].map((j) => j.batch));
    for (const w of this.workers) w.close();
    this.workers.clear();
    for (const b of batches) b.finish();
  }

  /** Host-side validation of the built-in environments, so a bad id or parameter costs nothing. */
  private checkEnvironment(request: BatchRequest): void {
    if (request.plugins && request.plugins.length > 0) return; // plugin ids are known to the workers only
    const registry = this.registry;
    if (!registry.has(request.envId)) {
      try {
        registry.get(request.envId);
      } catch (e) {
        throw new SandboxRequestError(e instanceof Error ? e.message : String(e));
      }
    }
    // Parameters that made an environment once will again: making one costs ~20 µs a batch.
    const key = `${request.envId}\n${JSON.stringify(request.params)}`;
    if (this.checkedEnvironments.has(key)) return;
    try {
      registry.make(request.envId, request.params);
    } catch (e) {
      throw new SandboxRequestError(e instanceof Error ? e.message : String(e));
    }
    if (this.checkedEnvironments.size >= CHECKED_ENVIRONMENTS_KEPT) this.checkedEnvironments.clear();
    this.checkedEnvironments.add(key);
  }

  private abortBatch(batch: Batch): void {
    this.queue.removeWhere((j) => j.batch === batch);
    for (const worker of this.workers) if (worker.runs((j) => (j as QueuedJob).batch === batch)) worker.abort();
    batch.finish();
  }

  private dispatch(): void {
    if (this.closed) return;
    // Ready workers take chunks of what is queued for their plugins (and engine: engineOf), one
    // chunk each per round so they get equal shares; an idle worker that can take nothing queued
    // is recycled. Chunk sizes are fixed per round (see takeChunk).
    const sizes = new Map<Batch, number>();
    for (let gave = true; gave; ) {
      gave = false;
      sizes.clear();
      for (const worker of [...this.workers]) {
        if (!worker.ready) continue;
        const head = this.queue.firstFor(worker.pluginKey, (job) => this.fits(worker, job));
        if (!head) {
          if (this.queue.length > 0 && worker.pending.length === 0) {
            this.workers.delete(worker);
            worker.close();
          }
          continue;
        }
        const exact = head.exact || head.batch.exact;
        if (!worker.canTake(exact)) continue;
        const jobs = this.queue.take(head, exact ? 1 : this.chunkSize(head, sizes));
        if (this.loadsEngine(head.envId)) this.engineOf.set(worker, head.envId);
        // A lone episode on an idle worker may as well report its phases: a kill is then charged
        // at once, without a re-run (small submissions, and the ends of batches).
        worker.run(jobs, exact || (jobs.length === 1 && worker.pending.length === 0));
        gave = true;
      }
    }
    // Start workers for what is still queued, up to the pool size.
    const wanted = new Map<string, readonly string[]>();
    for (const [key, { plugins }] of this.queue.pluginSets()) wanted.set(key, plugins);
    const starting = [...this.workers].filter((w) => !w.ready).length;
    let spare = this.size - this.workers.size;
    let needed = this.queue.length - starting;
    for (const [key, plugins] of wanted) {
      while (spare > 0 && needed > 0) {
        this.spawn(key, plugins);
        spare--;
        needed--;
      }
      if (spare === 0 || needed <= 0) break;
    }
  }

  /** Whether `worker` may run `job`: one whose environment needs no engine, or the engine it has loaded. */
  private fits(worker: WorkerHandle, job: QueuedJob): boolean {
    const engine = this.engineOf.get(worker);
    return engine === undefined || engine === job.envId || !this.loadsEngine(job.envId);
  }

  /** Environments that load an engine into the worker (`load()`); plugins' ids are the workers' to know. */
  private loadsEngine(envId: string): boolean {
    return this.registry.has(envId) && this.registry.needsPreparation(envId);
  }

  /**
   * How many queued episodes of `head`'s batch a worker takes now: a share of what is left of
   * the batch when a dispatch round starts, the same for every worker in that round. Each worker
   * keeps two chunks in flight (so the host's round trip never leaves it idle) and the last
   * chunks of a batch are small (so the workers finish together), but not so small that a chunk
   * runs shorter than MIN_CHUNK_MS by the environment's recent episode times.
   */
  private chunkSize(head: QueuedJob, sizes: Map<Batch, number>): number {
    let size = sizes.get(head.batch);
    if (size === undefined) {
      const left = this.queue.queuedOf(head.batch);
      const perEpisodeMs = this.episodeMs.get(head.envId);
      // Never more than an equal share per worker: the estimate comes from earlier batches,
      // maybe of a faster policy, and must not leave workers idle on a small batch.
      const forTime = perEpisodeMs === undefined ? 1 : Math.min(Math.ceil(MIN_CHUNK_MS / Math.max(perEpisodeMs, 1e-3)), Math.ceil(left / this.size));
      size = Math.min(MAX_CHUNK, Math.max(1, Math.ceil(left / (2 * this.size)), forTime));
      sizes.set(head.batch, size);
    }
    return size;
  }

  private spawn(pluginKey: string, plugins: readonly string[]): void {
    let workerScript: string;
    try {
      workerScript = this.workerScript ?? findWorkerScript();
      if (!existsSync(workerScript)) throw new Error(`the sandbox worker script ${workerScript} is missing: run \`npm run build\``);
    } catch (e) {
      this.failQueued(e instanceof Error ? e.message : String(e));
      return;
    }
    this.spawned++;
    const worker = new WorkerHandle(pluginKey, { nodePath: this.nodePath, workerScript, heapMb: this.heapMb, plugins }, this.rssLimitMb, {
      ready: () => {
        this.startupFailures = 0;
        this.dispatch();
      },
      records: (_w, done) => {
        for (const { job, record } of done) this.complete(job as QueuedJob, record);
        this.dispatch();
      },
      exit: (w, lost, startedOk) => this.onWorkerExit(w, lost, startedOk),
    });
    this.workers.add(worker);
  }

  private onWorkerExit(worker: WorkerHandle, lost: LostJobs, startedOk: boolean): void {
    this.workers.delete(worker);
    if (this.closed) return;
    if (!startedOk) {
      this.startupFailures++;
      if (this.startupFailures >= MAX_STARTUP_FAILURES) {
        this.failQueued(`the sandbox worker failed to start ${this.startupFailures} times: ${worker.stderrTail.trim().slice(-800) || 'no output'}`);
        this.startupFailures = 0;
      }
    }
    const live = (jobs: Job[]): QueuedJob[] => (jobs as QueuedJob[]).filter((j) => !j.batch.done);
    // Episodes that may have run go back first, to run alone: one of them is what killed the worker.
    const unknown = live(lost.unknown);
    for (const job of unknown) job.exact = true;
    // The rest of the batch the worker was in (or about to start) runs exact too: its policy is
    // the likely culprit. Another batch whose chunk only waited behind it keeps its chunks; if it
    // was the culprit after all, its exact re-run says so and the next crash turns it exact.
    const suspect = (lost.unknown as QueuedJob[])[0]?.batch;
    if (suspect) suspect.exact = true;
    this.queue.putFront([...unknown, ...live(lost.unstarted)]);
    const exact = lost.exact;
    if (exact && !(exact.job as QueuedJob).batch.done) {
      const job = exact.job as QueuedJob;
      if (exact.lost.kind === 'record') this.complete(job, exact.lost.record);
      else if (job.crashes === 0) {
        job.crashes++;
        this.queue.putFront([job]);
      } else {
        this.complete(job, worker.lostRecord(job, 'runner_fault', { message: `${exact.lost.reason} (twice; the episode was not charged to the policy)` }));
      }
    }
    this.dispatch();
  }

  private failQueued(message: string): void {
    const jobs = this.queue.removeWhere(() => true);
    for (const job of jobs) {
      this.complete(job, {
        caseIndex: job.spec.caseIndex,
        status: 'runner_fault',
        return: 0,
        length: 0,
        terminated: false,
        truncated: false,
        wallMs: 0,
        error: { message },
        trajectory: NO_TRAJECTORY,
        log: { text: '', truncated: false },
      });
    }
  }

  private complete(job: QueuedJob, record: EpisodeRecord): void {
    const batch = job.batch;
    if (batch.done || batch.records[job.index] !== undefined) return;
    batch.records[job.index] = record;
    batch.pending--;
    if (record.status === 'ok') {
      const estimate = this.episodeMs.get(job.envId);
      this.episodeMs.set(job.envId, estimate === undefined ? record.wallMs : estimate + EPISODE_MS_WEIGHT * (record.wallMs - estimate));
    }
    try {
      batch.request.onEpisode?.(record);
    } catch {
      // A listener's bug must not stop the batch.
    }
    if (batch.pending === 0) batch.finish();
  }
}

function checkLimits(l: EpisodeLimits): EpisodeLimits {
  const positive = (name: keyof EpisodeLimits, v: unknown, min: number): void => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min) throw new SandboxRequestError(`limits.${name} must be a number >= ${min}, got ${JSON.stringify(v)}`);
  };
  positive('episodeTimeoutMs', l.episodeTimeoutMs, 1);
  positive('actTimeoutMs', l.actTimeoutMs, 1);
  positive('maxTrajectorySteps', l.maxTrajectorySteps, 0);
  positive('maxLogBytes', l.maxLogBytes, 0);
  if (typeof l.recordSnapshots !== 'boolean') throw new SandboxRequestError('limits.recordSnapshots must be true or false');
  return l;
}
