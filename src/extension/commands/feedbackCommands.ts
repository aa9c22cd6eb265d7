/** Open Feedback: the submission's summary.json (the latest one by default). */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { submissionName } from '../../runner';
import type { RunSession } from '../run/runSession';
import { registerCommand } from './registerCommand';
import { submissionArg } from './submitCommands';

export function registerFeedbackCommands(session: RunSession, log: vscode.LogOutputChannel): vscode.Disposable {
  const open = async (arg?: unknown): Promise<vscode.Uri | undefined> => {
    const model = session.requireModel();
    const n = submissionArg(arg) ?? model.latest?.submission;
    if (n === undefined) throw new Error('there are no submissions yet');
    const uri = vscode.Uri.file(path.join(model.paths.feedback, submissionName(n), 'summary.json'));
    await vscode.window.showTextDocument(uri, { preview: true });
    return uri;
  };
  return registerCommand('policyforge.openFeedback', open, log);
}
