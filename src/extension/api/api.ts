/**
 * The API other extensions get from `vscode.extensions.getExtension('policyforge.policyforge').exports`:
 * register environment plugins (module paths the runner loads) and follow run events.
 * Plugins take effect for runs created afterwards: a run freezes its plugin list in run.json.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { workspacePaths } from '../../runner';
import type { RunReport, SubmissionSummary } from '../../protocol/feedback';
import type { ProgressNotification, RunStatus } from '../../protocol/run';
import type { RunSession } from '../run/runSession';

export interface PolicyForgeApi {
  readonly apiVersion: 1;
  /** Adds an environment plugin module (absolute path to a CommonJS module exporting `environments`). */
  registerEnvironmentPlugin(modulePath: string): vscode.Disposable;
  /** Every plugin path in effect: the `policyforge.pluginPaths` setting plus registered ones. */
  environmentPlugins(): string[];
  readonly onDidSubmit: vscode.Event<SubmissionSummary>;
  readonly onDidProgress: vscode.Event<ProgressNotification>;
  readonly onDidComplete: vscode.Event<RunReport>;
  /** Fires whenever the run's status changes (opened, submitted, restored, runner restarted). */
  readonly onDidChangeStatus: vscode.Event<RunStatus | undefined>;
  /** The run's latest status, or undefined without a run or before the runner connected. */
  status(): RunStatus | undefined;
  /** Workspace root of the open run. */
  workspaceRoot(): string | undefined;
  /**
   * Opens the run in `root` (a folder holding `.policyforge/run.json`) in this window in place of
   * the one open now: the Run view, status bar, editor marks and commands follow it. Resolves with
   * its status once its runner answers (undefined if the runner could not start).
   */
  openRun(root: string): Promise<RunStatus | undefined>;
  /** Lets go of the window's run: the views empty and a runner this window started stops. */
  closeRun(): void;
}

export class PluginRegistry {
  private readonly registered: string[] = [];

  constructor(private readonly fromSettings: () => string[]) {}

  add(modulePath: string): vscode.Disposable {
    if (!path.isAbsolute(modulePath)) throw new Error(`environment plugin paths must be absolute, got "${modulePath}"`);
    this.registered.push(modulePath);
    return new vscode.Disposable(() => {
      const i = this.registered.indexOf(modulePath);
      if (i >= 0) this.registered.splice(i, 1);
    });
  }

  all(): string[] {
    return [...new Set([...this.fromSettings(), ...this.registered])];
  }
}

/** Re-fires model events for whichever run is open, across runs opening and closing. */
export function createApi(session: RunSession, plugins: PluginRegistry): { api: PolicyForgeApi; disposable: vscode.Disposable } {
  const submit = new vscode.EventEmitter<SubmissionSummary>();
  const progress = new vscode.EventEmitter<ProgressNotification>();
  const complete = new vscode.EventEmitter<RunReport>();
  const status = new vscode.EventEmitter<RunStatus | undefined>();
  let forwarded: vscode.Disposable | undefined;
  let forwardedModel: unknown;
  let lastStatus: RunStatus | undefined;
  const sub = session.onDidChange(() => {
    const m = session.model;
    if (m !== forwardedModel) {
      forwarded?.dispose();
      forwardedModel = m;
      forwarded = m ? vscode.Disposable.from(m.onDidSubmit((s) => submit.fire(s)), m.onDidProgress((p) => progress.fire(p)), m.onDidComplete((r) => complete.fire(r))) : undefined;
    }
    if (m?.status !== lastStatus) {
      lastStatus = m?.status;
      status.fire(lastStatus);
    }
  });
  const api: PolicyForgeApi = {
    apiVersion: 1,
    registerEnvironmentPlugin: (p) => plugins.add(p),
    environmentPlugins: () => plugins.all(),
    onDidSubmit: submit.event,
    onDidProgress: progress.event,
    onDidComplete: complete.event,
    onDidChangeStatus: status.event,
    status: () => session.model?.status,
    workspaceRoot: () => session.model?.root,
    openRun: async (root) => {
      if (!fs.existsSync(workspacePaths(root).runJson)) throw new Error(`${root} holds no PolicyForge run (.policyforge/run.json)`);
      return (await session.open(root)).status;
    },
    closeRun: () => session.close(),
  };
  return { api, disposable: vscode.Disposable.from(submit, progress, complete, status, sub, new vscode.Disposable(() => forwarded?.dispose())) };
}
