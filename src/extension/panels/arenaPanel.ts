/**
 * The Arena panel (arena runs): the win-rate matrix of submissions against opponents, ratings
 * over time, and the pool with weights, pins, drops and promotions. It reads the run's files
 * (arenaFiles.ts) and follows them as the runner rewrites them. Pin, unpin and drop go to the arena
 * commands (src/extension/arena: `policyforge.arenaPinOpponent`, `…UnpinOpponent`,
 * `…DropOpponent`, given the opponent id), which ask the window's runner; a click on a matrix
 * cell opens that match in the replay panel.
 *
 *   const arena = registerArenaPanel(context, { workspaceRoot, showReplay: (t) => panels.showReplay(t), log });
 */
import * as vscode from 'vscode';
import { PANEL_VIEW_TYPES, type HostToWebview, type ReplayTarget } from '../../protocol/webview';
import { ARENA_WATCH_GLOB, isArenaRun, readArenaFiles } from './arenaFiles';
import type { PanelLog } from './deps';
import { runPanelAction, type PanelAction } from './panelActions';
import { SingletonPanel } from './singletonPanel';

export const ARENA_COMMANDS = { open: 'policyforge.openArena', pin: 'policyforge.arenaPinOpponent', unpin: 'policyforge.arenaUnpinOpponent', drop: 'policyforge.arenaDropOpponent' } as const;
/** Context key set while the window's run is an arena run (menus and the command palette use it). */
export const ARENA_CONTEXT_KEY = 'policyforge.isArenaRun';

export interface ArenaPanelDeps {
  /** Folder holding the run; a getter because it may change. */
  workspaceRoot(): string | undefined;
  showReplay(target: ReplayTarget): void;
  log: PanelLog;
}

export interface ArenaPanelApi extends vscode.Disposable {
  showArena(): void;
}

export async function arenaSnapshot(root: string | undefined): Promise<HostToWebview> {
  if (root === undefined) return { type: 'arena.snapshot', envId: null, submissions: [], pool: null, ratings: null, report: null, problems: [] };
  const f = await readArenaFiles(root);
  return { type: 'arena.snapshot', envId: f.envId, submissions: f.submissions, pool: f.pool, ratings: f.ratings, report: f.report, problems: f.problems };
}

/**
 * Calls `onChange` (debounced) whenever a file the arena panel shows is created, rewritten or
 * removed under `root`: the runner writes each one atomically (rename) as the run goes on.
 */
export function watchArenaFiles(root: string, onChange: () => void, delayMs = 150): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(root, ARENA_WATCH_GLOB));
  let timer: NodeJS.Timeout | undefined;
  const changed = (): void => {
    clearTimeout(timer);
    timer = setTimeout(onChange, delayMs);
  };
  return vscode.Disposable.from(watcher, watcher.onDidCreate(changed), watcher.onDidChange(changed), watcher.onDidDelete(changed), { dispose: () => clearTimeout(timer) });
}

export function registerArenaPanel(context: vscode.ExtensionContext, deps: ArenaPanelDeps): ArenaPanelApi {
  const disposables: vscode.Disposable[] = [];
  const fail = (what: string, e: unknown): void => {
    const msg = e instanceof Error ? e.message : String(e);
    deps.log.error(`arena panel: ${what} failed: ${msg}`);
    void vscode.window.showErrorMessage(`PolicyForge: ${msg}`);
  };

  const onAction = (a: PanelAction): void => {
    const root = deps.workspaceRoot();
    if (a.type === 'arena.pin' || a.type === 'arena.drop') {
      if (root === undefined) return;
      void poolCommand(a, root).catch((e: unknown) => fail(a.type, e));
      return;
    }
    runPanelAction(a, { workspaceRoot: deps.workspaceRoot, log: deps.log }, deps.showReplay).catch((e: unknown) => fail(a.type, e));
  };

  const poolCommand = async (a: Extract<PanelAction, { type: 'arena.pin' | 'arena.drop' }>, root: string): Promise<void> => {
    const known = await vscode.commands.getCommands(true);
    const id = a.type === 'arena.drop' ? ARENA_COMMANDS.drop : a.pinned ? ARENA_COMMANDS.pin : ARENA_COMMANDS.unpin;
    if (!known.includes(id)) throw new Error(`this build has no ${id} command for ${a.opponent} in ${root}`);
    if (a.type === 'arena.drop') {
      const ok = await vscode.window.showWarningMessage(`Drop ${a.opponent} from the opponent pool? Later submissions will not play it.`, { modal: true }, 'Drop');
      if (ok !== 'Drop') return;
    }
    await vscode.commands.executeCommand(id, a.opponent);
    // The runner rewrites pool.json; the watcher refreshes too, this makes the answer immediate.
    refresh();
  };

  const panel = new SingletonPanel({
    kind: 'arena', title: 'PolicyForge Arena', extensionUri: context.extensionUri, log: deps.log, onAction,
    snapshot: async () => [await arenaSnapshot(deps.workspaceRoot())],
  });

  const refresh = (): void => {
    if (panel.isOpen) void arenaSnapshot(deps.workspaceRoot()).then((m) => panel.post(m));
  };

  let watched: { root: string; watcher: vscode.Disposable } | undefined;
  const watch = (): void => {
    const root = deps.workspaceRoot();
    if (root === undefined || watched?.root === root) return;
    watched?.watcher.dispose();
    watched = { root, watcher: watchArenaFiles(root, refresh) };
  };

  const updateContext = async (): Promise<void> => {
    const root = deps.workspaceRoot();
    await vscode.commands.executeCommand('setContext', ARENA_CONTEXT_KEY, root !== undefined && (await isArenaRun(root)));
  };
  void updateContext();

  const api: ArenaPanelApi = {
    showArena: () => {
      watch();
      panel.show();
      const root = deps.workspaceRoot();
      panel.setTitle(root ? `Arena · ${root.split(/[\\/]/).pop() ?? root}` : 'PolicyForge Arena');
    },
    dispose: () => {
      watched?.watcher.dispose();
      for (const d of disposables) d.dispose();
    },
  };

  disposables.push(
    vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPES.arena, panel.serializer(() => watch())),
    vscode.commands.registerCommand(ARENA_COMMANDS.open, async () => {
      const root = deps.workspaceRoot();
      if (root === undefined) return fail(ARENA_COMMANDS.open, new Error('Open a PolicyForge run folder first.'));
      if (!(await isArenaRun(root))) void vscode.window.showWarningMessage('PolicyForge: this run is not an arena run; the arena panel stays empty.');
      void updateContext();
      api.showArena();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void updateContext()),
    panel,
  );
  context.subscriptions.push(api);
  return api;
}
