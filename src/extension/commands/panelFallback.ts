/**
 * Show Dashboard and Replay Episode until the panels (src/extension/panels) are wired: the
 * commands exist, and say what they would show and where the same data is available meanwhile.
 */
import * as vscode from 'vscode';
import type { RunSession } from '../run/runSession';
import { registerCommand } from './registerCommand';

export function registerPanelFallbacks(session: RunSession, log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.Disposable.from(
    registerCommand('policyforge.showDashboard', () => {
      session.requireModel();
      void vscode.window.showInformationMessage('PolicyForge: the run dashboard is not available in this build. The Run view and feedback/*/summary.json show the same numbers.', 'Open Feedback').then((a) => a && vscode.commands.executeCommand('policyforge.openFeedback'));
    }, log),
    registerCommand('policyforge.replayEpisode', () => {
      session.requireModel();
      void vscode.window.showInformationMessage('PolicyForge: episode replay is not available in this build; trajectories are in feedback/submit-NNNN/episodes/.');
    }, log),
  );
}
