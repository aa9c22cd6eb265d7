/** Hover on a numeric literal in policy/ (TypeScript or JSON): its value and score at each checkpoint (followed as literalHistory.ts says). */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { warmUp } from '../../analysis';
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

/**
 * The hover parses with the TypeScript compiler the analysis loads lazily (a few MB, about a
 * second to load). Loading it once a policy file is on screen in a run with checkpoints, a few
 * seconds later, keeps that second out of the first hover the user waits for.
 */
function preloadParserWhenUseful(session: RunSession): vscode.Disposable {
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  const check = (): void => {
    const model = session.model;
    if (started || !model?.status?.history.length) return;
    const policyDir = path.join(model.root, 'policy') + path.sep;
    if (!vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'file' && e.document.uri.fsPath.startsWith(policyDir))) return;
    started = true;
    timer = setTimeout(() => void warmUp().catch(() => undefined), 3000);
  };
  check();
  return vscode.Disposable.from(session.onDidChange(check), vscode.window.onDidChangeVisibleTextEditors(check), new vscode.Disposable(() => clearTimeout(timer)));
}

export function registerLiteralHover(session: RunSession): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.languages.registerHoverProvider([{ language: 'typescript', scheme: 'file' }, { language: 'json', scheme: 'file' }], new LiteralHistoryHoverProvider(session)),
    preloadParserWhenUseful(session),
  );
}
