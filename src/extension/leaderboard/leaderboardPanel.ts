/**
 * PolicyForge: Open Leaderboard. One panel per window showing the leaderboard of a suite folder,
 * a results CSV or a set of run workspaces; it remembers its sources across a window reload and
 * exports the board as the CLI writes it. PolicyForge: Export Leaderboard saves the open board
 * (arguments `{ format, file }` skip the questions, for scripts and tests).
 *
 *   registerLeaderboard(context, { pluginPaths, log });
 *   executeCommand('policyforge.openLeaderboard', { sources: ['/path/to/suite'] });
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createRegistry } from '../../envs';
import { optionsFromDefinitions } from '../../leaderboard/options';
import { SUITE_RESULTS } from '../../leaderboard/sources';
import { leaderboardStateSchema, PANEL_VIEW_TYPES } from '../../protocol/webview';
import { registerCommand } from '../commands/registerCommand';
import type { PanelAction } from '../panels/panelActions';
import { SingletonPanel } from '../panels/singletonPanel';
import { leaderboardExport, loadLeaderboard } from './leaderboardData';

export interface LeaderboardDeps {
  /** Plugin environment modules, so their families and score directions count too. */
  pluginPaths(): string[];
  log: vscode.LogOutputChannel;
}

type PickKind = 'suite' | 'csv' | 'runs';

export interface OpenLeaderboardArgs {
  /** Suite folders, results CSVs, run workspaces or report.json files. */
  sources?: string[];
}

export interface ExportLeaderboardArgs {
  format?: 'json' | 'csv';
  /** Where to write; without it a save dialog asks. */
  file?: string;
}

async function pickSources(kind: PickKind): Promise<string[] | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectFiles: kind === 'csv',
    canSelectFolders: kind !== 'csv',
    canSelectMany: kind === 'runs',
    filters: kind === 'csv' ? { 'Results CSV': ['csv'] } : undefined,
    openLabel: kind === 'suite' ? 'Show Suite Leaderboard' : kind === 'csv' ? 'Show CSV Leaderboard' : 'Rank These Runs',
    title: kind === 'suite' ? 'Leaderboard: a suite folder' : kind === 'csv' ? 'Leaderboard: a CSV with environment,entry,score,kind' : 'Leaderboard: finished run workspaces',
  });
  return picked?.map((u) => u.fsPath);
}

async function askKind(): Promise<PickKind | undefined> {
  const items: (vscode.QuickPickItem & { source: PickKind })[] = [
    { label: 'Suite folder…', detail: 'A folder written by policyforge suite run (its results.csv)', source: 'suite' },
    { label: 'Results CSV…', detail: 'Columns environment,entry,score,kind (kind: agent or baseline)', source: 'csv' },
    { label: 'Run workspaces…', detail: 'Finished runs: each selected policy and its report baselines', source: 'runs' },
  ];
  return (await vscode.window.showQuickPick(items, { title: 'Open Leaderboard', placeHolder: 'What to rank' }))?.source;
}

/** The open folder when it is itself a suite folder or a results CSV's home. */
function suiteInWorkspace(): string | undefined {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  return root?.scheme === 'file' && fs.existsSync(path.join(root.fsPath, SUITE_RESULTS)) ? root.fsPath : undefined;
}

export function registerLeaderboard(context: vscode.ExtensionContext, deps: LeaderboardDeps): vscode.Disposable {
  let sources: string[] = [];
  // One registry per set of plugin paths: loading plugins again on every refresh would re-run their modules.
  let cached: { key: string; options: ReturnType<typeof optionsFromDefinitions> } | undefined;
  const options = () => {
    const paths = deps.pluginPaths();
    const key = paths.join('\n');
    if (!cached || cached.key !== key) {
      const registry = createRegistry();
      for (const p of paths) registry.loadPlugin(p);
      cached = { key, options: optionsFromDefinitions((id) => (registry.has(id) ? registry.get(id) : undefined)) };
    }
    return cached.options;
  };
  const load = () => loadLeaderboard(sources, options());
  const titleOf = (): string => (sources.length === 1 ? `Leaderboard · ${path.basename(sources[0]!)}` : sources.length ? `Leaderboard · ${sources.length} sources` : 'PolicyForge Leaderboard');

  const refresh = (): void => {
    panel.setTitle(titleOf());
    panel.post(load().snapshot);
  };
  const pick = async (kind: PickKind, add: boolean): Promise<boolean> => {
    const chosen = await pickSources(kind);
    if (!chosen?.length) return false;
    sources = add ? [...new Set([...sources, ...chosen])] : chosen;
    return true;
  };
  const onAction = (a: PanelAction): void => {
    const run = async (): Promise<void> => {
      if (a.type === 'leaderboard.pick') {
        if (await pick(a.source, a.add === true)) refresh();
      } else if (a.type === 'leaderboard.reload') refresh();
      else if (a.type === 'leaderboard.export') await exportBoard({ format: a.format });
      else deps.log.warn(`leaderboard panel: "${a.type}" is not a leaderboard request`);
    };
    run().catch((e: unknown) => {
      const msg = e instanceof Error ? e.message : String(e);
      deps.log.error(`leaderboard: ${a.type} failed: ${msg}`);
      void vscode.window.showErrorMessage(`PolicyForge: ${msg}`);
    });
  };

  const panel = new SingletonPanel({
    kind: 'leaderboard', title: 'PolicyForge Leaderboard', extensionUri: context.extensionUri, log: deps.log, onAction,
    snapshot: async () => [load().snapshot],
  });

  const exportBoard = async (args: ExportLeaderboardArgs): Promise<string | undefined> => {
    const { board } = load();
    if (!board) throw new Error('no leaderboard to export: open one from a suite folder, a results CSV or run workspaces first');
    const format = args.format ?? ((await vscode.window.showQuickPick(['json', 'csv'], { title: 'Export Leaderboard as' })) as 'json' | 'csv' | undefined);
    if (!format) return undefined;
    let file = args.file;
    if (!file) {
      const base = sources[0] && fs.existsSync(sources[0]) && fs.statSync(sources[0]).isDirectory() ? sources[0] : path.dirname(sources[0] ?? '.');
      const target = await vscode.window.showSaveDialog({
        defaultUri: vscode.Uri.file(path.join(base, `leaderboard.${format}`)),
        filters: format === 'json' ? { JSON: ['json'] } : { CSV: ['csv'] },
        saveLabel: `Export ${format.toUpperCase()}`,
      });
      if (!target) return undefined;
      file = target.fsPath;
    }
    await vscode.workspace.fs.writeFile(vscode.Uri.file(file), Buffer.from(leaderboardExport(board, format), 'utf8'));
    if (!args.file) void vscode.window.showInformationMessage(`PolicyForge: exported ${path.basename(file)}`);
    return file;
  };

  const open = async (raw?: unknown): Promise<string[] | undefined> => {
    const args = (raw && typeof raw === 'object' ? raw : {}) as OpenLeaderboardArgs;
    if (args.sources?.length) sources = args.sources.map((s) => path.resolve(s));
    else if (!panel.isOpen || sources.length === 0) {
      const here = suiteInWorkspace();
      if (here && sources.length === 0) sources = [here];
      else {
        const kind = await askKind();
        if (!kind || !(await pick(kind, false))) return undefined;
      }
    }
    const wasOpen = panel.isOpen;
    panel.show();
    panel.setTitle(titleOf());
    // A new panel gets its snapshot on `ready`; an open one is refreshed in place.
    if (wasOpen) refresh();
    return sources;
  };

  const disposable = vscode.Disposable.from(
    vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPES.leaderboard, panel.serializer((state) => {
      const s = leaderboardStateSchema.safeParse(state);
      sources = s.success ? s.data.sources : [];
    })),
    panel,
    registerCommand('policyforge.openLeaderboard', open, deps.log),
    registerCommand('policyforge.exportLeaderboard', (raw?: unknown) => exportBoard((raw && typeof raw === 'object' ? raw : {}) as ExportLeaderboardArgs), deps.log),
  );
  context.subscriptions.push(disposable);
  return disposable;
}
