/**
 * What the editor knows about the workspace's run: info, status, submission summaries, the
 * report, live progress and the last rejected submit. One instance per window; every view reads
 * it and repaints on `onDidChange`. Fed by the runner's notifications (every client sees every
 * submission, so CLI and agent submits show up too) and by summary.json files on disk.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunReport, SubmissionSummary } from '../../protocol/feedback';
import type { ProgressNotification, RejectedNotification, RunInfo, RunStatus } from '../../protocol/run';
import { submissionName, workspacePaths, type RunnerClient, type WorkspacePaths } from '../../runner';
import type { RunnerState, RunnerSupervisor } from '../runner/runnerSupervisor';

export interface RejectedSubmit {
  message: string;
  reason: string;
  data: Record<string, unknown>;
}

export class RunModel implements vscode.Disposable {
  info: RunInfo | undefined;
  status: RunStatus | undefined;
  report: RunReport | null = null;
  progress: ProgressNotification | undefined;
  lastRejected: RejectedSubmit | undefined;
  readonly summaries = new Map<number, SubmissionSummary>();
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

  /** Newest summary, if any. */
  get latest(): SubmissionSummary | undefined {
    const n = this.status?.history.reduce((m, b) => Math.max(m, b.submission), 0) ?? 0;
    return n > 0 ? this.summary(n) : undefined;
  }

  private attach(client: RunnerClient): void {
    client.on('run.progress', (p) => {
      this.progress = p;
      if (this.status && p.phase === 'submit' && p.submission !== null) this.status = { ...this.status, running: p.done < p.total ? { submission: p.submission, done: p.done, total: p.total } : null };
      this.progressEmitter.fire(p);
      this.changeEmitter.fire();
    });
    client.on('run.submitted', ({ summary }) => {
      this.summaries.set(summary.submission, summary);
      this.progress = undefined;
      this.lastRejected = undefined;
      this.submittedEmitter.fire(summary);
      void this.refresh();
    });
    client.on('run.completed', ({ report }) => {
      this.report = report;
      this.completedEmitter.fire(report);
      void this.refresh();
    });
    client.on('run.rejected', (r: RejectedNotification) => {
      // Our own rejected submits arrive here too, possibly after the reply that carried the details.
      if (this.lastRejected?.message !== r.message) this.lastRejected = { message: r.message, reason: r.reason, data: {} };
      void this.refresh();
    });
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
    try {
      const [info, status] = await Promise.all([this.info ? Promise.resolve(this.info) : client.info(), client.status()]);
      this.info = info;
      this.status = status;
      for (const b of status.history) this.summary(b.submission);
      if (status.phase === 'complete' && !this.report) this.report = await client.report();
    } catch {
      // The connection dropped mid-refresh; the supervisor restarts and we refresh on reconnect.
    }
    this.changeEmitter.fire();
  }

  /** The summary of submission `n` (cached; read from feedback/submit-NNNN/summary.json). */
  summary(n: number): SubmissionSummary | undefined {
    const cached = this.summaries.get(n);
    if (cached) return cached;
    try {
      const s = JSON.parse(fs.readFileSync(path.join(this.paths.feedback, submissionName(n), 'summary.json'), 'utf8')) as SubmissionSummary;
      this.summaries.set(n, s);
      return s;
    } catch {
      return undefined;
    }
  }

  /** Source of `rel` (workspace-relative) in submission `n`'s checkpoint, or undefined. */
  checkpointFile(checkpoint: string, rel: string): string | undefined {
    try {
      return fs.readFileSync(path.join(this.paths.checkpointDir(checkpoint), rel), 'utf8');
    } catch {
      return undefined;
    }
  }

  setRejected(r: RejectedSubmit | undefined): void {
    this.lastRejected = r;
    this.changeEmitter.fire();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
