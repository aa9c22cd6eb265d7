/**
 * The webview panels: run dashboard, episode replay, evolution diagnostics. `registerPanels`
 * registers their serializers (so they come back after a window reload) and live updates, and
 * returns the functions the extension's commands call.
 *
 *   const panels = registerPanels(context, { workspaceRoot: () => root, events: model, openDiff, log });
 *   registerCommand('policyforge.showDashboard', () => panels.showDashboard());
 */
import { readAgentRecord } from '../../agents/agentRecord';
import * as vscode from 'vscode';
import type { SubmissionSummary } from '../../protocol/feedback';
import { returnScale } from '../../stats/scoreFormat';
import { PANEL_VIEW_TYPES, replayStateSchema, type HostToWebview, type ReplaySide, type ReplayTarget, type RunActivity } from '../../protocol/webview';
import type { PanelDeps, PanelLog, RunProgress } from './deps';
import { actionNamesOf } from './actionNames';
import { isArenaRun } from './arenaFiles';
import { arenaReplayMessage } from './arenaReplay';
import { familyOf } from './envFamily';
import { liveDiagnostics } from './liveDiagnostics';
import { runPanelAction } from './panelActions';
import { readRunFiles, readTrajectory, type RunFiles } from './runFiles';
import { SingletonPanel } from './singletonPanel';
import { runSubmissionsOnly } from '../../stats/practiceText';

export type { PanelDeps, RunEvents, RunProgress, PanelLog } from './deps';

export interface PanelsApi extends vscode.Disposable {
  showDashboard(): void;
  /** Replays one case of a submission, optionally side by side with another submission. */
  showReplay(target: ReplayTarget): void;
  showDiagnostics(): void;
}

const consoleLog: PanelLog = { info: (m) => console.info(m), warn: (m) => console.warn(m), error: (m) => console.error(m) };

export function registerPanels(context: vscode.ExtensionContext, deps: PanelDeps): PanelsApi {
  const log = deps.log ?? consoleLog;
  const disposables: vscode.Disposable[] = [];
  let activity: RunActivity | null = null;
  let replayTarget: ReplayTarget | null = null;

  const files = async (): Promise<RunFiles> => {
    const root = deps.workspaceRoot();
    if (!root) return { summaries: [], report: null, envId: null, bestMinEpisodes: 1, problems: [] };
    const f = await readRunFiles(root);
    for (const p of f.problems) log.warn(`panels: ${p}`);
    return f;
  };

  const onAction = (a: Parameters<typeof runPanelAction>[0]): void => {
    runPanelAction(a, deps, (t) => api.showReplay(t)).catch((e: unknown) => {
      const msg = e instanceof Error ? e.message : String(e);
      log.error(`panels: ${a.type} failed: ${msg}`);
      void vscode.window.showErrorMessage(`PolicyForge: ${msg}`);
    });
  };

  const dashboard = new SingletonPanel({
    kind: 'dashboard', title: 'PolicyForge Dashboard', extensionUri: context.extensionUri, log, onAction,
    snapshot: async () => [await dashboardSnapshot()],
  });

  const diagnostics = new SingletonPanel({
    kind: 'diagnostics', title: 'PolicyForge Diagnostics', extensionUri: context.extensionUri, log, onAction,
    snapshot: async () => [await diagnosticsSnapshot()],
  });

  const replay = new SingletonPanel({
    kind: 'replay', title: 'PolicyForge Replay', extensionUri: context.extensionUri, log, onAction,
    snapshot: async () => (replayTarget === null ? [] : [await replayMessage(replayTarget)]),
  });

  const replayMessage = async (t: ReplayTarget): Promise<HostToWebview> => {
    const root = deps.workspaceRoot();
    // Arena runs replay matches: the target's caseIndex is a run-wide game number.
    if (root !== undefined && (await isArenaRun(root))) return arenaReplayMessage(root, t);
    const f = await files();
    const bySub = new Map(f.summaries.map((s) => [s.submission, s]));
    const side = async (n: number): Promise<ReplaySide> => {
      const s = bySub.get(n);
      if (s === undefined || root === undefined) return { submission: n, episode: null, trajectory: null, problem: `Submission #${n} has no feedback on disk.` };
      const episode = s.episodes.find((e) => e.caseIndex === t.caseIndex) ?? null;
      if (episode === null) return { submission: n, episode, trajectory: null, problem: `Submission #${n} did not run case ${t.caseIndex}.` };
      const r = await readTrajectory(root, s, t.caseIndex);
      const skills = s.skills ? { skills: s.skills.map((k) => ({ id: k.id, label: k.label, kind: k.kind })) } : {};
      return 'trajectory' in r ? { submission: n, episode, trajectory: r.trajectory, ...skills } : { submission: n, episode, trajectory: null, problem: r.problem, ...skills };
    };
    const sides = await Promise.all([t.submission, ...(t.compareWith !== undefined && t.compareWith !== t.submission ? [t.compareWith] : [])].map(side));
    const envId = bySub.get(t.submission)?.envId ?? f.envId ?? 'unknown';
    const comparable = f.summaries.filter((s: SubmissionSummary) => s.submission !== t.submission && !s.files.evicted && s.episodes.some((e) => e.caseIndex === t.caseIndex)).map((s) => s.submission);
    const family = familyOf(envId, deps.familyOf);
    return { type: 'replay.load', envId, family, caseIndex: t.caseIndex, sides, comparable, returnScale: returnScale(f.summaries.map((s) => s.stats.mean)), actionNames: actionNamesOf(envId, family) };
  };

  const refreshAll = (): void => {
    for (const p of [dashboard, diagnostics]) {
      if (!p.isOpen) continue;
      void (p === dashboard ? dashboardSnapshot() : diagnosticsSnapshot()).then((m) => p.post(m));
    }
  };
  const dashboardSnapshot = async (): Promise<HostToWebview> => {
    const f = await files();
    const root = deps.workspaceRoot();
    // The agent's record is rewritten after every model call: read at each snapshot, so the spend is current.
    const agent = (root !== undefined ? readAgentRecord(root) : undefined) ?? f.report?.agent ?? null;
    // Practice submissions never compete: the dashboard's curves and best-so-far leave them out.
    const run = runSubmissionsOnly(f.summaries);
    return { type: 'dashboard.snapshot', envId: f.envId, budget: run.at(-1)?.budget ?? f.report?.budget ?? null, submissions: run, report: f.report, activity, bestMinEpisodes: f.bestMinEpisodes, agent };
  };
  const diagnosticsSnapshot = async (): Promise<HostToWebview> => {
    const f = await files();
    // During the run there is no report yet: the diagnostics come from the summaries' edit analyses.
    const run = runSubmissionsOnly(f.summaries);
    return { type: 'diagnostics.snapshot', envId: f.envId, submissions: run, report: f.report, analysis: f.report?.diagnostics ?? liveDiagnostics(run) ?? undefined };
  };

  if (deps.events) {
    disposables.push(
      deps.events.onDidSubmit((summary) => {
        activity = null;
        if (summary.practice === undefined) dashboard.post({ type: 'dashboard.submission', summary });
        dashboard.post({ type: 'dashboard.activity', activity: null });
        // A launched agent's spend moved too: a snapshot carries its record.
        const root = deps.workspaceRoot();
        if (dashboard.isOpen && root !== undefined && readAgentRecord(root) !== undefined) void dashboardSnapshot().then((m) => dashboard.post(m));
        if (diagnostics.isOpen) void diagnosticsSnapshot().then((m) => diagnostics.post(m));
      }),
      deps.events.onDidComplete(() => refreshAll()),
      deps.events.onDidProgress((p: RunProgress) => {
        activity = p.phase === 'submit' && p.done < p.total ? { submission: p.submission, done: p.done, total: p.total } : null;
        dashboard.post({ type: 'dashboard.activity', activity });
      }),
    );
  } else {
    // No event source: watch the runner's files (summary.json is written atomically by rename).
    const root = deps.workspaceRoot();
    if (root) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(root, '{feedback/submit-*/summary.json,.policyforge/report.json}'));
      let timer: NodeJS.Timeout | undefined;
      const changed = (): void => {
        clearTimeout(timer);
        timer = setTimeout(refreshAll, 150);
      };
      disposables.push(watcher, watcher.onDidCreate(changed), watcher.onDidChange(changed), watcher.onDidDelete(changed), { dispose: () => clearTimeout(timer) });
    }
  }

  disposables.push(
    vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPES.dashboard, dashboard.serializer()),
    vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPES.diagnostics, diagnostics.serializer()),
    vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPES.replay, replay.serializer((state) => {
      const s = replayStateSchema.safeParse(state);
      replayTarget = s.success ? s.data.target : null;
    })),
    dashboard, diagnostics, replay,
  );

  const api: PanelsApi = {
    showDashboard: () => dashboard.show(),
    showDiagnostics: () => diagnostics.show(),
    showReplay: (t) => {
      replayTarget = { submission: t.submission, caseIndex: t.caseIndex, compareWith: t.compareWith };
      const wasOpen = replay.isOpen;
      replay.show();
      replay.setTitle(`Replay #${t.submission}${t.compareWith !== undefined ? ` vs #${t.compareWith}` : ''} · case ${t.caseIndex}`);
      // A new panel loads its target on `ready`; an open one is re-targeted in place.
      if (wasOpen) void replayMessage(replayTarget).then((m) => replay.post(m));
    },
    dispose: () => {
      for (const d of disposables) d.dispose();
    },
  };
  context.subscriptions.push(api);
  return api;
}
