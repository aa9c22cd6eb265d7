/**
 * Runs a submit with its progress in the status bar and on the Run view (fed by `run.progress`),
 * and ends it with one notification: the result, with Open Feedback. A notification for the
 * progress too made two per submit; cancelling is the Run view's stop button (or Cancel
 * Submission), which sends `run.cancel`. A rejected submit (bad range, over budget, build error)
 * becomes that one message instead and, for build errors, diagnostics at the offending lines; it
 * costs nothing.
 */
import * as vscode from 'vscode';
import type { SubmissionSummary } from '../../protocol/feedback';
import type { TrainingConfig } from '../../protocol/training';
import { RunClientError } from '../../runner';
import type { RunModel } from '../run/runModel';
import type { SubmitRequest } from '../submit/caseInput';
import { typeErrorWarning } from '../../stats/feedbackText';
import { confirmAction } from '../shared/confirm';
import { lastBudgetQuestion } from '../submit/lastBudgetQuestion';
import { historyScoreFormat } from '../../stats/scoreFormat';
import { plural } from '../shared/plural';
import { submitResultMessage } from './submitMessage';

/** The Run view (package.json `views`), which shows a progress bar and a stop button while a submit runs. */
const RUN_VIEW = 'policyforge.run';

/** `warnings`: the type-error warning shown before the submit ran (empty when there was none). */
export type SubmitOutcome = { ok: true; summary: SubmissionSummary; warnings?: string[] } | { ok: false; reason: string; message: string };

/**
 * `quiet`: the caller (an LM tool) reports the outcome, and has shown any type-error warning in
 * its own confirmation. Otherwise a policy with type errors asks first, since running it charges
 * the budget; `strict` leaves the refusal to the runner, uncharged. A submit that spends the last
 * of the budget ends the run, so it asks too, unless `confirmLastBudget` is false (the caller asked).
 */
export async function submitWithProgress(model: RunModel, request: SubmitRequest & { note?: string; strict?: boolean; config?: TrainingConfig }, opts: { quiet?: boolean; confirmLastBudget?: boolean } = {}): Promise<SubmitOutcome> {
  const client = await model.supervisor.ensureClient();
  // Unsaved policy edits would not be what runs: save them first, as a build task would.
  await saveDirtyPolicyFiles(model.root);
  const warnings = request.strict ? [] : typeErrorWarning(await client.check(), 'a strict submit');
  if (warnings.length > 0 && !opts.quiet) {
    const go = await vscode.window.showWarningMessage(
      `policy/ has type errors. Submitting runs it anyway and charges the budget.`,
      { modal: true, detail: warnings.slice(1).map((l) => l.trim()).join('\n') },
      'Submit Anyway',
    );
    if (go !== 'Submit Anyway') return { ok: false, reason: 'declined', message: 'not submitted: policy/ has type errors (nothing was charged)' };
  }
  // A practice submit (config) spends the practice budget and never ends the run.
  const last = opts.quiet || opts.confirmLastBudget === false || request.config ? null : lastBudgetQuestion(request, await client.status());
  if (last && !(await confirmAction(last.message, last.detail, last.action))) return { ok: false, reason: 'declined', message: last.declined };
  const count = 'episodes' in request ? request.episodes : undefined;
  const title = `PolicyForge: running ${'cases' in request ? `cases ${request.cases}` : plural(count ?? 0, 'episode')}`;
  try {
    const summary = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, (bar) =>
      vscode.window.withProgress({ location: { viewId: RUN_VIEW } }, async (view) => {
        let last = 0;
        const sub = model.onDidProgress((p) => {
          if (p.phase !== 'submit' || p.total === 0) return;
          bar.report({ message: `${p.done}/${p.total} done` });
          view.report({ increment: ((p.done - last) / p.total) * 100 });
          last = p.done;
        });
        try {
          return await client.submit(request);
        } finally {
          sub.dispose();
        }
      }),
    );
    model.applySubmitted(summary);
    await model.refresh();
    if (!opts.quiet) {
      const failed = summary.stats.count - summary.stats.okCount;
      const msg = submitResultMessage(summary, historyScoreFormat(model.status?.history));
      void (failed ? vscode.window.showWarningMessage(msg, 'Open Feedback') : vscode.window.showInformationMessage(msg, 'Open Feedback')).then((a) => a && vscode.commands.executeCommand('policyforge.openFeedback', { submission: summary.submission }));
    }
    return { ok: true, summary, warnings };
  } catch (e) {
    if (e instanceof RunClientError) {
      model.applyRejected({ message: e.message, reason: e.reason, data: e.data });
      // A cancelled or rolled-back submit leaves no run.submitted behind: re-read what is running.
      await model.refresh();
      if (opts.quiet) {
        // The caller (an LM tool) reports the outcome itself.
      } else if (e.reason === 'cancelled') void vscode.window.showInformationMessage(`PolicyForge: ${e.message}`);
      else void vscode.window.showErrorMessage(`PolicyForge rejected the submit (nothing was charged): ${e.message}`);
      return { ok: false, reason: e.reason, message: e.message };
    }
    throw e;
  }
}

async function saveDirtyPolicyFiles(root: string): Promise<void> {
  const policyDir = vscode.Uri.file(root).with({ path: `${vscode.Uri.file(root).path}/policy/` }).toString();
  for (const doc of vscode.workspace.textDocuments) {
    if (doc.isDirty && doc.uri.toString().startsWith(policyDir)) await doc.save();
  }
}
