/**
 * One run in one workspace: the authority over budget, cases, checkpoints, feedback, validation
 * and assessment. Requests are serialized on one queue; every state change is journaled (and
 * fsynced) before any listener hears about it.
 */
import type { RunDiagnostics } from '../protocol/analysis';
import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EnvRegistry } from '../envs/core/registry';
import { starterFiles } from '../envs/core/starterFiles';
import type { EpisodeRecord } from '../protocol/episodes';
import type { CandidateResult, CurvePoint, ReturnStats, RunReport, SubmissionSummary } from '../protocol/feedback';
import {
  describeZodError,
  FinishParamsSchema,
  PROTOCOL_VERSION,
  SubmitParamsSchema,
  type CancelResult,
  type ProgressNotification,
  type RejectedNotification,
  type RestoreResult,
  type RunInfo,
  type RunStatus,
  type SubmissionBrief,
} from '../protocol/run';
import type { BatchRequest, EpisodeLimits, EpisodeSpec, PolicyBundle } from '../sandbox/types';
import { readJson, writeJsonAtomic } from './atomicFs';
import { CheckpointStore } from './checkpoints';
import { parseFrozenConfig, type RunConfig } from './config';
import type { EpisodeExecutor } from './executor';
import { FeedbackStore, type DamagedSubmission } from './feedbackStore';
import { Journal, type JournalEvent, type StampedEvent } from './journal';
import { workspacePaths, type WorkspacePaths } from './paths';
import { RunError } from './runError';
import { applyEvent, foldJournal, selectBest, type RunState } from './runState';
import { loadOrCreateSecret, loadSecret, secretPath, SeedDeriver, type Split } from './secret';
import { parseCaseRanges } from '../protocol/caseRanges';
import { bestSoFar, bestSubmission } from '../stats/bestSubmission';
import { returnStats, statusCounts } from '../stats/returnStats';

export interface RunEvents {
  progress: [ProgressNotification];
  submitted: [SubmissionSummary];
  completed: [RunReport];
  rejected: [RejectedNotification];
}

export interface RunOptions {
  executor: EpisodeExecutor;
  registry: EnvRegistry;
  /** Optional edit analysis hook; failures are swallowed (a submit never waits on it failing). */
  analyzeEdit?: (parentCheckpointDir: string | null, childCheckpointDir: string, parent: number | null) => Promise<SubmissionSummary['edit'] | undefined>;
  /** Optional run diagnostics for the report. */
  diagnostics?: (workspace: string) => Promise<RunDiagnostics>;
  /** Assess the environment's starter policy on the held-out cases too (the baseline). Default true. */
  assessStarter?: boolean;
  log?: (message: string) => void;
  runnerVersion?: string;
}

const MAX_QUEUE = 16;
/** Least time between two progress notifications of a batch (each waits for a journal fsync). */
const PROGRESS_SYNC_MS = 100;
const HIDDEN_LIMITS: Partial<EpisodeLimits> = { maxTrajectorySteps: 0, maxLogBytes: 0, recordSnapshots: false };

export class Run extends EventEmitter<RunEvents> {
  readonly paths: WorkspacePaths;
  private readonly journal: Journal;
  private readonly seeds: SeedDeriver;
  private readonly checkpoints: CheckpointStore;
  private readonly feedbackStore: FeedbackStore;
  private readonly state: RunState;
  private queue: Promise<unknown> = Promise.resolve();
  private queued = 0;
  private running: { submission: number; done: number; total: number; abort: AbortController } | null = null;
  private finishing: Promise<RunReport> | null = null;
  private readonly recoveryNotes: string[] = [];
  private closed = false;
  /** A prebuild waits in the queue (see prebuild). */
  private prebuildQueued = false;

  private constructor(
    readonly config: RunConfig,
    root: string,
    private readonly opts: RunOptions,
  ) {
    super();
    this.paths = workspacePaths(root);
    const events = Journal.read(this.paths.events);
    const created = events.find((e): e is StampedEvent & { type: 'created' } => e.type === 'created');
    // Once a run has started its hidden cases are fixed: a lost or swapped secret must not
    // silently turn them into other cases.
    const secret = created ? loadSecret(config.runId) : loadOrCreateSecret(config.runId);
    if (!secret) throw new Error(`the secret of run ${config.runId} is missing (${secretPath(config.runId)}); its hidden cases cannot be reproduced, so the run cannot continue`);
    this.seeds = new SeedDeriver(secret);
    if (created?.secretFingerprint && created.secretFingerprint !== this.seeds.fingerprint()) {
      throw new Error(`the secret at ${secretPath(config.runId)} is not the one this run started with; the run cannot continue`);
    }
    this.checkpoints = new CheckpointStore(this.paths);
    this.feedbackStore = new FeedbackStore(this.paths, { maxBulkBytes: config.feedbackMaxBytes, maxEpisodesPerSubmit: config.maxEpisodesPerSubmit, log: (m) => this.log(m) });
    this.journal = new Journal(this.paths.events);
    this.state = foldJournal(events);
    if (!created) this.record({ type: 'created', runId: config.runId, envId: config.envId, budget: config.budget, secretFingerprint: this.seeds.fingerprint() });
  }

  /** Opens the run frozen in `<root>/.policyforge/run.json`, recovering from any crash. */
  static open(root: string, opts: RunOptions): Run {
    const paths = workspacePaths(root);
    const json = readJson<unknown>(paths.runJson);
    if (json === undefined) throw new Error(`${paths.runJson} is missing or unreadable; create the run with \`policyforge init\``);
    const parsed = parseFrozenConfig(json);
    if (!parsed.ok) throw new Error(parsed.error);
    opts.registry.get(parsed.config.envId);
    const run = new Run(parsed.config, root, opts);
    run.recover();
    return run;
  }

  // --- recovery --------------------------------------------------------------------------

  private recover(): void {
    this.record({ type: 'runner_started', pid: process.pid });
    const pending = this.state.pending;
    if (pending) {
      const summary = this.feedbackStore.read(pending.submission);
      if (summary && summary.checkpoint === pending.checkpoint && this.checkpoints.has(pending.checkpoint)) {
        // The feedback rename happened; only the journal line was lost. Complete the submit.
        this.commitSubmitted(summary);
        this.recoveryNotes.push(`submission ${pending.submission} had finished when the runner stopped; it was completed on restart`);
      } else {
        this.feedbackStore.remove(pending.submission);
        this.record({ type: 'submit_rolled_back', submission: pending.submission, why: 'the runner stopped while the submission was running' });
        this.recoveryNotes.push(`submission ${pending.submission} was interrupted when the runner stopped; it was rolled back and not charged`);
      }
    }
    this.feedbackStore.cleanTemp();
    this.checkpoints.cleanTemp();
    // First in the queue: a submit, restore or resumed finish waits behind the repairs.
    const damaged = this.feedbackStore.checkUnflushed((n) => this.state.submissions.has(n));
    for (const d of damaged) {
      // Seen by `status` at once: a submit sent now waits for these re-runs.
      this.recoveryNotes.push(`submission ${d.submission}: the files of ${d.episodes.length} episode(s) were cut short by a machine crash; their cases are re-run (not charged) before the next request`);
    }
    if (damaged.length > 0) {
      void this.enqueue(async () => {
        for (const d of damaged) {
          try {
            await this.repairLostFeedback(d);
          } catch (e) {
            const note = `submission ${d.submission}: re-running the episodes whose files a machine crash cut short failed (tried again at the next start): ${e instanceof Error ? e.message : String(e)}`;
            this.recoveryNotes.push(note);
            this.log(note);
          }
        }
        if (this.state.phase === 'agent') void this.feedbackStore.prepareSpares();
      });
    }
    const last = Math.max(0, ...this.state.submissions.keys());
    if (last > 0) {
      const summary = this.feedbackStore.read(last);
      if (summary) writeJsonAtomic(this.paths.latest, summary);
    }
    // Spares are made once the repairs, if any, are done: those re-run episodes on the workers.
    if (this.state.phase !== 'agent') this.feedbackStore.retireSpares();
    else if (damaged.length === 0) void this.feedbackStore.prepareSpares();
    if (this.state.finish && !this.state.completed) {
      this.recoveryNotes.push('validation/assessment was interrupted; it resumes now');
      void this.finish({}).catch((e: unknown) => this.log(`resumed finish failed: ${String(e)}`));
    } else if (!this.state.finish && this.remaining() === 0 && this.state.submissions.size > 0) {
      void this.finish({}, 'budget').catch((e: unknown) => this.log(`finish failed: ${String(e)}`));
    }
  }

  /**
   * Re-runs the episodes whose trajectory or log files a machine crash cut short before their
   * background fsync (see feedbackStore.ts). Nothing is charged: the same cases with the same
   * seeds and checkpoint give the same episodes, so the files come back as they were. An
   * episode whose re-run ends differently or gives files of other sizes (a policy that reads
   * the clock, a deadline that fell differently) gets a note that its files were lost instead.
   * A re-run the runner itself failed (a worker that did not start) throws, so the record stays
   * and the next start tries again.
   */
  private async repairLostFeedback(d: DamagedSubmission): Promise<void> {
    const originals = d.episodes.map((e) => d.summary.episodes[e.position]!);
    let reruns: (EpisodeRecord | null)[];
    let why = 'lost in a machine crash before it reached the disk; a re-run of the case did not reproduce the episode';
    if (this.checkpoints.has(d.summary.checkpoint)) {
      const records = await this.opts.executor.runBatch(this.batchBase(this.checkpoints.load(d.summary.checkpoint), 'train', originals.map((e) => e.caseIndex)));
      // A runner fault the original episode did not have is the runner's failure, not a different episode.
      const fault = records.find((r, k) => r.status === 'runner_fault' && originals[k]?.status !== 'runner_fault');
      if (records.length !== originals.length || fault) throw new Error(fault?.error?.message ?? `the re-run returned ${records.length} of ${originals.length} episodes`);
      reruns = records.map((r, k) => (sameOutcome(r, originals[k]!) ? r : null));
    } else {
      why = `lost in a machine crash before it reached the disk; checkpoint ${d.summary.checkpoint} is missing, so the case cannot be re-run`;
      reruns = originals.map(() => null);
    }
    const { restored, lost } = await this.feedbackStore.repair(d, reruns, why);
    this.record({ type: 'feedback_repaired', submission: d.submission, rerun: originals.length, lost });
    this.recoveryNotes.push(
      `submission ${d.submission}: re-ran the ${originals.length} episode(s) whose files a machine crash cut short: ${restored} restored${lost > 0 ? `, ${lost} did not reproduce and are marked lost` : ''}`,
    );
  }

  // --- queries ---------------------------------------------------------------------------

  info(): RunInfo {
    const c = this.config;
    return {
      protocolVersion: PROTOCOL_VERSION,
      runId: c.runId,
      envId: c.envId,
      params: { ...c.params },
      budget: c.budget,
      poolSize: c.poolSize,
      minEpisodesPerSubmit: c.minEpisodesPerSubmit,
      maxEpisodesPerSubmit: c.maxEpisodesPerSubmit,
      maxSubmissions: c.maxSubmissions,
      validationCases: c.validationCases,
      heldOutCases: c.heldOutCases,
      selectionMode: c.selectionMode,
      workspace: this.paths.root,
      runnerVersion: this.opts.runnerVersion ?? '0',
    };
  }

  private remaining(): number {
    return this.config.budget - this.state.used;
  }

  status(): RunStatus {
    const history = [...this.state.submissions.values()].sort((a, b) => a.submission - b.submission);
    const top = bestSubmission(history, (h) => h.mean);
    const best: RunStatus['best'] = top ? { submission: top.submission, mean: top.mean } : null;
    let nextUnusedCase: number | null = null;
    for (let i = 0; i < this.config.poolSize; i++) {
      if (!this.state.usedCases.has(i)) {
        nextUnusedCase = i;
        break;
      }
    }
    return {
      phase: this.state.phase,
      budget: { total: this.config.budget, used: this.state.used, remaining: this.remaining() },
      submissions: this.state.submissions.size,
      maxSubmissions: this.config.maxSubmissions,
      nextUnusedCase,
      running: this.running ? { submission: this.running.submission, done: this.running.done, total: this.running.total } : null,
      best,
      history,
      restoredFrom: this.state.restoredFrom,
      recovery: [...this.recoveryNotes],
    };
  }

  feedback(submission?: number): SubmissionSummary {
    const n = submission ?? Math.max(0, ...this.state.submissions.keys());
    if (n === 0) throw new RunError('unknownSubmission', 'no submission yet: run `policyforge submit` first');
    if (!this.state.submissions.has(n)) throw new RunError('unknownSubmission', `submission ${n} does not exist (there are ${this.state.submissions.size})`, { submission: n });
    const summary = this.feedbackStore.read(n);
    if (!summary) throw new RunError('internal', `feedback/submit-${String(n).padStart(4, '0')}/summary.json is missing or unreadable`);
    return summary;
  }

  /** Nothing running or queued (used by idle shutdown). */
  get idle(): boolean {
    return this.queued === 0 && this.running === null && this.finishing === null;
  }

  report(): RunReport | null {
    return this.state.completed ? (readJson<RunReport>(this.paths.report) ?? null) : null;
  }

  // --- requests ----------------------------------------------------------------------------

  /** Runs `fn` after everything queued before it; rejects with `busy` when the queue is full. */
  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    if (this.queued >= MAX_QUEUE) return Promise.reject(new RunError('busy', `${this.queued} requests are already queued; wait for them to finish`));
    this.queued++;
    const p = this.queue.then(fn, fn).finally(() => {
      this.queued--;
    });
    this.queue = p.catch(() => undefined);
    return p;
  }

  submit(params: unknown): Promise<SubmissionSummary> {
    return this.enqueue(() => this.doSubmit(params));
  }

  /**
   * Builds `policy/` ahead of the submit that will ask for it, so a new policy's submit finds
   * its bundle in the executor's build cache (building took 13-30 ms of such a submit here).
   * Called at start and when `policy/` changes (policyWatcher.ts). Queued like a request, so it
   * never runs beside a batch, and at most one waits at a time. A build that fails is not
   * cached: the submit builds again and reports why.
   */
  prebuild(): void {
    if (this.prebuildQueued || this.closed || this.state.phase !== 'agent') return;
    this.prebuildQueued = true;
    this.enqueue(async () => {
      this.prebuildQueued = false;
      if (!this.closed && this.state.phase === 'agent') await this.opts.executor.build(this.paths.root);
    }).catch(() => {
      // A full queue (it will build for itself) or a build that threw (the submit reports it).
      this.prebuildQueued = false;
    });
  }

  private reject(kind: ConstructorParameters<typeof RunError>[0], message: string, data: Record<string, unknown> = {}): never {
    const err = new RunError(kind, message, data);
    this.record({ type: 'submit_rejected', reason: err.reason, code: err.code, message });
    this.emit('rejected', { code: err.code, reason: err.reason, message });
    throw err;
  }

  /** Admission in a fixed order; every rejection is journaled and costs nothing. */
  private async doSubmit(raw: unknown): Promise<SubmissionSummary> {
    if (this.state.phase !== 'agent') this.reject('runFinished', `the agent phase is over (run is ${this.state.phase}); see \`policyforge report\``);
    const parsed = SubmitParamsSchema.safeParse(raw ?? {});
    if (!parsed.success) this.reject('malformedRequest', `malformed submit: ${describeZodError(parsed.error)}`);
    const p = parsed.data;
    const c = this.config;

    let cases: number[];
    if (p.cases !== undefined) {
      if (typeof p.cases === 'string') {
        const r = parseCaseRanges(p.cases);
        if (!r.ok) this.reject('indexOutOfPool', `bad case list: ${r.message}`);
        cases = r.cases;
      } else cases = p.cases;
      const bad = cases.find((i) => i < 0 || i >= c.poolSize);
      if (bad !== undefined) this.reject('indexOutOfPool', `case index ${bad} is outside the pool 0-${c.poolSize - 1}`, { index: bad, poolSize: c.poolSize });
    } else {
      cases = this.nextCases(p.episodes ?? 0);
    }
    if (cases.length < c.minEpisodesPerSubmit || cases.length > c.maxEpisodesPerSubmit) {
      this.reject('episodesOutOfBounds', `${cases.length} episodes per submit is outside ${c.minEpisodesPerSubmit}-${c.maxEpisodesPerSubmit}`, {
        episodes: cases.length,
        min: c.minEpisodesPerSubmit,
        max: c.maxEpisodesPerSubmit,
      });
    }
    if (this.state.submissions.size >= c.maxSubmissions) this.reject('submissionLimit', `the run allows ${c.maxSubmissions} submissions and all were used`, { maxSubmissions: c.maxSubmissions });
    const remaining = this.remaining();
    if (remaining <= 0 || cases.length > remaining) {
      this.reject('budgetExhausted', remaining <= 0 ? 'the budget is exhausted' : `${cases.length} episodes requested but only ${remaining} remain in the budget`, {
        requested: cases.length,
        remaining,
      });
    }
    const tBuild = Date.now();
    const built = await this.opts.executor.build(this.paths.root);
    this.trace(`build ${Date.now() - tBuild} ms`);
    if (!built.ok) {
      const errors = built.diagnostics.filter((d) => d.severity === 'error');
      const first = errors[0];
      this.reject('bundleDoesNotBuild', `policy/ does not build${first ? `: ${first.file}:${first.line}:${first.column} ${first.message}` : ''}`, { diagnostics: built.diagnostics });
    }
    return this.execute(built.bundle, cases, p.note, built.diagnostics.filter((d) => d.kind === 'type').length);
  }

  /** Next unused indices first; once the pool is used up, cycles from 0 again. */
  private nextCases(n: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.config.poolSize && out.length < n; i++) if (!this.state.usedCases.has(i)) out.push(i);
    for (let i = 0; out.length < n; i = (i + 1) % this.config.poolSize) out.push(i);
    return out;
  }

  private nextSubmissionNumber(): number {
    return Math.max(0, ...this.state.submissions.keys()) + 1;
  }

  private parentOf(): number | null {
    if (this.state.restoredFrom !== null) return this.state.restoredFrom;
    const last = Math.max(0, ...this.state.submissions.keys());
    return last > 0 ? last : null;
  }

  private async execute(bundle: PolicyBundle, cases: number[], note: string | undefined, typeErrors: number): Promise<SubmissionSummary> {
    const n = this.nextSubmissionNumber();
    const parent = this.parentOf();
    // Checkpoint first: what ran is read before it runs, and nothing is charged before the copy
    // is durable (awaited after the batch: the writing overlaps the episodes).
    const checkpointDurable = this.checkpoints.save(bundle);
    checkpointDurable.catch(() => undefined); // Awaited below; a batch that fails first leaves it be.
    // The edit analysis reads the two checkpoints: it starts once this one is on disk, while the batch runs.
    const editAnalyzed = checkpointDurable.then(() => this.analyze(parent, bundle.id), () => undefined);
    // Synced with the first progress, on the thread pool while the batch starts: until the
    // feedback is renamed into place a lost line changes nothing (recovery finds no feedback
    // either way), and the sync after the batch makes it durable before then.
    this.record({ type: 'submit_started', submission: n, checkpoint: bundle.id, parent, cases, note }, false);
    const abort = new AbortController();
    this.running = { submission: n, done: 0, total: cases.length, abort };
    this.notifyAfterSync({ phase: 'submit', submission: n, done: 0, total: cases.length });
    const started = Date.now();
    const pending = this.feedbackStore.begin(n);
    let records: EpisodeRecord[];
    try {
      records = await this.opts.executor.runBatch({
        ...this.batchBase(bundle, 'train', cases),
        signal: abort.signal,
        onEpisode: (r) => {
          if (!this.running) return;
          pending.encodeEarly(r);
          this.running.done++;
          this.record({ type: 'episode_finished', submission: n, caseIndex: r.caseIndex, status: r.status, return: r.return, length: r.length }, false);
          this.notifyAfterSync({ phase: 'submit', submission: n, done: this.running.done, total: cases.length });
        },
      });
      if (abort.signal.aborted || records.length !== cases.length) throw new RunError('cancelled', `submission ${n} was cancelled before it finished; nothing was charged`);
    } catch (e) {
      this.running = null;
      this.dropProgress();
      await pending.abandon();
      // Nothing left writing when the rollback is reported (a checkpoint without a charge is harmless).
      await checkpointDurable.catch(() => undefined);
      const cancelled = e instanceof RunError || abort.signal.aborted;
      this.record({ type: 'submit_rolled_back', submission: n, why: cancelled ? 'cancelled' : `sandbox failure: ${String(e)}` });
      if (cancelled) throw e instanceof RunError ? e : new RunError('cancelled', `submission ${n} was cancelled; nothing was charged`);
      throw new RunError('internal', `the sandbox failed while running submission ${n} (nothing was charged): ${e instanceof Error ? e.message : String(e)}`);
    }
    this.journal.sync();
    this.flushProgress();
    this.running = null;
    this.trace(`batch ${Date.now() - started} ms`);
    try {
      await checkpointDurable;
    } catch (e) {
      await pending.abandon();
      this.record({ type: 'submit_rolled_back', submission: n, why: `checkpoint write failed: ${String(e)}` });
      throw new RunError('internal', `could not save the checkpoint of submission ${n} (nothing was charged): ${String(e)}`);
    }
    for (const r of records) pending.addEpisode(r);
    const wallMs = Date.now() - started;
    const charged = records.filter((r) => r.status !== 'runner_fault').length;
    const used = this.state.used + charged;
    const summary: SubmissionSummary = {
      submission: n,
      checkpoint: bundle.id,
      createdAt: new Date().toISOString(),
      envId: this.config.envId,
      cases,
      episodes: records.map((r) => ({
        caseIndex: r.caseIndex,
        status: r.status,
        return: r.return,
        length: r.length,
        terminated: r.terminated,
        truncated: r.truncated,
        wallMs: r.wallMs,
        ...(r.error ? { error: r.error } : {}),
      })),
      stats: returnStats(records),
      statusCounts: statusCounts(records),
      wallMs,
      budget: { total: this.config.budget, used, remaining: this.config.budget - used },
      parent,
      charged,
      ...(note ? { note } : {}),
      files: FeedbackStore.filesFor(n, records),
    };
    if (typeErrors > 0) summary.note = `${summary.note ? `${summary.note}; ` : ''}${typeErrors} type error(s) reported by the build`;
    const tEdit = Date.now();
    const edit = await editAnalyzed;
    if (edit) summary.edit = edit;
    this.trace(`wait for the edit analysis ${Date.now() - tEdit} ms`);
    const tCommit = Date.now();
    try {
      await pending.commit(summary);
    } catch (e) {
      await pending.abandon();
      this.record({ type: 'submit_rolled_back', submission: n, why: `feedback write failed: ${String(e)}` });
      this.feedbackStore.remove(n);
      throw new RunError('internal', `could not write feedback for submission ${n} (nothing was charged): ${String(e)}`);
    }
    this.trace(`feedback commit ${Date.now() - tCommit} ms`);
    this.commitSubmitted(summary);
    if (this.remaining() === 0) void this.finish({}, 'budget').catch((e: unknown) => this.log(`finish after budget failed: ${String(e)}`));
    return summary;
  }

  /** The charge: one journal line, after checkpoint and feedback are on disk. */
  private commitSubmitted(summary: SubmissionSummary): void {
    const charged = summary.charged ?? summary.episodes.filter((e) => e.status !== 'runner_fault').length;
    this.record({
      type: 'submitted',
      submission: summary.submission,
      checkpoint: summary.checkpoint,
      parent: summary.parent ?? null,
      cases: summary.cases,
      charged,
      mean: summary.stats.mean,
      okCount: summary.stats.okCount,
      count: summary.stats.count,
      budgetUsed: this.state.used + charged,
      editClass: summary.edit?.class,
    });
    this.emit('submitted', summary);
  }

  private async analyze(parent: number | null, checkpoint: string): Promise<SubmissionSummary['edit'] | undefined> {
    if (!this.opts.analyzeEdit) return undefined;
    try {
      const parentCk = parent !== null ? this.state.submissions.get(parent)?.checkpoint : undefined;
      return await this.opts.analyzeEdit(parentCk ? this.paths.checkpointDir(parentCk) : null, this.paths.checkpointDir(checkpoint), parent);
    } catch (e) {
      this.log(`edit analysis failed (feedback goes on without it): ${String(e)}`);
      return undefined;
    }
  }

  private batchBase(bundle: PolicyBundle, split: Split, indices: readonly number[]): Omit<BatchRequest, 'onEpisode' | 'signal'> {
    const episodes: EpisodeSpec[] = indices.map((i) => this.seeds.episode(split, i));
    const c = this.config;
    const limits: Partial<EpisodeLimits> = { episodeTimeoutMs: c.episodeTimeoutMs, actTimeoutMs: c.actTimeoutMs, maxTrajectorySteps: c.maxTrajectorySteps, maxLogBytes: c.maxLogBytes, recordSnapshots: c.recordSnapshots };
    return {
      bundle,
      envId: c.envId,
      params: c.params,
      episodes,
      limits: split === 'train' ? limits : { ...limits, ...HIDDEN_LIMITS },
      plugins: c.plugins.length ? c.plugins : undefined,
    };
  }

  cancel(): CancelResult {
    if (!this.running) return { cancelled: false, submission: null };
    this.running.abort.abort();
    return { cancelled: true, submission: this.running.submission };
  }

  restore(submission: number): Promise<RestoreResult> {
    return this.enqueue(async () => {
      const s = this.state.submissions.get(submission);
      if (!s) throw new RunError('unknownSubmission', `submission ${submission} does not exist`, { submission });
      const files = this.checkpoints.restoreInto(s.checkpoint);
      this.record({ type: 'restored', submission, checkpoint: s.checkpoint });
      return { submission, checkpoint: s.checkpoint, files };
    });
  }

  // --- finish: validation, selection, assessment, report ----------------------------------

  finish(raw: unknown, trigger: 'finish' | 'budget' = 'finish'): Promise<RunReport> {
    if (this.state.completed) {
      const r = this.report();
      if (r) return Promise.resolve(r);
    }
    if (this.finishing) return this.finishing;
    const parsed = FinishParamsSchema.safeParse(raw ?? {});
    if (!parsed.success) return Promise.reject(new RunError('malformedRequest', `malformed finish: ${describeZodError(parsed.error)}`));
    const p = parsed.data;
    const f = this.enqueue(async () => {
      if (this.state.completed) return this.report() ?? this.writeReport();
      if (!this.state.finish) {
        const unknown = (p.candidates ?? []).filter((n) => !this.state.submissions.has(n));
        if (unknown.length) throw new RunError('unknownSubmission', `candidate submission(s) ${unknown.join(', ')} do not exist`, { candidates: unknown });
        if (!p.candidates && this.config.selectionMode === 'candidates' && trigger === 'finish') {
          throw new RunError('malformedRequest', 'this run selects among named candidates: give the submissions to validate (finish --candidates 3,5)');
        }
        // A candidates-mode run whose budget ran out before any were named falls back to paper selection.
        const mode = p.candidates ? 'candidates' : 'paper';
        const candidates = p.candidates ?? [...this.state.submissions.values()].filter((s) => s.count > 0 && s.okCount === s.count).map((s) => s.submission);
        this.record({ type: 'finished', mode, candidates, trigger });
      }
      this.feedbackStore.retireSpares();
      return this.validateAndAssess();
    });
    this.finishing = f;
    f.then(
      () => {
        this.finishing = null;
      },
      () => {
        this.finishing = null;
      },
    );
    return f;
  }

  private async validateAndAssess(): Promise<RunReport> {
    const fin = this.state.finish!;
    const checkpoints = [...new Set(fin.candidates.map((n) => this.state.submissions.get(n)!.checkpoint))];
    const todo = checkpoints.filter((ck) => !this.state.validated.has(ck));
    const V = this.config.validationCases;
    const total = checkpoints.length * V;
    let done = (checkpoints.length - todo.length) * V;
    for (const ck of todo) {
      if (this.closed) throw new RunError('internal', 'runner is shutting down');
      const records = await this.opts.executor.runBatch({
        ...this.batchBase(this.checkpoints.load(ck), 'validation', range(V)),
        onEpisode: () => this.emit('progress', { phase: 'validation', submission: null, done: ++done, total }),
      });
      this.record({ type: 'validated', submission: fin.candidates.find((n) => this.state.submissions.get(n)!.checkpoint === ck)!, checkpoint: ck, stats: returnStats(records) });
    }
    if (!this.state.selected) {
      const best = selectBest(fin.candidates, (n) => this.state.validated.get(this.state.submissions.get(n)!.checkpoint)?.mean);
      const reason =
        best !== null
          ? undefined
          : this.state.submissions.size === 0
            ? 'no submission was made'
            : fin.mode === 'paper'
              ? 'no submission qualified: every submission had at least one episode that was not ok'
              : 'no candidate could be validated';
      this.record({ type: 'selected', submission: best, ...(reason ? { reason } : {}) });
    }
    const selected = this.state.selected!.submission;
    const H = this.config.heldOutCases;
    if (selected !== null && !this.state.assessed) {
      let d = 0;
      const ck = this.state.submissions.get(selected)!.checkpoint;
      const records = await this.opts.executor.runBatch({
        ...this.batchBase(this.checkpoints.load(ck), 'assessment', range(H)),
        onEpisode: () => this.emit('progress', { phase: 'assessment', submission: selected, done: ++d, total: H }),
      });
      this.record({ type: 'assessed', submission: selected, stats: returnStats(records) });
    }
    if ((this.opts.assessStarter ?? true) && !this.state.starter) {
      this.record({ type: 'assessed_starter', ...(await this.assessStarter()) });
    }
    return this.writeReport();
  }

  /** The environment's starter policy on the held-out cases: the baseline the report compares to. */
  private async assessStarter(): Promise<{ stats: ReturnStats | null; error?: string }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyforge-starter-'));
    try {
      const { definition, params, env } = this.opts.registry.make(this.config.envId, this.config.params);
      for (const [rel, content] of Object.entries(starterFiles(definition, params, env))) {
        fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        fs.writeFileSync(path.join(dir, rel), content);
      }
      const built = await this.opts.executor.build(dir);
      if (!built.ok) return { stats: null, error: `starter policy does not build: ${built.diagnostics[0]?.message ?? 'unknown error'}` };
      const records = await this.opts.executor.runBatch(this.batchBase(built.bundle, 'assessment', range(this.config.heldOutCases)));
      return { stats: returnStats(records) };
    } catch (e) {
      return { stats: null, error: String(e) };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  private async writeReport(): Promise<RunReport> {
    const s = this.state;
    const fin = s.finish!;
    const history = [...s.submissions.values()].sort((a, b) => a.submission - b.submission);
    const candidates: CandidateResult[] = fin.candidates
      .map((n) => s.submissions.get(n)!)
      .map((sub) => {
        const v = s.validated.get(sub.checkpoint);
        return { submission: sub.submission, checkpoint: sub.checkpoint, validationMean: v?.mean ?? NaN, validationStderr: v?.stderr ?? NaN, trainMean: sub.mean };
      });
    const curve = (meanOf: (h: SubmissionBrief) => number | undefined): CurvePoint[] =>
      bestSoFar(history, meanOf).flatMap((p) => (p.bestSubmission === null ? [] : [{ budgetUsed: p.item.budgetUsed, submission: p.item.submission, value: p.best }]));
    const validationCurve = curve((h) => (fin.candidates.includes(h.submission) ? s.validated.get(h.checkpoint)?.mean : undefined));
    const trainCurve = curve((h) => h.mean);
    const selected = s.selected?.submission ?? null;
    const report: RunReport = {
      envId: this.config.envId,
      completedAt: new Date().toISOString(),
      budget: { total: this.config.budget, used: s.used, remaining: this.remaining() },
      selectionMode: fin.mode,
      selected,
      ...(s.selected?.reason ? { reason: s.selected.reason } : {}),
      ...(selected !== null ? { selectedCheckpoint: s.submissions.get(selected)!.checkpoint } : {}),
      candidates,
      heldOut: s.assessed,
      ...(s.starter ? { starterHeldOut: s.starter.stats } : {}),
      validationCurve,
      trainCurve,
    };
    if (this.opts.diagnostics) {
      try {
        report.diagnostics = await this.opts.diagnostics(this.paths.root);
      } catch (e) {
        this.log(`run diagnostics failed (report goes on without them): ${String(e)}`);
      }
    }
    writeJsonAtomic(this.paths.report, report);
    if (!s.completed) this.record({ type: 'completed' });
    this.emit('completed', report);
    return report;
  }

  // --- plumbing ----------------------------------------------------------------------------

  private record(event: JournalEvent, sync = true): StampedEvent {
    const stamped = this.journal.append(event, sync);
    applyEvent(this.state, stamped);
    return stamped;
  }

  /** The newest progress of the running submission not yet sent to clients. */
  private pendingProgress: ProgressNotification | null = null;
  /** A progress fsync is waiting for its turn or in flight. */
  private progressSyncing = false;
  private progressTimer: NodeJS.Timeout | undefined;
  private lastProgressSync = 0;

  /**
   * Episode lines are appended without an fsync each; one fsync covers every line appended
   * before it, and only then does the progress they account for go out to clients (never a
   * count whose lines are not yet durable). At most one such fsync every PROGRESS_SYNC_MS: while
   * a submission's feedback files are being written, each journal fsync also waits for their
   * data (ext4 orders data before metadata), and fsyncs back to back doubled the time of a
   * 128-episode submit.
   */
  private notifyAfterSync(progress: ProgressNotification): void {
    this.pendingProgress = progress;
    if (this.progressSyncing) return;
    this.progressSyncing = true;
    const sync = (): void => {
      this.progressTimer = undefined;
      this.lastProgressSync = Date.now();
      // syncAsync writes every appended line before it returns: this progress is covered.
      const covered = this.pendingProgress;
      // The batch it counts (a rolled-back submission's number is used again by the next).
      const batch = this.running;
      // The fsync runs on the thread pool so the event loop keeps taking episodes meanwhile.
      this.journal.syncAsync().then(
        () => this.progressDurable(covered, batch),
        () => {
          // The end of the batch syncs again, blocking, and reports a failure there.
          this.progressSyncing = false;
        },
      );
    };
    const wait = Math.max(0, this.lastProgressSync + PROGRESS_SYNC_MS - Date.now());
    if (wait === 0) sync();
    else this.progressTimer = setTimeout(sync, wait).unref();
  }

  private progressDurable(covered: ProgressNotification | null, batch: Run['running']): void {
    this.progressSyncing = false;
    if (this.closed) return;
    // Nothing for a batch that ended meanwhile: its final count, or its rollback, went out.
    if (covered !== null && batch !== null && this.running === batch) {
      if (this.pendingProgress === covered) this.pendingProgress = null;
      this.emit('progress', covered);
    }
    // Progress that arrived while this fsync was in flight (pending is only ever the running submission's).
    if (this.pendingProgress) this.notifyAfterSync(this.pendingProgress);
  }

  /** The end of a batch, right after a blocking journal sync: whatever progress is pending goes out. */
  private flushProgress(): void {
    const p = this.pendingProgress;
    this.dropProgress();
    if (!p || this.closed) return;
    this.emit('progress', p);
  }

  /** Forgets pending progress (a batch that ended or was rolled back reports no more of it). */
  private dropProgress(): void {
    this.pendingProgress = null;
    if (this.progressTimer === undefined) return;
    // A sync that was only waiting for its turn will not run: nothing is in flight any more.
    clearTimeout(this.progressTimer);
    this.progressTimer = undefined;
    this.progressSyncing = false;
  }

  /** Stage timings on stderr when POLICYFORGE_TRACE is set (diagnosing submit overhead). */
  private trace(message: string): void {
    if (process.env.POLICYFORGE_TRACE) process.stderr.write(`[trace] ${message}\n`);
  }

  private log(message: string): void {
    (this.opts.log ?? ((m: string) => process.stderr.write(`${m}\n`)))(message);
  }

  /** Waits for queued work, then closes the journal. A running submit is cancelled (rolled back). */
  async close(): Promise<void> {
    this.closed = true;
    this.dropProgress();
    this.cancel();
    await this.queue.catch(() => undefined);
    await this.feedbackStore.close();
    this.journal.close();
  }
}

/** A re-run reproduced an episode: same case, same end, same return and length. */
function sameOutcome(r: EpisodeRecord, e: SubmissionSummary['episodes'][number]): boolean {
  // The summary went through JSON (a non-finite return is null there).
  const sameReturn = JSON.stringify(r.return) === JSON.stringify(e.return);
  return r.caseIndex === e.caseIndex && r.status === e.status && sameReturn && r.length === e.length && r.terminated === e.terminated && r.truncated === e.truncated;
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
