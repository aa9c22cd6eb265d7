/**
 * Read-only documents of checkpoint sources: `policyforge-checkpoint:/<submission>/<path>`
 * shows `<path>` as it was when submission `<submission>` ran (for vscode.diff and hovers).
 */
import * as vscode from 'vscode';
import type { RunSession } from '../run/runSession';

export const CHECKPOINT_SCHEME = 'policyforge-checkpoint';

export function checkpointUri(submission: number, rel: string): vscode.Uri {
  return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${submission}/${rel}` });
}

export function parseCheckpointUri(uri: vscode.Uri): { submission: number; rel: string } | undefined {
  const m = /^\/(\d+)\/(.+)$/.exec(uri.path);
  return m ? { submission: Number(m[1]), rel: m[2] as string } : undefined;
}

export class CheckpointContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly session: RunSession) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const model = this.session.requireModel();
    const parsed = parseCheckpointUri(uri);
    if (!parsed) throw new Error(`not a checkpoint address: ${uri.toString()}`);
    const brief = model.status?.history.find((b) => b.submission === parsed.submission);
    const checkpoint = brief?.checkpoint ?? model.summary(parsed.submission)?.checkpoint;
    if (!checkpoint) throw new Error(`submission #${parsed.submission} is unknown to this run`);
    const text = model.checkpointFile(checkpoint, parsed.rel);
    if (text === undefined) return `// ${parsed.rel} did not exist in the checkpoint of submission #${parsed.submission}\n`;
    return text;
  }
}

export function registerCheckpointContent(session: RunSession): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, new CheckpointContentProvider(session));
}
