/** What the host does for a panel's requests: open files and diffs, start a replay, save exports. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WebviewToHost } from '../../protocol/webview';
import type { PanelDeps } from './deps';
import { submissionDirName } from './runFiles';

export type PanelAction = Exclude<WebviewToHost, { type: 'ready' | 'log' }>;

export async function runPanelAction(a: PanelAction, deps: PanelDeps, openReplay: (t: { submission: number; caseIndex: number; compareWith?: number }) => void): Promise<void> {
  const root = deps.workspaceRoot();
  switch (a.type) {
    case 'openFeedback':
      if (deps.openFeedback) await deps.openFeedback(a.submission);
      else if (root) await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, 'feedback', submissionDirName(a.submission), 'summary.json')), { preview: true, viewColumn: vscode.ViewColumn.Beside });
      return;
    case 'openDiff':
      if (deps.openDiff) await deps.openDiff(a.submission);
      else void vscode.window.showInformationMessage(`PolicyForge: no checkpoint diff available for submission #${a.submission} in this build.`);
      return;
    case 'openSource': {
      if (!root) return;
      const file = path.resolve(root, a.file);
      // Only files inside the workspace: the path comes from feedback, which a policy can influence.
      if (path.relative(root, file).startsWith('..')) return;
      const pos = new vscode.Position(Math.max(0, a.line - 1), Math.max(0, (a.column ?? 1) - 1));
      await vscode.window.showTextDocument(vscode.Uri.file(file), { selection: new vscode.Range(pos, pos), viewColumn: vscode.ViewColumn.One });
      return;
    }
    case 'openReplay':
      openReplay({ submission: a.submission, caseIndex: a.caseIndex, compareWith: a.compareWith });
      return;
    case 'export': {
      const base = root ? vscode.Uri.file(path.join(root, path.basename(a.filename))) : undefined;
      const filters: Record<string, string[]> = { png: { PNG: ['png'] }, csv: { CSV: ['csv'] }, json: { JSON: ['json'] } }[a.format];
      const target = await vscode.window.showSaveDialog({ defaultUri: base, filters, saveLabel: `Export ${a.format.toUpperCase()}` });
      if (!target) return;
      const bytes = a.encoding === 'base64' ? Buffer.from(a.content, 'base64') : Buffer.from(a.content, 'utf8');
      await vscode.workspace.fs.writeFile(target, bytes);
      void vscode.window.showInformationMessage(`PolicyForge: exported ${path.basename(target.fsPath)}`);
      return;
    }
  }
}
