/** Submit…, Resubmit Same Cases, Cancel Submission, Finish Run. */
import * as vscode from 'vscode';
import type { RunReport } from '../../protocol/feedback';
import type { RunModel } from '../run/runModel';
import type { RunSession } from '../run/runSession';
import { confirmAction } from '../shared/confirm';
import type { ExtensionSettings } from '../settings';
import { historyScoreFormat } from '../../stats/scoreFormat';
import { parseSubmitInput, type SubmitLimits, type SubmitRequest } from '../submit/caseInput';
import { submitWithProgress, type SubmitOutcome } from '../progress/submitWithProgress';
import { registerCommand } from './registerCommand';
import { resubmitQuestion } from './resubmitPrompt';
import { finishWithProgress } from '../progress/finishWithProgress';
import type { ArenaRunReport, ArenaSubmissionSummary } from '../../protocol/arena';
import { arenaFinishWithProgress, arenaSubmitWithProgress, isArenaModel } from '../arena/arenaCommands';

/** Accepted arguments: `{episodes}`/`{cases}` (CodeLens, API; `confirm: false` skips the last-budget question), a string as typed into the box, or nothing (ask). */
function requestFromArg(arg: unknown, limits: SubmitLimits): SubmitRequest | string | undefined {
  if (typeof arg === 'string') {
    const p = parseSubmitInput(arg, limits);
    return p.ok ? p.request : p.message;
  }
  if (arg && typeof arg === 'object') {
    const a = arg as { episodes?: unknown; cases?: unknown };
    if (typeof a.episodes === 'number') return { episodes: a.episodes };
    if (typeof a.cases === 'string') return { cases: a.cases };
    if (Array.isArray(a.cases)) return { cases: a.cases.join(',') };
  }
  return undefined;
}

export function registerSubmitCommands(session: RunSession, settings: ExtensionSettings, log: vscode.LogOutputChannel): vscode.Disposable {
  const limitsOf = (): SubmitLimits => {
    const m = session.requireModel();
    if (!m.info || !m.status) throw new Error('the runner is not connected yet; try again in a moment');
    return { poolSize: m.info.poolSize, remaining: m.status.budget.remaining, minEpisodes: m.info.minEpisodesPerSubmit, maxEpisodes: m.info.maxEpisodesPerSubmit };
  };

  const submit = async (arg?: unknown): Promise<SubmitOutcome | ArenaSubmissionSummary | undefined> => {
    const model = session.requireModel();
    if (!model.status) await model.refresh();
    // An arena run plays its opponent pool: no cases to ask for (src/extension/arena).
    if (isArenaModel(model)) return arenaSubmitWithProgress(model);
    const limits = limitsOf();
    let request = requestFromArg(arg, limits);
    if (typeof request === 'string') throw new Error(request);
    if (!request) {
      const text = await vscode.window.showInputBox({
        title: 'PolicyForge: Submit',
        prompt: `Episodes to run (a count of new cases) or case ranges such as 0-7,12 · pool 0-${limits.poolSize - 1} · ${limits.remaining} left`,
        value: String(Math.min(settings.submitEpisodes(), limits.remaining)),
        ignoreFocusOut: true,
        validateInput: (v) => {
          const p = parseSubmitInput(v, limits);
          return p.ok ? { message: `Runs ${p.count} episode${p.count === 1 ? '' : 's'}, leaving ${limits.remaining - p.count}`, severity: vscode.InputBoxValidationSeverity.Info } : p.message;
        },
      });
      if (text === undefined) return undefined;
      const p = parseSubmitInput(text, limits);
      if (!p.ok) throw new Error(p.message);
      request = p.request;
    }
    // `{ ..., confirm: false }` (API callers): the caller already agreed to end the run with it.
    const confirmLastBudget = !(arg !== null && typeof arg === 'object' && (arg as { confirm?: unknown }).confirm === false);
    return followRunEnd(model, await submitWithProgress(model, request, { confirmLastBudget }));
  };

  /** Spends budget, so it asks first (a tree row or the palette alike); `{ submission, confirm: false }` skips the question. */
  const resubmit = async (arg?: unknown): Promise<SubmitOutcome | undefined> => {
    const model = session.requireModel();
    if (!model.status) await model.refresh();
    const n = submissionArg(arg) ?? model.latest?.submission;
    const s = n === undefined ? undefined : model.summary(n);
    if (!s) throw new Error(n === undefined ? 'there is no submission to repeat yet' : `submission #${n} has no feedback on disk`);
    const q = resubmitQuestion(s.submission, s.cases, limitsOf());
    if (!q.ok) throw new Error(q.message);
    const skip = arg !== null && typeof arg === 'object' && (arg as { confirm?: unknown }).confirm === false;
    if (!skip && !(await confirmAction(q.message, q.detail, q.action))) return undefined;
    return followRunEnd(model, await submitWithProgress(model, q.request, { confirmLastBudget: !skip }));
  };

  /** The end of a run: its report in a notification, with Open Report. */
  const announceReport = async (model: RunModel, report: RunReport): Promise<void> => {
    model.applyCompleted(report);
    await model.refresh();
    const held = report.heldOut ? `held-out mean ${historyScoreFormat(model.status?.history).meanStderr(report.heldOut.mean, report.heldOut.stderr)}` : 'no held-out score';
    const msg = report.selected === null ? `PolicyForge: run finished; no submission qualified (${report.reason ?? 'no reason given'}).` : `PolicyForge: run finished; submission #${report.selected} selected, ${held}.`;
    void vscode.window.showInformationMessage(msg, 'Open Report').then((x) => x && vscode.window.showTextDocument(vscode.Uri.file(model.paths.report)));
  };

  /**
   * A submit that spent the last of the budget has started the end of the run: its validation and
   * assessment show in a notification as Finish Run's do, then the report. The command itself
   * returns with the submit's outcome.
   */
  const followRunEnd = (model: RunModel, outcome: SubmitOutcome): SubmitOutcome => {
    if (outcome.ok && outcome.summary.budget.remaining === 0 && !outcome.summary.practice) {
      void finishWithProgress(model, 'awaitReport').then(
        (report) => announceReport(model, report),
        (e: unknown) => log.error(`waiting for the end of the run: ${e instanceof Error ? e.message : String(e)}`),
      );
    }
    return outcome;
  };

  const cancel = async (): Promise<boolean> => {
    const client = await session.requireModel().supervisor.ensureClient();
    const r = await client.cancel();
    if (!r.cancelled) void vscode.window.showInformationMessage('PolicyForge: no submission is running.');
    return r.cancelled;
  };

  const finish = async (arg?: unknown): Promise<RunReport | ArenaRunReport | undefined> => {
    const model = session.requireModel();
    if (isArenaModel(model)) return arenaFinishWithProgress(model);
    const a = (arg ?? {}) as { candidates?: number[]; confirm?: boolean };
    const left = model.status?.budget.remaining ?? 0;
    if (a.confirm !== false) {
      const agreed = await confirmAction(
        'Finish the run?',
        `${left > 0 ? `${left} episodes of budget are left unused. ` : ''}The runner then validates the candidates on hidden cases and scores the selected one on held-out cases. No more submissions after this.`,
        'Finish Run',
      );
      if (!agreed) return undefined;
    }
    const report = await finishWithProgress(model, { candidates: a.candidates });
    await announceReport(model, report);
    return report;
  };

  return vscode.Disposable.from(
    registerCommand('policyforge.submit', submit, log),
    registerCommand('policyforge.resubmit', resubmit, log),
    registerCommand('policyforge.cancelSubmission', cancel, log),
    registerCommand('policyforge.finishRun', finish, log),
  );
}

/** A submission number from a tree node, `{submission}`, or a plain number. */
export function submissionArg(arg: unknown): number | undefined {
  if (typeof arg === 'number') return arg;
  if (arg && typeof arg === 'object' && typeof (arg as { submission?: unknown }).submission === 'number') return (arg as { submission: number }).submission;
  return undefined;
}
