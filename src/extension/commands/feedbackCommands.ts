/**
 * Open Feedback: a submission's feedback in a panel (feedbackTarget.ts says which); Open Feedback
 * File: its summary.json as a read-only-by-convention text document. Both default to the latest.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { submissionName } from '../../runner';
import type { RunSession } from '../run/runSession';
import { feedbackTarget, type FeedbackTarget } from './feedbackTarget';
import { registerCommand } from './registerCommand';
import { submissionArg } from './submitCommands';

export function registerFeedbackCommands(session: RunSession, log: vscode.LogOutputChannel): vscode.Disposable {
  const submissionOf = (arg: unknown): number => {
    const model = session.requireModel();
    const n = submissionArg(arg) ?? model.latest?.submission;
    if (n === undefined) throw new Error('there are no submissions yet');
    return n;
  };

  const open = async (arg?: unknown): Promise<FeedbackTarget> => {
    const model = session.requireModel();
    const n = submissionOf(arg);
    const s = model.summary(n);
    if (!s) throw new Error(`submission #${n} has no feedback on disk`);
    const target = feedbackTarget(s);
    if (target.panel === 'replay') await vscode.commands.executeCommand('policyforge.replayEpisode', { submission: target.submission, caseIndex: target.caseIndex });
    else await vscode.commands.executeCommand('policyforge.showDashboard');
    return target;
  };

  const openFile = async (arg?: unknown): Promise<vscode.Uri> => {
    const model = session.requireModel();
    const uri = vscode.Uri.file(path.join(model.paths.feedback, submissionName(submissionOf(arg)), 'summary.json'));
    await vscode.window.showTextDocument(uri, { preview: true });
    return uri;
  };

  return vscode.Disposable.from(registerCommand('policyforge.openFeedback', open, log), registerCommand('policyforge.openFeedbackFile', openFile, log));
}
