/**
 * The host side of one worker process: sends it chunks of episodes, enforces deadlines and the
 * memory limit from outside (by killing it), and turns a lost worker into what became of the
 * episodes it held. The pool replaces dead handles.
 *
 * The worker reports in coalesced messages (see worker/messages.ts), so while it runs ordinary
 * chunks the host knows only roughly which episode it is in. When such a worker dies, its
 * unreported episodes are handed back to be run again one at a time in exact chunks, which
 * report every phase, so the episode that hung, blew the memory or crashed is found and charged
 * with its phase and step. Episodes are deterministic, so a re-run gives the same record.
 * Exact episodes are also traced (worker/trace.ts): the host then knows the step a stuck `act`
 * is at and keeps what the policy printed before the kill.
 *
 * What a kill in each phase is: `setup` a runner fault (the environment's or the worker's
 * doing, never the policy's; it has its own deadline), `module`, `constructor`, `reset` and
 * `act` a timeout charged to that call, and the episode deadline a timeout of the episode.
 */
import type { ChildProcess } from 'node:child_process';
import { NO_TRAJECTORY, type EpisodeError, type EpisodeRecord, type EpisodeStatus } from '../../protocol/episodes';
import { PREPARE_TIMEOUT_MS, SETUP_TIMEOUT_MS, WORKER_BUNDLE_CACHE_SIZE, type EpisodePosition, type RunEpisodesMessage, type WorkerMessage } from '../worker/messages';
import { unpackRecords } from '../worker/recordWire';
import type { EpisodeLimits, EpisodeSpec, PolicyBundle } from '../types';
import { residentMb } from './residentMemory';
import { TraceReader } from './traceReader';
import { spawnWorker, type SpawnConfig } from './workerSpawn';

export interface Job {
  id: number;
  bundle: PolicyBundle;
  /** Arena games: the champion playing the other side. */
  opponent?: PolicyBundle;
  envId: string;
  params: RunEpisodesMessage['params'];
  spec: EpisodeSpec;
  limits: EpisodeLimits;
  /** Runs lost to unexplained worker crashes (retried once, then a runner_fault). */
  crashes: number;
}

/** What happened to the episode of an exact chunk whose worker died. */
export type LostJob =
  | { kind: 'record'; record: EpisodeRecord }
  /** The worker crashed for no reason we know: the job may be retried elsewhere. */
  | { kind: 'crashed'; reason: string };

/** The episodes a dead worker held. */
export interface LostJobs {
  /** The episode of an exact chunk, with what became of it. */
  exact?: { job: Job; lost: LostJob };
  /** Episodes of ordinary chunks that may have run: whatever killed the worker may be one of them. */
  unknown: Job[];
  /** Episodes that cannot have started (the worker never became ready, or the pool stopped it). */
  unstarted: Job[];
}

export interface WorkerEvents {
  ready(worker: WorkerHandle, pluginErrors: string[]): void;
  /** Records that arrived in one message, in job order. */
  records(worker: WorkerHandle, done: { job: Job; record: EpisodeRecord }[]): void;
  /** The process is gone, with the episodes it held. */
  exit(worker: WorkerHandle, lost: LostJobs, startedOk: boolean): void;
}

/** Slack on top of a deadline before the host kills: the worker's own checks fire first. */
const graceMs = (deadline: number): number => 150 + deadline * 0.1;
const STARTUP_TIMEOUT_MS = 15_000;
const MEMORY_POLL_MS = 100;
const STDERR_TAIL = 4096;
/** Chunks in flight per worker: while it runs one, the next is already waiting in its channel. */
const CHUNKS_IN_FLIGHT = 2;

type KillReason = { status: EpisodeStatus; error: EpisodeError } | { status: 'aborted' };

interface Chunk {
  jobs: Job[];
  exact: boolean;
}

export class WorkerHandle {
  private readonly child: ChildProcess;
  /** The worker's bundle cache as it will be once it reads what was sent (see WORKER_BUNDLE_CACHE_SIZE). */
  private readonly knownBundles = new Set<string>();
  /** Chunks sent to the worker, oldest first; finished jobs are removed, then empty chunks. */
  private readonly chunks: Chunk[] = [];
  /** Where the worker said it was, in its last message. */
  private position: EpisodePosition | undefined;
  /** The job the episode timer runs for, and when that episode started (host clock). */
  private timedJob = -1;
  private timedStart = 0;
  private silenceTimer: NodeJS.Timeout | undefined;
  private episodeTimer: NodeJS.Timeout | undefined;
  private memoryTimer: NodeJS.Timeout | undefined;
  private startupTimer: NodeJS.Timeout | undefined;
  private killReason: KillReason | undefined;
  private stderr = '';
  private readonly trace = new TraceReader();
  private isReady = false;
  private exited = false;

  constructor(readonly pluginKey: string, config: SpawnConfig, private readonly rssLimitMb: number, private readonly events: WorkerEvents) {
    this.child = spawnWorker(config);
    this.child.unref();
    (this.child.stderr as { unref?: () => void } | null)?.unref?.();
    (this.child.channel as { unref?: () => void } | undefined)?.unref?.();
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL);
    });
    const tracePipe = this.child.stdio[4] as (NodeJS.ReadableStream & { unref?: () => void }) | null | undefined;
    tracePipe?.unref?.();
    tracePipe?.setEncoding('utf8');
    tracePipe?.on('data', (chunk: string) => this.trace.push(chunk));
    this.child.on('message', (m: WorkerMessage) => this.onMessage(m));
    // 'close', not 'exit': the pipes are read to their end by then, the trace's last lines included.
    this.child.on('close', (code, signal) => this.onExit(code, signal));
    this.child.on('error', (e) => {
      this.stderr += `\n${e.message}`;
      // A process that never started (bad node path) emits no 'exit'.
      if (this.child.pid === undefined) this.onExit(null, null);
    });
    this.startupTimer = setTimeout(() => this.kill({ status: 'runner_fault', error: { message: `the sandbox worker did not start within ${STARTUP_TIMEOUT_MS} ms` } }), STARTUP_TIMEOUT_MS);
  }

  get ready(): boolean {
    return this.isReady && !this.exited;
  }

  /** Whether a chunk of this kind may be sent now. An exact chunk runs alone. */
  canTake(exact: boolean): boolean {
    if (!this.ready) return false;
    if (exact) return this.chunks.length === 0;
    return this.chunks.length < CHUNKS_IN_FLIGHT && !this.chunks.some((c) => c.exact);
  }

  get pending(): readonly Job[] {
    return this.chunks.flatMap((c) => c.jobs);
  }

  /** Sends episodes of one batch (same bundle, environment, parameters and limits), run in order. */
  run(jobs: Job[], exact: boolean): void {
    const first = jobs[0];
    if (!first) return;
    const msg: RunEpisodesMessage = {
      type: 'episodes',
      bundleId: first.bundle.id,
      envId: first.envId,
      params: first.params,
      limits: first.limits,
      jobs: jobs.map((j) => ({ job: j.id, spec: j.spec })),
      exact,
    };
    if (!this.knownBundles.has(first.bundle.id)) {
      msg.code = first.bundle.code;
      this.knownBundles.add(first.bundle.id);
      if (this.knownBundles.size > WORKER_BUNDLE_CACHE_SIZE) this.knownBundles.delete(this.knownBundles.values().next().value as string);
    }
    // After the bundle, as the worker loads them: both caches evict in the same order.
    if (first.opponent) {
      msg.opponent = { bundleId: first.opponent.id };
      if (!this.knownBundles.has(first.opponent.id)) {
        msg.opponent.code = first.opponent.code;
        this.knownBundles.add(first.opponent.id);
        if (this.knownBundles.size > WORKER_BUNDLE_CACHE_SIZE) this.knownBundles.delete(this.knownBundles.values().next().value as string);
      }
    }
    const wasIdle = this.chunks.length === 0;
    this.chunks.push({ jobs: [...jobs], exact });
    this.child.send(msg);
    if (wasIdle) {
      // The worker starts on it at once: time its first episode from now until it reports.
      this.startEpisodeTimer(first, performance.now());
      this.armSilenceTimer();
      if (this.rssLimitMb > 0 && process.platform === 'linux') this.memoryTimer = setInterval(() => this.checkMemory(), MEMORY_POLL_MS);
    }
  }

  /** True when a job matching `job` was sent to this worker and has not finished. */
  runs(job: (j: Job) => boolean): boolean {
    return this.chunks.some((c) => c.jobs.some(job));
  }

  /** Stops the episodes in flight (batch aborted): the worker is killed. */
  abort(): void {
    this.kill({ status: 'aborted' });
  }

  close(): void {
    this.killReason ??= { status: 'aborted' };
    this.child.kill('SIGKILL');
  }

  private headJob(): Job | undefined {
    return this.chunks[0]?.jobs[0];
  }

  /**
   * The deadline of one call (or of the setup, while the worker says it is in one): no message
   * for this long means the worker is stuck in it.
   */
  private armSilenceTimer(): void {
    clearTimeout(this.silenceTimer);
    const job = this.headJob();
    if (!job) return;
    const ms = this.position?.job === job.id && this.position.phase === 'setup' ? SETUP_TIMEOUT_MS : Math.min(job.limits.actTimeoutMs, job.limits.episodeTimeoutMs);
    this.silenceTimer = setTimeout(() => this.deadline('call'), ms + graceMs(ms));
  }

  /** Where the head job is: the trace's word when it has one (it is never behind), else the last message's. */
  private whereIs(job: Job): Omit<EpisodePosition, 'elapsedMs'> | undefined {
    return this.trace.position(job.id) ?? (this.position?.job === job.id ? this.position : undefined);
  }

  private startEpisodeTimer(job: Job, startedAt: number): void {
    clearTimeout(this.episodeTimer);
    this.timedJob = job.id;
    this.timedStart = startedAt;
    const { episodeTimeoutMs } = job.limits;
    this.episodeTimer = setTimeout(() => this.deadline('episode'), Math.max(0, startedAt + episodeTimeoutMs + graceMs(episodeTimeoutMs) - performance.now()));
  }

  private deadline(which: 'episode' | 'call'): void {
    const job = this.headJob();
    if (!job) return;
    const at = this.whereIs(job);
    if (which === 'episode') {
      const ms = job.limits.episodeTimeoutMs;
      this.kill({ status: 'timeout', error: { message: `the episode did not finish within ${ms} ms (${at?.steps ?? 0} steps); the sandbox worker was stopped`, deadline: 'episode' } });
      return;
    }
    if (at?.phase === 'setup') {
      this.kill({ status: 'runner_fault', error: { message: `setting up the episode (making and resetting the environment, the policy's realm) took longer than ${SETUP_TIMEOUT_MS} ms; the sandbox worker was stopped (not charged to the policy)` } });
      return;
    }
    const ms = Math.min(job.limits.actTimeoutMs, job.limits.episodeTimeoutMs);
    // No word of this episode yet: the worker is at most in its constructor (an exact chunk says where it is at once).
    const phase = at?.phase ?? 'constructor';
    const what = phase === 'module' ? "loading the policy's module (its top-level code)" : phase === 'constructor' ? 'new Policy(ctx)' : phase === 'reset' ? 'reset()' : `act() at step ${(at?.steps ?? 0) + 1}`;
    this.kill({ status: 'timeout', error: { message: `${what} did not finish within ${ms} ms; the sandbox worker was stopped`, deadline: phase } });
  }

  private checkMemory(): void {
    const mb = residentMb(this.child.pid ?? -1);
    if (mb !== null && mb > this.rssLimitMb) {
      this.kill({ status: 'memory', error: { message: `the policy used more than ${this.rssLimitMb} MiB of memory (${Math.round(mb)} MiB resident); the sandbox worker was stopped` } });
    }
  }

  private kill(reason: KillReason): void {
    if (this.exited) return;
    this.killReason ??= reason;
    this.child.kill('SIGKILL');
  }

  private clearTimers(): void {
    clearTimeout(this.silenceTimer);
    clearTimeout(this.episodeTimer);
    clearInterval(this.memoryTimer);
    this.silenceTimer = this.episodeTimer = this.memoryTimer = undefined;
  }

  private onMessage(m: WorkerMessage): void {
    switch (m.type) {
      case 'ready':
        clearTimeout(this.startupTimer);
        this.isReady = true;
        this.events.ready(this, m.pluginErrors);
        return;
      case 'preparing': {
        // The first episode starts when the load is over: its own deadlines begin with the next message.
        clearTimeout(this.silenceTimer);
        clearTimeout(this.episodeTimer);
        this.timedJob = -1;
        this.silenceTimer = setTimeout(() => this.kill({ status: 'runner_fault', error: { message: `preparing environment ${m.envId} took longer than ${PREPARE_TIMEOUT_MS} ms; the sandbox worker was stopped` } }), PREPARE_TIMEOUT_MS);
        return;
      }
      case 'progress': {
        const done: { job: Job; record: EpisodeRecord }[] = [];
        for (const { job: id, record } of unpackRecords(m.records)) {
          const job = this.take(id);
          if (job) done.push({ job, record });
        }
        this.position = m.current;
        const head = this.headJob();
        if (!head) {
          this.clearTimers();
          this.timedJob = -1;
        } else {
          this.armSilenceTimer();
          // The episode timer follows the episode the worker runs now (or, until it says, the next one).
          const now = performance.now();
          if (m.current?.job === head.id && m.current.phase === 'setup') {
            // Setup is the worker's: the episode's clock starts when the policy's part does.
            clearTimeout(this.episodeTimer);
            this.timedJob = -1;
          } else if (m.current?.job === head.id) {
            if (this.timedJob !== head.id) this.startEpisodeTimer(head, now - m.current.elapsedMs);
          } else if (this.timedJob !== head.id) {
            this.startEpisodeTimer(head, now);
          }
        }
        if (done.length > 0) this.events.records(this, done);
        return;
      }
    }
  }

  /** Removes a finished job from its chunk (and the chunk once empty). */
  private take(id: number): Job | undefined {
    for (let c = 0; c < this.chunks.length; c++) {
      const chunk = this.chunks[c] as Chunk;
      const i = chunk.jobs.findIndex((j) => j.id === id);
      if (i < 0) continue;
      const [job] = chunk.jobs.splice(i, 1);
      if (chunk.jobs.length === 0) this.chunks.splice(c, 1);
      return job;
    }
    return undefined;
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exited) return;
    this.exited = true;
    this.clearTimers();
    clearTimeout(this.startupTimer);
    const chunks = this.chunks.splice(0);
    const lost: LostJobs = { unknown: [], unstarted: [] };
    const reason = this.killReason ?? (isOutOfMemory(this.stderr) ? { status: 'memory' as const, error: { message: 'the policy ran out of memory (the heap limit of the sandbox worker); the worker was stopped' } } : undefined);
    if (!this.isReady || reason?.status === 'aborted') {
      lost.unstarted = chunks.flatMap((c) => c.jobs);
    } else if (chunks[0]?.exact) {
      const [job, ...rest] = chunks.flatMap((c) => c.jobs);
      lost.unstarted = rest;
      if (job) {
        lost.exact = {
          job,
          lost: reason
            ? { kind: 'record', record: this.lostRecord(job, reason.status, reason.error) }
            : { kind: 'crashed', reason: `the sandbox worker exited (${signal ? `signal ${signal}` : `code ${code}`})${this.stderr.trim() ? `: ${this.stderr.trim().slice(-800)}` : ''}` },
        };
      }
    } else {
      lost.unknown = chunks.flatMap((c) => c.jobs);
    }
    this.events.exit(this, lost, this.isReady);
  }

  lostRecord(job: Job, status: EpisodeStatus, error: EpisodeError): EpisodeRecord {
    const at = this.whereIs(job);
    return {
      caseIndex: job.spec.caseIndex,
      status,
      return: at?.return ?? 0,
      length: at?.steps ?? 0,
      terminated: false,
      truncated: false,
      wallMs: this.timedJob === job.id ? Math.round((performance.now() - this.timedStart) * 1000) / 1000 : 0,
      error,
      // The worker's copy of the trajectory went down with it; a traced episode's log did not.
      trajectory: { ...NO_TRAJECTORY, truncated: (at?.steps ?? 0) > 0 },
      log: this.trace.log(job.id) ?? { text: '', truncated: false },
    };
  }

  get stderrTail(): string {
    return this.stderr;
  }
}

function isOutOfMemory(stderr: string): boolean {
  return /heap out of memory|Reached heap limit|Allocation failed|out of memory/i.test(stderr);
}
