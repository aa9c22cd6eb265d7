/**
 * The host side of one worker process: sends it episodes, enforces deadlines and the memory
 * limit from outside (by killing it), and turns a lost worker into the record of the episode it
 * was running. The pool replaces dead handles.
 */
import type { ChildProcess } from 'node:child_process';
import type { EpisodeError, EpisodeRecord, EpisodeStatus } from '../../protocol/episodes';
import type { EpisodePhase, RunEpisodeMessage, WorkerMessage } from '../worker/messages';
import type { EpisodeLimits, EpisodeSpec, PolicyBundle } from '../types';
import { unpackTrajectory } from '../worker/trajectoryWire';
import { residentMb } from './residentMemory';
import { spawnWorker, type SpawnConfig } from './workerSpawn';

export interface Job {
  id: number;
  bundle: PolicyBundle;
  envId: string;
  params: RunEpisodeMessage['params'];
  spec: EpisodeSpec;
  limits: EpisodeLimits;
  /** Runs lost to unexplained worker crashes (retried once, then a runner_fault). */
  crashes: number;
}

/** What happened to a job whose worker died. */
export type LostJob =
  | { kind: 'record'; record: EpisodeRecord }
  /** The worker crashed for no reason we know: the job may be retried elsewhere. */
  | { kind: 'crashed'; reason: string };

export interface WorkerEvents {
  ready(worker: WorkerHandle, pluginErrors: string[]): void;
  record(worker: WorkerHandle, job: Job, record: EpisodeRecord): void;
  /**
   * The process is gone. `job` is what it was running, if anything (with what became of it);
   * `unstarted` were sent to it but never begun, and go back to the queue uncharged.
   */
  exit(worker: WorkerHandle, job: Job | null, lost: LostJob | null, startedOk: boolean, unstarted: Job[]): void;
}

/** Slack on top of a deadline before the host kills: the worker's own checks fire first. */
const graceMs = (deadline: number): number => 150 + deadline * 0.1;
const STARTUP_TIMEOUT_MS = 15_000;
const MEMORY_POLL_MS = 100;
const STDERR_TAIL = 4096;
const PIPELINE_DEPTH = 2;

type KillReason = { status: EpisodeStatus; error: EpisodeError } | { status: 'aborted' };

export class WorkerHandle {
  private readonly child: ChildProcess;
  private readonly knownBundles = new Set<string>();
  /** Jobs sent to the worker, in order; the head is running (or about to). */
  private readonly jobs: Job[] = [];
  private jobStarted = 0;
  private phase: EpisodePhase = 'constructor';
  private progress = { steps: 0, ret: 0 };
  private actTimer: NodeJS.Timeout | undefined;
  private episodeTimer: NodeJS.Timeout | undefined;
  private memoryTimer: NodeJS.Timeout | undefined;
  private startupTimer: NodeJS.Timeout | undefined;
  private killReason: KillReason | undefined;
  private stderr = '';
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
    this.child.on('message', (m: WorkerMessage) => this.onMessage(m));
    this.child.on('exit', (code, signal) => this.onExit(code, signal));
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
  /** Room for another job: one running plus one waiting, so the worker never idles on a round trip. */
  get idle(): boolean {
    return this.ready && this.jobs.length < PIPELINE_DEPTH;
  }
  get pending(): readonly Job[] {
    return this.jobs;
  }

  run(job: Job): void {
    this.jobs.push(job);
    const msg: RunEpisodeMessage = { type: 'episode', job: job.id, bundleId: job.bundle.id, envId: job.envId, params: job.params, spec: job.spec, limits: job.limits };
    if (!this.knownBundles.has(job.bundle.id)) {
      msg.code = job.bundle.code;
      this.knownBundles.add(job.bundle.id);
    }
    this.child.send(msg);
    if (this.jobs.length === 1) this.start();
  }

  /** The head job starts now (the worker picks it up as soon as the previous one is done). */
  private start(): void {
    const job = this.jobs[0];
    if (!job) return;
    this.jobStarted = performance.now();
    this.phase = 'constructor';
    this.progress = { steps: 0, ret: 0 };
    const { episodeTimeoutMs } = job.limits;
    this.episodeTimer = setTimeout(() => this.deadline('episode'), episodeTimeoutMs + graceMs(episodeTimeoutMs));
    this.armActTimer();
    if (this.rssLimitMb > 0 && process.platform === 'linux') {
      this.memoryTimer = setInterval(() => this.checkMemory(), MEMORY_POLL_MS);
    }
  }

  /** True when a job of this batch is running here (not merely waiting). */
  runs(job: (j: Job) => boolean): boolean {
    const head = this.jobs[0];
    return head !== undefined && job(head);
  }

  /** Stops the episode in flight (batch aborted): the worker is killed and its job dropped. */
  abort(): void {
    this.kill({ status: 'aborted' });
  }

  close(): void {
    this.killReason ??= { status: 'aborted' };
    this.child.kill('SIGKILL');
  }

  private armActTimer(): void {
    clearTimeout(this.actTimer);
    const job = this.jobs[0];
    if (!job) return;
    const ms = Math.min(job.limits.actTimeoutMs, job.limits.episodeTimeoutMs);
    this.actTimer = setTimeout(() => this.deadline(this.phase === 'constructor' ? 'constructor' : 'act'), ms + graceMs(ms));
  }

  private deadline(which: 'episode' | 'act' | 'constructor'): void {
    const job = this.jobs[0];
    if (!job) return;
    const ms = which === 'episode' ? job.limits.episodeTimeoutMs : Math.min(job.limits.actTimeoutMs, job.limits.episodeTimeoutMs);
    const what = which === 'episode' ? 'the episode' : which === 'constructor' ? "the policy's module or constructor" : this.phase === 'reset' ? 'reset()' : `act() at step ${this.progress.steps}`;
    this.kill({ status: 'timeout', error: { message: `${what} did not finish within ${ms} ms; the sandbox worker was stopped`, deadline: which } });
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
    clearTimeout(this.actTimer);
    clearTimeout(this.episodeTimer);
    clearInterval(this.memoryTimer);
    this.actTimer = this.episodeTimer = this.memoryTimer = undefined;
  }

  private onMessage(m: WorkerMessage): void {
    switch (m.type) {
      case 'ready':
        clearTimeout(this.startupTimer);
        this.isReady = true;
        this.events.ready(this, m.pluginErrors);
        return;
      case 'beat':
        if (this.jobs[0]?.id !== m.job) return;
        this.phase = m.phase;
        this.progress = { steps: m.steps, ret: m.return };
        this.armActTimer();
        return;
      case 'record': {
        const job = this.jobs[0];
        if (job?.id !== m.job) return;
        this.clearTimers();
        this.jobs.shift();
        this.start();
        this.events.record(this, job, { ...m.record, trajectory: unpackTrajectory(m.record.trajectory) });
        return;
      }
    }
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exited) return;
    this.exited = true;
    this.clearTimers();
    clearTimeout(this.startupTimer);
    const [job = null, ...unstarted] = this.jobs.splice(0);
    let lost: LostJob | null = null;
    if (job) {
      const reason = this.killReason ?? (isOutOfMemory(this.stderr) ? { status: 'memory' as const, error: { message: `the policy ran out of memory (the ${'heap'} limit of the sandbox worker); the worker was stopped` } } : undefined);
      if (reason?.status === 'aborted') lost = null;
      else if (reason) lost = { kind: 'record', record: this.lostRecord(job, reason.status, reason.error) };
      else lost = { kind: 'crashed', reason: `the sandbox worker exited (${signal ? `signal ${signal}` : `code ${code}`})${this.stderr.trim() ? `: ${this.stderr.trim().slice(-800)}` : ''}` };
    }
    this.events.exit(this, job, lost, this.isReady, unstarted);
  }

  lostRecord(job: Job, status: EpisodeStatus, error: EpisodeError): EpisodeRecord {
    return {
      caseIndex: job.spec.caseIndex,
      status,
      return: this.progress.ret,
      length: this.progress.steps,
      terminated: false,
      truncated: false,
      wallMs: Math.round((performance.now() - this.jobStarted) * 1000) / 1000,
      error,
      // The worker's copy of the trajectory and log went down with it.
      trajectory: { steps: [], truncated: this.progress.steps > 0 },
      log: { text: '', truncated: false },
    };
  }

  get stderrTail(): string {
    return this.stderr;
  }
}

function isOutOfMemory(stderr: string): boolean {
  return /heap out of memory|Reached heap limit|Allocation failed|out of memory/i.test(stderr);
}
