/**
 * What the panels need from the rest of the extension: where the run lives, run events for live
 * updates, and a few optional hooks. Kept small so the composition root wires it in one line
 * (RunModel's onDidSubmit/onDidComplete/onDidProgress satisfy `RunEvents` as they are).
 */
import type * as vscode from 'vscode';
import type { RunReport, SubmissionSummary } from '../../protocol/feedback';
import type { ProgressNotification } from '../../protocol/run';

/** The runner's `run.progress` notification, as the panels receive it. */
export type RunProgress = ProgressNotification;

export interface RunEvents {
  readonly onDidSubmit: vscode.Event<SubmissionSummary>;
  readonly onDidComplete: vscode.Event<RunReport>;
  readonly onDidProgress: vscode.Event<RunProgress>;
}

export interface PanelLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface PanelDeps {
  /** Folder holding the run (policy/, feedback/, .policyforge/); a getter because it may change. */
  workspaceRoot(): string | undefined;
  /** Live run events. Without them the panels watch summary.json/report.json files instead. */
  events?: RunEvents;
  /** EnvDefinition.family of an environment id (for plugin environments); built-ins are known. */
  familyOf?(envId: string): string | undefined;
  /** Opens the diff of a submission against its parent checkpoint (e.g. the Compare with Checkpoint command). */
  openDiff?(submission: number): void | Thenable<unknown>;
  /** Opens a submission's feedback; defaults to showing its summary.json. */
  openFeedback?(submission: number): void | Thenable<unknown>;
  log?: PanelLog;
}
