/**
 * VS Code on an arena run: Submit plays the opponent pool with a cancellable progress
 * notification counted in games, Finish Run validates and assesses, and Pin / Unpin / Drop
 * Opponent pick a pool opponent from a quick pick. The texts are the CLI's (src/stats/arenaText.ts).
 * The arena panel and the match replay are separate (src/extension/panels/arena*).
 */
import * as vscode from 'vscode';
import { isArenaGame } from '../../envs/arena/ids';
import type { ArenaRunReport, ArenaSubmissionSummary } from '../../protocol/arena';
import { RunClientError, type RunnerClient } from '../../runner';
import { arenaProgressText, formatPoolChange } from '../../stats/arenaText';
import { confirmAction } from '../shared/confirm';
import type { RunModel } from '../run/runModel';
import type { RunSession } from '../run/runSession';
import { registerCommand } from '../commands/registerCommand';

/** True when the workspace's run is on a two-sided game. */
export function isArenaModel(model: RunModel): boolean {
  return model.info !== undefined && isArenaGame(model.info.envId);
}

async function saveDirtyPolicy(model: RunModel): Promise<void> {
  for (const doc of vscode.workspace.textDocuments) if (doc.isDirty && doc.uri.fsPath.startsWith(`${model.root}/policy/`)) await doc.save();
}

/** One arena submit: screen, deep evaluation if it passes, promotion; cancellable (uncharged once rolled back). */
export async function arenaSubmitWithProgress(model: RunModel, note?: string): Promise<ArenaSubmissionSummary | undefined> {
  const client = await model.supervisor.ensureClient();
  await saveDirtyPolicy(model);
  let summary: ArenaSubmissionSummary;
  try {
    summary = await submitPlaying(client, note);
  } catch (e) {
    if (!(e instanceof RunClientError && e.reason === 'cancelled')) throw e;
    await model.refresh().catch(() => undefined);
    void vscode.window.showInformationMessage(`PolicyForge: ${e.message}`);
    return undefined;
  }
  await model.refresh().catch(() => undefined);
  const file = vscode.Uri.file(`${model.paths.submissionDir(summary.submission)}/summary.json`);
  const headline = `PolicyForge: submission ${summary.submission} reached the ${summary.stage} stage: ${summary.reason}`;
  void vscode.window.showInformationMessage(headline, 'Open Feedback').then((x) => x && vscode.window.showTextDocument(file));
  return summary;
}

/** The submit request under a progress notification in games; its Cancel sends `run.cancel`. */
function submitPlaying(client: RunnerClient, note: string | undefined): Thenable<ArenaSubmissionSummary> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'PolicyForge arena submit', cancellable: true },
    async (progress, token) => {
      let last = 0, stage = '';
      const onProgress = (p: { phase: string; submission: number | null; done: number; total: number }): void => {
        if (`${p.phase}/${p.submission}` !== stage) {
          stage = `${p.phase}/${p.submission}`;
          last = 0;
        }
        progress.report({ message: arenaProgressText(p), increment: p.total > 0 ? (100 * (p.done - last)) / p.total : 0 });
        last = p.done;
      };
      client.on('arena.progress', onProgress);
      const cancel = token.onCancellationRequested(() => void client.cancel().catch(() => undefined));
      try {
        return await client.request('arena.submit', note ? { note } : {});
      } finally {
        cancel.dispose();
        client.off('arena.progress', onProgress);
      }
    },
  );
}

export async function arenaFinishWithProgress(model: RunModel): Promise<ArenaRunReport | undefined> {
  const client = await model.supervisor.ensureClient();
  const st = await client.request('arena.status', {});
  if (!(await confirmAction('Finish the arena run?', `${st.budget.remaining > 0 ? `${st.budget.remaining} games of budget stay unused. ` : ''}The candidates then play the final pool on hidden seeds, and the selected one is assessed against hidden opponents. No more submissions after this.`, 'Finish Run'))) return undefined;
  const report = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'PolicyForge: finishing the arena run' }, async (progress) => {
    const onProgress = (p: { phase: string; submission: number | null; done: number; total: number }): void => progress.report({ message: arenaProgressText(p) });
    client.on('arena.progress', onProgress);
    try {
      return await client.request('arena.finish', {});
    } finally {
      client.off('arena.progress', onProgress);
    }
  });
  await model.refresh().catch(() => undefined);
  const a = report.assessment;
  const msg = !report.selected || !a ? 'PolicyForge: arena run finished; no submission was selected.' : `PolicyForge: arena run finished; submission ${report.selected.submission} selected: win rate ${Math.round(100 * a.hidden.winRate)}% against hidden opponents, ${Math.round(100 * a.finalPool.winRate)}% against the final pool.`;
  void vscode.window.showInformationMessage(msg, 'Open Report').then((x) => x && vscode.window.showTextDocument(vscode.Uri.file(model.paths.report)));
  return report;
}

type PoolAction = 'pin' | 'unpin' | 'drop';

/** Pin, unpin or drop an opponent: the id from the argument, or picked from the pool. */
async function poolCommand(session: RunSession, action: PoolAction, arg?: unknown): Promise<boolean> {
  const model = session.requireModel();
  const client = await model.supervisor.ensureClient();
  let opponent = typeof arg === 'string' ? arg : undefined;
  if (!opponent) {
    const st = await client.request('arena.status', {});
    const entries = st.pool.filter((e) => (action === 'pin' ? !e.pinned : action === 'unpin' ? e.pinned : !e.pinned));
    if (entries.length === 0) throw new Error(action === 'unpin' ? 'no opponent is pinned' : 'every opponent in the pool is pinned');
    const pick = await vscode.window.showQuickPick(
      entries.map((e) => ({ label: e.id, description: `${e.kind}, weight ${e.weight}${e.pinned ? ', pinned' : ''}`, detail: e.winRate === null ? 'not played yet' : `submissions' points rate ${e.winRate.toFixed(2)} over ${e.games} games` })),
      { title: `PolicyForge: ${action} an opponent`, placeHolder: action === 'drop' ? 'Later submissions no longer play the opponent you drop' : undefined },
    );
    if (!pick) return false;
    opponent = pick.label;
  }
  const result = action === 'drop' ? await client.request('arena.drop', { opponent }) : await client.request('arena.pin', { opponent, pinned: action === 'pin' });
  void vscode.window.showInformationMessage(`PolicyForge: ${formatPoolChange(action === 'drop' ? 'dropped' : action === 'pin' ? 'pinned' : 'unpinned', opponent, result).split('\n')[0]?.replace(/; the pool now:$/, '')}`);
  await model.refresh().catch(() => undefined);
  return true;
}

export function registerArenaCommands(session: RunSession, log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.Disposable.from(
    registerCommand('policyforge.arenaPinOpponent', (arg?: unknown) => poolCommand(session, 'pin', arg), log),
    registerCommand('policyforge.arenaUnpinOpponent', (arg?: unknown) => poolCommand(session, 'unpin', arg), log),
    registerCommand('policyforge.arenaDropOpponent', (arg?: unknown) => poolCommand(session, 'drop', arg), log),
  );
}
