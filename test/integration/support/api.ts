/** Access to the extension under test and small waits on its state. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PolicyForgeApi } from '../../../src/extension/api/api';
import type { RunStatus } from '../../../src/protocol/run';
import { waitFor } from './ui';

export async function policyForge(): Promise<PolicyForgeApi> {
  const ext = vscode.extensions.getExtension<PolicyForgeApi>('policyforge.policyforge');
  if (!ext) throw new Error('extension policyforge.policyforge is not loaded');
  return ext.isActive ? ext.exports : ext.activate();
}

export function workspaceRoot(): string {
  const f = vscode.workspace.workspaceFolders?.[0];
  if (!f) throw new Error('the test window has no workspace folder');
  return f.uri.fsPath;
}

export function policyFile(): string {
  return path.join(workspaceRoot(), 'policy', 'policy.ts');
}

export function runnerPid(): number | undefined {
  try {
    return (JSON.parse(fs.readFileSync(path.join(workspaceRoot(), '.policyforge', 'runner.json'), 'utf8')) as { pid: number }).pid;
  } catch {
    return undefined;
  }
}

export async function waitForStatus(api: PolicyForgeApi, what: string, pred: (s: RunStatus) => boolean, timeoutMs = 60_000): Promise<RunStatus> {
  return waitFor(what, () => {
    const s = api.status();
    return s && pred(s) ? s : undefined;
  }, timeoutMs);
}

/** Replaces policy/policy.ts (or `file`, e.g. a scratch run's policy) through the editor, as a user would, and saves it. */
export async function writePolicy(source: string, file = policyFile()): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(file);
  const editor = await vscode.window.showTextDocument(doc);
  // A WorkspaceEdit on the document, not TextEditor#edit: the latter fails (returns false) on an
  // editor instance that a just-finished layout change replaced.
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), source);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`could not edit ${file}`);
  // When the editor was just replaced, VS Code may count the file as not open and save the edit
  // itself (files.refactoring.autoSave); save() then has nothing left to save and says false.
  // What counts is the file on disk.
  const saved = doc.isClosed ? false : await doc.save();
  await waitFor(`${file} on disk (save() said ${String(saved)})`, () => (fs.readFileSync(file, 'utf8') === source ? true : undefined), 10_000);
  return editor;
}
