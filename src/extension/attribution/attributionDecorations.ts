/**
 * Editor decorations from the latest submission's attribution: lines that ran more often in
 * failed or low-return episodes than in successful ones get a background tint (stronger for a
 * larger difference) and an overview-ruler mark; hovering them gives the figures. Repainted on
 * every run change, whenever the visible editors change and (shortly after) on edits: the marks
 * follow their code through edits made since the submission's checkpoint, and go when it is gone.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunSession } from '../run/runSession';
import { attributionMarks, relocateMarks, type AttributionMark } from './attributionMarks';

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

/** Repaints wait this long after the last keystroke: a diff per edit would be wasted work. */
const EDIT_DELAY_MS = 150;

export function registerAttributionDecorations(session: RunSession): vscode.Disposable {
  const strong = decorationType(true);
  const weak = decorationType(false);
  const paint = (): void => {
    const model = session.model;
    const latest = model?.latest;
    const marks = attributionMarks(latest);
    for (const editor of vscode.window.visibleTextEditors) {
      // Checkpoint documents and other schemes show code as it was, not the workspace file.
      const rel = model && editor.document.uri.scheme === 'file' ? path.relative(model.root, editor.document.uri.fsPath).split(path.sep).join('/') : '';
      let list = marks.get(rel) ?? [];
      if (list.length > 0 && model && latest) {
        const then = model.checkpointFile(latest.checkpoint, rel);
        if (then !== undefined) list = relocateMarks(list, then, editor.document.getText(), latest.submission);
      }
      editor.setDecorations(strong, list.filter((m) => m.strong).map(options));
      editor.setDecorations(weak, list.filter((m) => !m.strong).map(options));
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onEdit = (e: vscode.TextDocumentChangeEvent): void => {
    if (e.contentChanges.length === 0 || !vscode.window.visibleTextEditors.some((ed) => ed.document === e.document)) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      paint();
    }, EDIT_DELAY_MS);
  };
  paint();
  return vscode.Disposable.from(
    strong,
    weak,
    session.onDidChange(paint),
    vscode.window.onDidChangeVisibleTextEditors(paint),
    vscode.workspace.onDidChangeTextDocument(onEdit),
    new vscode.Disposable(() => timer && clearTimeout(timer)),
  );
}
