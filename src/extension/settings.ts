/** Typed access to the `policyforge.*` settings declared in package.json. */
import * as path from 'node:path';
import * as vscode from 'vscode';

export interface ExtensionSettings {
  defaultBudget(): number;
  submitEpisodes(): number;
  nodePath(): string | undefined;
  /** Sandbox worker processes for the runner; 0 = the runner's default (one per core). */
  workers(): number;
  /** Absolute plugin module paths from the setting (relative ones resolve against `root`). */
  pluginPaths(root: string | undefined): string[];
  runConfigDefaults(): {
    episodeTimeoutMs: number;
    actTimeoutMs: number;
    validationCases: number;
    heldOutCases: number;
    maxTrajectorySteps: number;
    selectionMode: 'paper' | 'candidates' | 'gated';
    gateDelta?: number;
  };
}

function cfg(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration('policyforge');
}

export const settings: ExtensionSettings = {
  defaultBudget: () => cfg().get<number>('defaultBudget', 128),
  submitEpisodes: () => cfg().get<number>('submitEpisodes', 8),
  nodePath: () => cfg().get<string>('nodePath', '') || undefined,
  workers: () => cfg().get<number>('workers', 0),
  pluginPaths: (root) => cfg().get<string[]>('pluginPaths', []).filter((p) => p.trim() !== '').map((p) => (path.isAbsolute(p) || !root ? p : path.join(root, p))),
  runConfigDefaults: () => ({
    episodeTimeoutMs: cfg().get<number>('episodeTimeoutMs', 10_000),
    actTimeoutMs: cfg().get<number>('actTimeoutMs', 1_000),
    validationCases: cfg().get<number>('validationCases', 16),
    heldOutCases: cfg().get<number>('heldOutCases', 32),
    maxTrajectorySteps: cfg().get<number>('trajectoryStepCap', 2_000),
    selectionMode: cfg().get<'paper' | 'candidates' | 'gated'>('selectionMode', 'paper'),
    // An unset Δ lets the gate use one standard error of the incumbent.
    ...(typeof cfg().get('gateDelta') === 'number' ? { gateDelta: cfg().get<number>('gateDelta')! } : {}),
  }),
};
