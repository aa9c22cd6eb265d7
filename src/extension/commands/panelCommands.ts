/**
 * Show Dashboard, Replay Episode and Show Evolution Diagnostics open the webview panels
 * (src/extension/panels). Replay takes a tree episode node / `{submission, caseIndex,
 * compareWith?}`, or asks for a submission and a case.
 */
import * as vscode from 'vscode';
import { createRegistry } from '../../envs';
import type { PanelsApi } from '../panels';
import type { RunSession } from '../run/runSession';
import { historyScoreFormat } from '../../stats/scoreFormat';
import { pickSubmission } from './pickSubmission';
import { registerCommand } from './registerCommand';

export interface ReplayArgs {
  submission: number;
  caseIndex: number;
  compareWith?: number;
}

function replayArg(arg: unknown): ReplayArgs | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const a = arg as Partial<ReplayArgs>;
  if (typeof a.submission !== 'number' || typeof a.caseIndex !== 'number') return undefined;
  return { submission: a.submission, caseIndex: a.caseIndex, ...(typeof a.compareWith === 'number' ? { compareWith: a.compareWith } : {}) };
}

export function registerPanelCommands(session: RunSession, panels: PanelsApi, log: vscode.LogOutputChannel): vscode.Disposable {
  const replay = async (arg?: unknown): Promise<ReplayArgs | undefined> => {
    const model = session.requireModel();
    let target = replayArg(arg);
    if (!target) {
      const n = await pickSubmission(model, 'Replay an episode of…');
      if (n === undefined) return undefined;
      const s = model.summary(n);
      if (!s) throw new Error(`submission #${n} has no feedback on disk`);
      const ep = await vscode.window.showQuickPick(
        s.episodes.map((e) => ({ label: `case ${e.caseIndex}`, description: `${historyScoreFormat(model.status?.history).score(e.return)} · ${e.status === 'ok' ? `${e.length} steps` : e.status}`, caseIndex: e.caseIndex })),
        { title: `Replay an episode of submission #${n}` },
      );
      if (!ep) return undefined;
      target = { submission: n, caseIndex: ep.caseIndex };
    }
    panels.showReplay(target);
    return target;
  };
  return vscode.Disposable.from(
    registerCommand('policyforge.showDashboard', () => {
      session.requireModel();
      panels.showDashboard();
    }, log),
    registerCommand('policyforge.showEvolutionDiagnostics', () => {
      session.requireModel();
      panels.showDiagnostics();
    }, log),
    registerCommand('policyforge.replayEpisode', replay, log),
  );
}

/** Environment family of an id (replay renderers are chosen by family); plugin environments included. */
export function familyResolver(pluginPaths: () => string[]): (envId: string) => string | undefined {
  let cache: { key: string; registry: ReturnType<typeof createRegistry> } | undefined;
  return (envId) => {
    const paths = pluginPaths();
    const key = paths.join('\n');
    if (!cache || cache.key !== key) {
      const registry = createRegistry();
      for (const p of paths) registry.loadPlugin(p);
      cache = { key, registry };
    }
    return cache.registry.has(envId) ? cache.registry.get(envId).family : undefined;
  };
}
