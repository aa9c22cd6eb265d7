/** Restart Runner. */
import * as vscode from 'vscode';
import type { RunSession } from '../run/runSession';
import { registerCommand } from './registerCommand';

export function registerRunnerCommands(session: RunSession, log: vscode.LogOutputChannel): vscode.Disposable {
  return registerCommand('policyforge.restartRunner', async () => {
    const model = session.requireModel();
    await model.supervisor.restart();
    await model.refresh();
    void vscode.window.showInformationMessage('PolicyForge: the runner was restarted.');
    return model.supervisor.pid;
  }, log);
}
