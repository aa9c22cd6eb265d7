/**
 * What the editor knows about the workspace's run: info, status, submission summaries, the
 * report, live progress and the last rejected submit. One instance per window; every view reads
 * it and repaints on `onDidChange`. Fed by the runner's notifications (every client sees every
 * submission, so CLI and agent submits show up too) and by summary.json files on disk.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isArenaGame } from '../../envs/arena/ids';
import type { ArenaStatus } from '../../protocol/arena';
import { parseSubmissionSummary } from '../../protocol/documents';
import type { RunReport, SubmissionSummary } from '../../protocol/feedback';
import type { ProgressNotification, RunInfo, RunStatus } from '../../protocol/run';
import { workspacePaths, type RunnerClient, type WorkspacePaths } from '../../runner';
import type { RunnerState, RunnerSupervisor } from '../runner/runnerSupervisor';

export interface RejectedSubmit {
  message: string;
  reason: string;
  data: Record<string, unknown>;
}

/**
 * Readers see the run through getters; it changes only through the `apply…` methods (one per
 * runner event, whether it came as a notification or as the reply to our own request) and
 * `refresh`. Each fires `onDidChange`, and the event-specific emitter once per new fact.
 */
export class RunModel implements vscode.Disposable {
  private infoValue: RunInfo | undefined;
  private statusValue: RunStatus | undefined;
  private arenaStatusValue: ArenaStatus | undefined;
  private reportValue: RunReport | null = null;
  private progressValue: ProgressNotification | undefined;
  private rejectedValue: RejectedSubmit | undefined;
  private readonly summaryCache = new Map<number, SubmissionSummary>();
  /** Submissions whose arrival was announced (`number:createdAt`), so the reply and the notification fire once. */
  private readonly announced = new Set<string>();
  /** summary.json files already reported as unreadable, so a refresh does not repeat the warning. */
  private readonly badSummaries = new Set<number>();
  readonly paths: WorkspacePaths;

  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private readonly submittedEmitter = new vscode.EventEmitter<SubmissionSummary>();
  private readonly completedEmitter = new vscode.EventEmitter<RunReport>();
  private readonly progressEmitter = new vscode.EventEmitter<ProgressNotification>();
  readonly onDidChange = this.changeEmitter.event;
  readonly onDidSubmit = this.submittedEmitter.event;
  readonly onDidComplete = this.completedEmitter.event;
  readonly onDidProgress = this.progressEmitter.event;
  private readonly disposables: vscode.Disposable[] = [];
  private refreshing: Promise<void> | undefined;

  constructor(readonly root: string, readonly supervisor: RunnerSupervisor) {
    this.paths = workspacePaths(root);
    this.disposables.push(
      this.changeEmitter, this.submittedEmitter, this.completedEmitter, this.progressEmitter,
      supervisor.onDidConnect((client) => this.attach(client)),
      supervisor.onDidChangeState(() => this.changeEmitter.fire()),
    );
    if (supervisor.client) this.attach(supervisor.client);
  }

  get runnerState(): RunnerState {
    return this.supervisor.state;
  }
  get info(): RunInfo | undefined {
    return this.infoValue;
  }
  get status(): RunStatus | undefined {
    return this.statusValue;
  }
  /** An arena run's own status (`arena.status`): pool, submissions, budget in games; undefined on other runs. */
  get arenaStatus(): ArenaStatus | undefined {
    return this.arenaStatusValue;
  }
  /** The final report once the run is complete, else null. */
  get report(): RunReport | null {
    return this.reportValue;
  }
  /** The latest progress of a running submission or of validation/assessment; cleared by its submission. */
  get progress(): ProgressNotification | undefined {
    return this.progressValue;
  }
  /** The last rejected submit, until a submission succeeds. */
  get lastRejected(): RejectedSubmit | undefined {
    return this.rejectedValue;
  }
  /** The summaries known so far, by submission number (see `summary(n)` to read one from disk). */
  get summaries(): ReadonlyMap<number, SubmissionSummary> {
    return this.summaryCache;
  }

  /** Newest summary, if any. */
  get latest(): SubmissionSummary | undefined {
    const n = this.statusValue?.history.reduce((m, b) => Math.max(m, b.submission), 0) ?? 0;
    return n > 0 ? this.summary(n) : undefined;
  }

  private attach(client: RunnerClient): void {
    client.on('run.progress', (p) => this.applyProgress(p));
    client.on('run.submitted', ({ summary }) => this.applySubmitted(summary));
    client.on('run.completed', ({ report }) => this.applyCompleted(report));
    client.on('run.rejected', (r) => this.applyRejected({ message: r.message, reason: r.reason, data: {} }));
    client.on('malformed', (problem) => this.supervisor.log.warn(`ignored ${problem} from the runner`));
    // An arena run's tree and status follow its submissions and the edges of each stage.
    for (const e of ['arena.submitted', 'arena.completed'] as const) client.on(e, () => void this.refresh());
    client.on('arena.progress', (p) => (p.done === 0 || p.done === p.total) && void this.refresh());
    void this.refresh();
  }

  applyProgress(p: ProgressNotification): void {
    this.progressValue = p;
    if (this.statusValue && p.phase === 'submit' && p.submission !== null) {
      this.statusValue = { ...this.statusValue, running: p.done < p.total ? { submission: p.submission, done: p.done, total: p.total } : null };
    }
    this.progressEmitter.fire(p);
    this.changeEmitter.fire();
  }

  /** A new submission, from `run.submitted` or from our own submit's reply (both arrive; it counts once). */
  applySubmitted(summary: SubmissionSummary): void {
    const key = `${summary.submission}:${summary.createdAt}`;
    if (this.announced.has(key)) return;
    this.announced.add(key);
    this.summaryCache.set(summary.submission, summary);
    this.progressValue = undefined;
    this.rejectedValue = undefined;
    this.submittedEmitter.fire(summary);
    this.changeEmitter.fire();
    void this.refresh();
  }

  /** The run's report, from `run.completed`, our own finish's reply or a refresh (it counts once). */
  applyCompleted(report: RunReport): void {
    if (this.reportValue?.completedAt === report.completedAt) return;
    this.reportValue = report;
    this.completedEmitter.fire(report);
    this.changeEmitter.fire();
    void this.refresh();
  }

  /** A rejected submit, from `run.rejected` or our own submit's error reply; the reply's details win. */
  applyRejected(r: RejectedSubmit): void {
    const known = this.rejectedValue;
    if (known?.message === r.message && Object.keys(r.data).length === 0) return;
    this.rejectedValue = r;
    this.changeEmitter.fire();
    void this.refresh();
  }

  /** Re-reads info and status from the runner (coalesced: concurrent calls share one round trip). */
  refresh(): Promise<void> {
    if (!this.refreshing) {
      this.refreshing = this.doRefresh().finally(() => (this.refreshing = undefined));
    }
    return this.refreshing;
  }

  private async doRefresh(): Promise<void> {
    const client = this.supervisor.client;
    if (!client) return;
    let report: RunReport | null = null;
    try {
      const [info, status] = await Promise.all([this.infoValue ? Promise.resolve(this.infoValue) : client.info(), client.status()]);
      this.infoValue = info;
      if (isArenaGame(info.envId)) this.arenaStatusValue = await client.request('arena.status', {});
      this.statusValue = status;
      for (const b of status.history) this.summary(b.submission);
      if (status.phase === 'complete' && !this.reportValue) report = await client.report();
    } catch (e) {
      // The connection dropped mid-refresh (the supervisor restarts and we refresh on reconnect), or a reply did not match the protocol.
      this.supervisor.log.warn(`could not refresh the run: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.changeEmitter.fire();
    if (report) this.applyCompleted(report);
  }

  /** The summary of submission `n` (cached; read from feedback/submit-NNNN/summary.json through its schema). */
  summary(n: number): SubmissionSummary | undefined {
    const cached = this.summaryCache.get(n);
    if (cached) return cached;
    let text: string;
    try {
      text = fs.readFileSync(path.join(this.paths.submissionDir(n), 'summary.json'), 'utf8');
    } catch {
      return undefined;
    }
    const parsed = parseSubmissionSummary(text);
    if (!parsed.ok) {
      if (this.badSummaries.has(n)) return undefined;
      this.badSummaries.add(n);
      this.supervisor.log.warn(`feedback/${path.basename(this.paths.submissionDir(n))}/summary.json does not match the protocol: ${parsed.error}`);
      return undefined;
    }
    this.summaryCache.set(n, parsed.value);
    return parsed.value;
  }

  /** Source of `rel` (workspace-relative) in submission `n`'s checkpoint, or undefined. */
  checkpointFile(checkpoint: string, rel: string): string | undefined {
    try {
      return fs.readFileSync(path.join(this.paths.checkpointDir(checkpoint), rel), 'utf8');
    } catch {
      return undefined;
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
