/**
 * The end of a run with its progress in a notification: validation (candidates and episodes
 * done), then the assessment of the selected submission and of the baselines, each line
 * as every surface prints it (src/stats/progressText.ts). `finish` starts the end; a run whose
 * budget is spent has already started it, and `awaitReport` only waits for it.
 */
import * as vscode from 'vscode';
import type { RunReport } from '../../protocol/feedback';
import { progressBatch, progressText } from '../../stats/progressText';
import type { RunModel } from '../run/runModel';

export async function finishWithProgress(model: RunModel, how: { candidates?: number[] } | 'awaitReport', location: vscode.ProgressLocation = vscode.ProgressLocation.Notification): Promise<RunReport> {
  const client = await model.supervisor.ensureClient();
  return vscode.window.withProgress({ location, title: 'PolicyForge' }, async (bar) => {
    bar.report({ message: 'validating the candidates on hidden cases…' });
    let phase = '';
    let shown = 0;
    const sub = model.onDidProgress((p) => {
      if (p.phase === 'submit' || p.total === 0) return;
      const key = progressBatch(p);
      // The bar restarts with each phase: its increments are this phase's share of episodes.
      const increment = key === phase ? ((p.done - shown) / p.total) * 100 : undefined;
      if (key !== phase) phase = key;
      shown = p.done;
      bar.report({ message: progressText(p), ...(increment !== undefined ? { increment } : {}) });
    });
    try {
      return how === 'awaitReport' ? await client.awaitReport() : await client.finish(how.candidates);
    } finally {
      sub.dispose();
    }
  });
}
