/**
 * The workspace's run as the features see it: absent (no run yet: welcome view, New Policy
 * Workspace) or open (a supervised runner plus its RunModel). Also owns the context keys the
 * manifest's `when` clauses read, so the palette shows only what applies.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { workspacePaths } from '../../runner';
import type { ExtensionSettings } from '../settings';
import { RunnerSupervisor } from '../runner/runnerSupervisor';
import { RunModel } from './runModel';

export class RunSession implements vscode.Disposable {
  private modelValue: RunModel | undefined;
  private supervisor: RunnerSupervisor | undefined;
  private modelSubscription: vscode.Disposable | undefined;
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  /** Fires when the run opens or closes and whenever its model changes. */
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    private readonly extensionPath: string,
    readonly log: vscode.LogOutputChannel,
    private readonly settings: ExtensionSettings,
  ) {}

  get model(): RunModel | undefined {
    return this.modelValue;
  }

  /** The model, or a thrown error that says there is no run (commands turn it into a message). */
  requireModel(): RunModel {
    if (!this.modelValue) throw new Error('This workspace has no PolicyForge run. Run "PolicyForge: New Policy Workspace" first.');
    return this.modelValue;
  }

  /** First workspace folder that holds a run (`.policyforge/run.json`). */
  static findRunRoot(): string | undefined {
    for (const f of vscode.workspace.workspaceFolders ?? []) {
      if (f.uri.scheme === 'file' && fs.existsSync(workspacePaths(f.uri.fsPath).runJson)) return f.uri.fsPath;
    }
    return undefined;
  }

  /** Opens the run in `root` and starts (or attaches to) its runner. */
  async open(root: string): Promise<RunModel> {
    if (this.modelValue?.root === path.resolve(root)) return this.modelValue;
    this.close();
    const supervisor = RunnerSupervisor.for({
      root: path.resolve(root),
      runnerScript: path.join(this.extensionPath, 'dist', 'runnerProcess.js'),
      log: this.log,
      nodePath: () => this.settings.nodePath(),
      env: (): Record<string, string> => {
        const workers = this.settings.workers();
        return workers > 0 ? { POLICYFORGE_WORKERS: String(workers) } : {};
      },
      notify: (message, severity) => {
        if (severity === 'error') void vscode.window.showErrorMessage(message, 'Show Log').then((a) => a && this.log.show());
        else if (severity === 'warning') void vscode.window.showWarningMessage(message);
        else void vscode.window.showInformationMessage(message);
      },
    });
    this.supervisor = supervisor;
    const model = new RunModel(path.resolve(root), supervisor);
    this.modelValue = model;
    this.modelSubscription = model.onDidChange(() => this.changed());
    this.changed();
    try {
      await supervisor.ensureClient();
    } catch (e) {
      this.log.error(`cannot start the runner: ${e instanceof Error ? e.message : String(e)}`);
      void vscode.window.showErrorMessage(`PolicyForge could not start the runner: ${e instanceof Error ? e.message : String(e)}`, 'Show Log').then((a) => a && this.log.show());
    }
    await model.refresh();
    return model;
  }

  close(): void {
    this.modelSubscription?.dispose();
    this.modelValue?.dispose();
    this.supervisor?.dispose();
    this.modelValue = undefined;
    this.supervisor = undefined;
    this.changed();
  }

  private changed(): void {
    const m = this.modelValue;
    // An arena run's phase, submissions and running submit are its own (arena.status).
    const st = m?.arenaStatus ?? m?.status;
    void vscode.commands.executeCommand('setContext', 'policyforge.hasRun', m !== undefined);
    void vscode.commands.executeCommand('setContext', 'policyforge.phase', st?.phase ?? (m ? 'agent' : ''));
    void vscode.commands.executeCommand('setContext', 'policyforge.hasSubmissions', (st?.history.length ?? 0) > 0);
    void vscode.commands.executeCommand('setContext', 'policyforge.submitting', st?.running != null);
    this.changeEmitter.fire();
  }

  dispose(): void {
    this.close();
    this.changeEmitter.dispose();
  }
}
