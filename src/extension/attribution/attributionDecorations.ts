/**
 * Editor decorations from the latest submission's attribution: lines that ran more often in
 * failed or low-return episodes than in successful ones get a background tint (stronger for a
 * larger difference) and an overview-ruler mark; hovering them gives the figures. Repainted on
 * every run change and whenever the visible editors change.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunSession } from '../run/runSession';
import { attributionMarks, type AttributionMark } from './attributionMarks';

function decorationType(strong: boolean): vscode.TextEditorDecorationType {
  return vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor(strong ? 'diffEditor.removedLineBackground' : 'editor.rangeHighlightBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.errorForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
}

function options(m: AttributionMark): vscode.DecorationOptions {
  const hover = new vscode.MarkdownString(m.hover);
  return { range: new vscode.Range(m.line - 1, 0, m.endLine - 1, 0), hoverMessage: hover };
}

export function registerAttributionDecorations(session: RunSession): vscode.Disposable {
  const strong = decorationType(true);
  const weak = decorationType(false);
  const paint = (): void => {
    const model = session.model;
    const marks = attributionMarks(model?.latest);
    for (const editor of vscode.window.visibleTextEditors) {
      const rel = model ? path.relative(model.root, editor.document.uri.fsPath).split(path.sep).join('/') : '';
      const list = marks.get(rel) ?? [];
      editor.setDecorations(strong, list.filter((m) => m.strong).map(options));
      editor.setDecorations(weak, list.filter((m) => !m.strong).map(options));
    }
  };
  paint();
  return vscode.Disposable.from(strong, weak, session.onDidChange(paint), vscode.window.onDidChangeVisibleTextEditors(paint));
}
