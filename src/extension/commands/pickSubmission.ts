/** Quick pick of a submission (newest first), for commands run from the palette without an argument. */
import * as vscode from 'vscode';
import type { RunModel } from '../run/runModel';
import { historyScoreFormat } from '../../stats/scoreFormat';

export async function pickSubmission(model: RunModel, title: string): Promise<number | undefined> {
  const history = [...(model.status?.history ?? [])].sort((a, b) => b.submission - a.submission);
  if (history.length === 0) throw new Error('there are no submissions yet');
  const picked = await vscode.window.showQuickPick(
    history.map((b) => ({
      label: `#${b.submission}`,
      description: `mean ${historyScoreFormat(history).score(b.mean)} · ${b.okCount}/${b.count} ok${b.editClass ? ` · ${b.editClass}` : ''}`,
      detail: `checkpoint ${b.checkpoint.slice(0, 12)} · ${b.cases.length} cases`,
      submission: b.submission,
    })),
    { title, placeHolder: 'Pick a submission' },
  );
  return picked?.submission;
}
