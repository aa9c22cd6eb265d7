/** Hover on a numeric literal in policy/: its value and score at each checkpoint (followed as literalHistory.ts says). */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunSession } from '../run/runSession';
import { historyScoreFormat } from '../../stats/scoreFormat';
import { literalHistory } from './literalHistory';

export class LiteralHistoryHoverProvider implements vscode.HoverProvider {
  constructor(private readonly session: RunSession) {}

  async provideHover(doc: vscode.TextDocument, pos: vscode.Position): Promise<vscode.Hover | undefined> {
    const model = this.session.model;
    const history = model?.status?.history;
    if (!model || !history?.length) return undefined;
    const rel = path.relative(model.root, doc.uri.fsPath).split(path.sep).join('/');
    if (!rel.startsWith('policy/')) return undefined;
    const found = await literalHistory(rel, doc.getText(), doc.offsetAt(pos), history.map((b) => ({
      submission: b.submission,
      source: model.checkpointFile(b.checkpoint, rel),
      mean: b.mean,
      editClass: model.summary(b.submission)?.edit?.class ?? b.editClass,
    })));
    if (!found) return undefined;
    const fmt = historyScoreFormat(history);
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown(`**PolicyForge** · history of \`${found.literal.text}\` across checkpoints\n\n`);
    md.appendMarkdown('| submission | value | train mean | edit |\n|---:|---:|---:|:--|\n');
    for (const e of found.entries) {
      const value = e.value === null ? `_${e.reason}_` : `\`${e.text}\``;
      md.appendMarkdown(`| #${e.submission} | ${value} | ${fmt.score(e.mean)} | ${e.editClass ?? ''} |\n`);
    }
    return new vscode.Hover(md, new vscode.Range(doc.positionAt(found.literal.start), doc.positionAt(found.literal.end)));
  }
}

export function registerLiteralHover(session: RunSession): vscode.Disposable {
  return vscode.languages.registerHoverProvider([{ language: 'typescript', scheme: 'file' }], new LiteralHistoryHoverProvider(session));
}
