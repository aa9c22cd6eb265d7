/**
 * One run in one workspace: the authority over budget, cases, checkpoints, feedback, validation
 * and assessment. This file is the lifecycle, top-down; each step's work is in its own module:
 *
 *   open ─ recover (recovery.ts) ─┬─ submit: admit (admission.ts) → run and charge (submission.ts)
 *                                 ├─ restore, cancel, prebuild
 *                                 └─ finish: validate → select → assess (finish.ts) → report (report.ts)
 *
 * Requests that change the run go through one queue (requestQueue.ts). Every state change is a
 * journal line, fsynced before any listener hears of it (journal.ts); the state is the fold of
 * the journal (runState.ts), so a runner killed at any moment restarts into the same run.
 */
import { EventEmitter } from 'node:events';
import type { RunReport, SubmissionSummary } from '../protocol/feedback';
import type { CancelResult, CheckResult, ProgressNotification, RejectedNotification, RestoreResult, RunInfo, RunStatus } from '../protocol/run';
import { admitSubmit, type Admitted } from './admission';
import { readJson } from './atomicFs';
import { CheckpointStore } from './checkpoints';
import { parseFrozenConfig, type RunConfig } from './config';
import { FeedbackStore } from './feedbackStore';
import { beginFinish, parseFinish, validateAndAssess, type FinishTrigger } from './finish';
import { Journal, type JournalEvent } from './journal';
import { ProgressThrottle } from './progress';
import { workspacePaths, type WorkspacePaths } from './paths';
import { recover } from './recovery';
import { writeReport } from './report';
import { RequestQueue } from './requestQueue';
import { RunError } from './runError';
import type { RunContext, RunOptions } from './runContext';
import { runFeedback, runInfo, runStatus } from './runQueries';
import { applyEvent, foldJournal, type RunState } from './runState';
import { openSeeds } from './secret';
import { runSubmission, type RunningSubmission } from './submission';

export type { RunOptions } from './runContext';

export interface RunEvents {
  progress: [ProgressNotification];
  submitted: [SubmissionSummary];
  completed: [RunReport];
  rejected: [RejectedNotification];
}

export class Run extends EventEmitter<RunEvents> {
  readonly paths: WorkspacePaths;
  private readonly ctx: RunContext;
  private readonly journal: Journal;
  private readonly queue = new RequestQueue();
  private readonly progress = new ProgressThrottle((p) => this.emit('progress', p));
  /** The finish's latest progress, for `status` (what validation or assessment is doing now). */
  private finishProgress: ProgressNotification | null = null;
  /** Aborts the finish's batches when the runner closes. */
  private readonly finishAbort = new AbortController();
  private readonly recoveryNotes: string[];
  private running: RunningSubmission | null = null;
  private finishing: Promise<RunReport> | null = null;
  private prebuildQueued = false;
  private closed = false;

  /** Opens the run frozen in `<root>/.policyforge/run.json`, recovering from any crash. */
  static open(root: string, opts: RunOptions): Run {
    const paths = workspacePaths(root);
    const json = readJson<unknown>(paths.runJson);
    if (json === undefined) throw new Error(`${paths.runJson} is missing or unreadable; create the run with \`policyforge init\``);
    const parsed = parseFrozenConfig(json);
    if (!parsed.ok) throw new Error(parsed.error);
    opts.registry.get(parsed.config.envId);
    return new Run(parsed.config, paths, opts);
  }

  private constructor(
    readonly config: RunConfig,
    paths: WorkspacePaths,
    private readonly opts: RunOptions,
  ) {
    super();
    this.paths = paths;
    const events = Journal.read(paths.events);
    const state: RunState = foldJournal(events);
    const { seeds, created } = openSeeds(config.runId, events);
    this.journal = new Journal(paths.events);
    this.ctx = {
      config,
      paths,
      state,
      seeds,
      executor: opts.executor,
      registry: opts.registry,
      checkpoints: new CheckpointStore(paths),
      feedback: new FeedbackStore(paths, { maxBulkBytes: config.feedbackMaxBytes }),
      record: (event) => this.record(event),
      log: (message) => this.log(message),
    };
    if (!created) this.record({ type: 'created', runId: config.runId, envId: config.envId, budget: config.budget, secretFingerprint: seeds.fingerprint() });
    this.recoveryNotes = recover(this.ctx);
    if (state.finish && !state.completed) void this.finish({}).catch((e: unknown) => this.log(`resumed finish failed: ${String(e)}`));
    else this.finishIfBudgetSpent();
  }

  // --- queries (answered at once, never queued) ------------------------------------------

  info(): RunInfo {
    return runInfo(this.config, this.paths, this.opts.runnerVersion);
  }

  status(): RunStatus {
    return runStatus(this.config, this.ctx.state, this.running, this.recoveryNotes, this.finishProgress);
  }

  feedback(submission?: number): SubmissionSummary {
    return runFeedback(this.ctx, submission);
  }

  /** Builds policy/ as the next submit would (the result lands in the build cache it reads), queued so it never runs beside a batch. */
  check(): Promise<CheckResult> {
    return this.queue.enqueue(async () => {
      const built = await this.opts.executor.build(this.paths.root, { typeCheck: true });
      const diagnostics = built.diagnostics.map(({ file, line, column, message, severity, kind }) => ({ file, line, column, message, severity, kind }));
      return { builds: built.ok, typeErrors: diagnostics.filter((d) => d.kind === 'type' && d.severity === 'error').length, diagnostics };
    });
  }

  report(): RunReport | null {
    return this.ctx.state.completed ? (readJson<RunReport>(this.paths.report) ?? null) : null;
  }

  /** Nothing running or queued (used by idle shutdown). */
  get idle(): boolean {
    return this.queue.empty && this.running === null && this.finishing === null;
  }

  // --- the agent phase ---------------------------------------------------------------------

  /** Admits the submit (a rejection is journaled and costs nothing), runs it and charges it once its feedback is durable. */
  submit(params: unknown): Promise<SubmissionSummary> {
    return this.queue.enqueue(async () => {
      let admitted: Admitted;
      try {
        admitted = await admitSubmit(params, this.config, this.ctx.state, this.opts.executor, this.paths.root, this.opts.registry);
      } catch (e) {
        if (e instanceof RunError) {
          this.record({ type: 'submit_rejected', reason: e.reason, code: e.code, message: e.message });
          this.emit('rejected', { code: e.code, reason: e.reason, message: e.message });
        }
        throw e;
      }
      const summary = await runSubmission(this.ctx, admitted, {
        analyzeEdit: this.opts.analyzeEdit,
        progress: (p) => this.progress.update(p),
        started: (r) => {
          this.running = r;
        },
        ended: (completed) => {
          this.running = null;
          // A rolled-back batch reports no more progress; a completed one its final count.
          if (completed) this.progress.finish();
          else this.progress.stop();
        },
      });
      this.emit('submitted', summary);
      this.finishIfBudgetSpent();
      return summary;
    });
  }

  /**
   * Builds `policy/` ahead of the submit that will ask for it, so that submit finds its bundle in
   * the executor's build cache. Called at start and when `policy/` changes (policyWatcher.ts).
   * Queued like a request, so it never runs beside a batch, and at most one waits at a time. A
   * build that fails is not cached: the submit builds again and reports why.
   */
  prebuild(): void {
    if (this.prebuildQueued || this.closed || this.ctx.state.phase !== 'agent') return;
    this.prebuildQueued = true;
    this.queue
      .enqueue(async () => {
        this.prebuildQueued = false;
        if (!this.closed && this.ctx.state.phase === 'agent') await this.opts.executor.build(this.paths.root);
      })
      .catch(() => {
        // A full queue (the submit builds for itself) or a build that threw (the submit reports it).
        this.prebuildQueued = false;
      });
  }

  /** Aborts the running submission; it is rolled back, not charged. */
  cancel(): CancelResult {
    if (!this.running) return { cancelled: false, submission: null };
    this.running.abort.abort();
    return { cancelled: true, submission: this.running.submission };
  }

  /** Copies a submission's checkpoint back over `policy/`; the next submission's parent is that one. */
  restore(submission: number): Promise<RestoreResult> {
    return this.queue.enqueue(async () => {
      const s = this.ctx.state.submissions.get(submission);
      if (!s) throw new RunError('unknownSubmission', `submission ${submission} does not exist`, { submission });
      const files = this.ctx.checkpoints.restoreInto(s.checkpoint);
      this.record({ type: 'restored', submission, checkpoint: s.checkpoint });
      return { submission, checkpoint: s.checkpoint, files };
    });
  }

  // --- the end: validation, selection, assessment, report ----------------------------------

  finish(raw: unknown, trigger: FinishTrigger = 'finish'): Promise<RunReport> {
    const done = this.report();
    if (done) return Promise.resolve(done);
    if (this.finishing) return this.finishing;
    let params: { candidates?: number[] };
    try {
      params = parseFinish(raw);
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    const finishing = this.queue.enqueue(async () => {
      if (!this.ctx.state.completed) {
        beginFinish(this.ctx, params, trigger);
        await validateAndAssess(this.ctx, {
          progress: (p) => {
            this.finishProgress = p;
            this.progress.update(p);
            // A phase's last count goes out at once: the next phase's first would replace it.
            if (p.done === p.total) this.progress.finish();
          },
          stopping: () => this.closed,
          signal: this.finishAbort.signal,
          assessStarter: this.opts.assessStarter ?? true,
          ...(this.opts.select ? { select: this.opts.select } : {}),
        });
        this.progress.finish();
      }
      return this.writeReport();
    });
    this.finishing = finishing;
    const clear = (): void => {
      this.finishing = null;
    };
    finishing.then(clear, clear);
    return finishing;
  }

  private finishIfBudgetSpent(): void {
    const s = this.ctx.state;
    if (!s.finish && s.submissions.size > 0 && s.used >= this.config.budget) {
      void this.finish({}, 'budget').catch((e: unknown) => this.log(`finish after the budget was spent failed: ${String(e)}`));
    }
  }

  private async writeReport(): Promise<RunReport> {
    const report = await writeReport(this.ctx, this.opts.diagnostics);
    this.emit('completed', report);
    return report;
  }

  // --- plumbing ----------------------------------------------------------------------------

  private record(event: JournalEvent): void {
    applyEvent(this.ctx.state, this.journal.append(event));
  }

  private log(message: string): void {
    (this.opts.log ?? ((m: string) => process.stderr.write(`${m}\n`)))(message);
  }

  /** Cancels a running submit (rolled back), waits for queued work, then closes the journal. */
  async close(): Promise<void> {
    this.closed = true;
    this.progress.stop();
    this.cancel();
    this.finishAbort.abort();
    await this.queue.drained();
    this.journal.close();
  }
}
