/** Hover on a numeric literal in policy/: its value and score at each checkpoint. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunSession } from '../run/runSession';
import { historyScoreFormat } from '../../stats/scoreFormat';
import { literalAt, literalHistory } from './literalHistory';

export class LiteralHistoryHoverProvider implements vscode.HoverProvider {
  constructor(private readonly session: RunSession) {}

  provideHover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const model = this.session.model;
    const history = model?.status?.history;
    if (!model || !history?.length) return undefined;
    const rel = path.relative(model.root, doc.uri.fsPath).split(path.sep).join('/');
    if (!rel.startsWith('policy/')) return undefined;
    const text = doc.getText();
    const at = literalAt(text, doc.offsetAt(pos));
    if (!at) return undefined;
    const entries = literalHistory(at.ordinal, at.count, history.map((b) => ({
      submission: b.submission,
      source: model.checkpointFile(b.checkpoint, rel),
      mean: b.mean,
      editClass: model.summary(b.submission)?.edit?.class ?? b.editClass,
    })));
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown(`**PolicyForge** · history of \`${at.literal.text.trim()}\` across checkpoints\n\n`);
    md.appendMarkdown('| submission | value | train mean | edit |\n|---:|---:|---:|:--|\n');
    for (const e of entries) {
      const value = e.value === null ? `_${e.reason}_` : `\`${e.text.trim()}\``;
      md.appendMarkdown(`| #${e.submission} | ${value} | ${historyScoreFormat(history).score(e.mean)} | ${e.editClass ?? ''} |\n`);
    }
    const start = doc.positionAt(at.literal.start);
    const end = doc.positionAt(at.literal.end);
    return new vscode.Hover(md, new vscode.Range(start, end));
  }
}

export function registerLiteralHover(session: RunSession): vscode.Disposable {
  return vscode.languages.registerHoverProvider([{ language: 'typescript', scheme: 'file' }], new LiteralHistoryHoverProvider(session));
}
