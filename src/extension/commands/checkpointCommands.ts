/** Compare with Checkpoint (vscode.diff against the read-only checkpoint document) and Restore Checkpoint. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RestoreResult } from '../../protocol/run';
import { checkpointUri } from '../checkpoints/checkpointContent';
import type { RunSession } from '../run/runSession';
import { confirmAction } from '../shared/confirm';
import { pickSubmission } from './pickSubmission';
import { registerCommand } from './registerCommand';
import { submissionArg } from './submitCommands';

/** The policy file to compare: the active editor's when it is under policy/, else policy/policy.ts. */
function fileToCompare(root: string, arg: unknown): string {
  const given = arg && typeof arg === 'object' ? (arg as { file?: unknown }).file : undefined;
  if (typeof given === 'string') return given;
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active?.scheme === 'file') {
    const rel = path.relative(root, active.fsPath).split(path.sep).join('/');
    if (rel.startsWith('policy/')) return rel;
  }
  return 'policy/policy.ts';
}

export function registerCheckpointCommands(session: RunSession, log: vscode.LogOutputChannel): vscode.Disposable {
  const compare = async (arg?: unknown): Promise<vscode.Uri | undefined> => {
    const model = session.requireModel();
    const n = submissionArg(arg) ?? (await pickSubmission(model, 'Compare the workspace with a checkpoint'));
    if (n === undefined) return undefined;
    const rel = fileToCompare(model.root, arg);
    const left = checkpointUri(n, rel);
    const right = vscode.Uri.file(path.join(model.root, rel));
    await vscode.commands.executeCommand('vscode.diff', left, right, `${path.basename(rel)} (#${n} ↔ workspace)`, { preview: true });
    return left;
  };

  const restore = async (arg?: unknown): Promise<RestoreResult | undefined> => {
    const model = session.requireModel();
    const n = submissionArg(arg) ?? (await pickSubmission(model, 'Restore a checkpoint into policy/'));
    if (n === undefined) return undefined;
    const dirty = vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file' && path.relative(model.root, d.uri.fsPath).startsWith(`policy${path.sep}`));
    const agreed = await confirmAction(
      `Restore the checkpoint of submission #${n} into policy/?`,
      `The files of policy/ are replaced by the checkpoint's${dirty.length ? ` and ${dirty.length} unsaved editor(s) are discarded` : ''}. The restore is recorded: the next submission counts #${n} as its parent.`,
      'Restore',
    );
    if (!agreed) return undefined;
    for (const d of dirty) {
      await vscode.window.showTextDocument(d);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    const client = await model.supervisor.ensureClient();
    const result = await client.restore(n);
    await model.refresh();
    void vscode.window.showInformationMessage(`PolicyForge: restored ${result.files.length} file(s) from submission #${n}.`);
    return result;
  };

  return vscode.Disposable.from(
    registerCommand('policyforge.compareWithCheckpoint', compare, log),
    registerCommand('policyforge.restoreCheckpoint', restore, log),
  );
}
