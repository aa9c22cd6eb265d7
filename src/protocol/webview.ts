/**
 * Messages between the extension host and the webview panels (dashboard, replay, diagnostics),
 * declared once with zod schemas so both sides validate what they receive at runtime: a webview
 * is reloaded, restored from stale state or fed by a different extension version, so nothing it
 * gets is trusted by type alone. The documents inside messages use the same loose schemas as every
 * other reader (documents.ts), so a newer runner does not break an older panel. The webview bundles
 * import these schemas directly (webview-ui/shared/hostBridge.ts); like all of src/protocol this
 * module is plain data and zod, with no Node or `vscode` import.
 */
import { z } from 'zod';
import { budgetStateSchema, checkWith, episodeSummarySchema, runReportSchema, submissionSummarySchema, trajectorySchema, type Checked } from './documents';
import { arenaPoolFileSchema, arenaRatingsFileSchema, arenaRunReportSchema, arenaStageSchema, arenaSubmissionSummarySchema } from './arena';
import { leaderboardSchema } from './leaderboard';
import { agentRecordSchema } from './agent';

export type { Checked } from './documents';

export const PANEL_KINDS = ['dashboard', 'replay', 'diagnostics', 'leaderboard', 'arena'] as const;
export type PanelKind = (typeof PANEL_KINDS)[number];

/** View types registered with VS Code (serializers are keyed by them). */
export const PANEL_VIEW_TYPES: Readonly<Record<PanelKind, string>> = {
  dashboard: 'policyforge.dashboard',
  replay: 'policyforge.replay',
  diagnostics: 'policyforge.diagnostics',
  leaderboard: 'policyforge.leaderboard',
  arena: 'policyforge.arena',
};

const num = z.number();

// ---------------------------------------------------------------------------------------------
// Host → webview

/** What the runner is doing right now, when the host knows (live progress while episodes run). */
export const runActivitySchema = z.object({
  submission: num.nullable(),
  done: num,
  total: num,
});
export type RunActivity = z.infer<typeof runActivitySchema>;

/** The whole dashboard state; sent after every `ready` and whenever the run changes. */
export const dashboardSnapshotSchema = z.object({
  type: z.literal('dashboard.snapshot'),
  envId: z.string().nullable(),
  budget: budgetStateSchema.nullable(),
  submissions: z.array(submissionSummarySchema),
  report: runReportSchema.nullable(),
  activity: runActivitySchema.nullable(),
  /** Episodes a submission needs before its train mean competes for "best" (what `run.status` states). */
  bestMinEpisodes: num.optional(),
  /** The agent PolicyForge launched on the run (`.policyforge/agent/agent.json`): its spend so far and its caps. */
  agent: agentRecordSchema.nullable().optional(),
});
export type DashboardSnapshot = z.infer<typeof dashboardSnapshotSchema>;

/** One submission added or replaced (live updates without resending the whole run). */
export const dashboardSubmissionSchema = z.object({ type: z.literal('dashboard.submission'), summary: submissionSummarySchema });
export const dashboardActivitySchema = z.object({ type: z.literal('dashboard.activity'), activity: runActivitySchema.nullable() });

export const replaySideSchema = z.object({
  submission: num,
  /** The episode's summary line, when the submission ran this case. */
  episode: episodeSummarySchema.nullable(),
  trajectory: trajectorySchema.nullable(),
  /** Why there is no trajectory (evicted, case not run, unreadable file), for the user. */
  problem: z.string().optional(),
  /** The skills the submission's summary rates (labels and kinds), for the episode's skill outcomes. */
  skills: z.array(z.object({ id: z.string(), label: z.string(), kind: z.enum(['success', 'fraction', 'steps']) })).optional(),
});
export type ReplaySide = z.infer<typeof replaySideSchema>;

export const replayLoadSchema = z.object({
  type: z.literal('replay.load'),
  envId: z.string(),
  /** EnvDefinition.family; selects the scene renderer. */
  family: z.string(),
  caseIndex: num,
  /** One side, or two for a matched comparison of the same case under two submissions. */
  sides: z.array(replaySideSchema).min(1).max(2),
  /** Other submissions that ran this case with a trajectory on disk (candidates for a comparison). */
  comparable: z.array(num).optional(),
  /** The run's return scale (src/stats/scoreFormat.ts), so returns print as in every other view. */
  returnScale: z.number().optional(),
  /** Names of a discrete action space, by action index (MiniGrid: `left`, `right`, `forward`, …). */
  actionNames: z.array(z.string()).optional(),
  /** Arena runs: the sides are matches (caseIndex is the first side's game number) against one opponent on one seed. */
  match: z.object({
    opponent: z.string(),
    seed: num,
    stage: arenaStageSchema,
    /** Per side, in `sides` order: the game number, the seat the submission played, its outcome. */
    games: z.array(z.object({ game: num, side: z.string(), outcome: z.string() })),
  }).optional(),
});
export type ReplayLoad = z.infer<typeof replayLoadSchema>;

export const diagnosticsSnapshotSchema = z.object({
  type: z.literal('diagnostics.snapshot'),
  envId: z.string().nullable(),
  submissions: z.array(submissionSummarySchema),
  report: runReportSchema.nullable(),
  /** Analysis output (src/protocol/analysis.ts) when available; read defensively. */
  analysis: z.unknown().optional(),
});
export type DiagnosticsSnapshot = z.infer<typeof diagnosticsSnapshotSchema>;

/** The arena panel's whole state (arena runs): summaries, pool, ratings, and the report once the run is over. */
export const arenaSnapshotSchema = z.object({
  type: z.literal('arena.snapshot'),
  envId: z.string().nullable(),
  submissions: z.array(arenaSubmissionSummarySchema),
  pool: arenaPoolFileSchema.nullable(),
  ratings: arenaRatingsFileSchema.nullable(),
  report: arenaRunReportSchema.nullable(),
  /** Files that exist but could not be read, for the user. */
  problems: z.array(z.string()),
});
export type ArenaSnapshot = z.infer<typeof arenaSnapshotSchema>;

export const hostErrorSchema = z.object({ type: z.literal('host.error'), message: z.string() });

/** Where a leaderboard's rows came from: a suite folder, a results CSV or a run workspace. */
export const leaderboardSourceSchema = z.object({ path: z.string(), kind: z.enum(['suite', 'csv', 'run', 'report']), rows: num });
export type LeaderboardSource = z.infer<typeof leaderboardSourceSchema>;

/** The Leaderboard panel's whole state, computed by src/leaderboard on the host (the CLI's figures). */
export const leaderboardSnapshotSchema = z.object({
  type: z.literal('leaderboard.snapshot'),
  sources: z.array(leaderboardSourceSchema),
  board: leaderboardSchema.nullable(),
  /** Sources that could not be read, and why (the others still count). */
  problems: z.array(z.string()),
});
export type LeaderboardSnapshot = z.infer<typeof leaderboardSnapshotSchema>;

export const hostToWebviewSchema = z.discriminatedUnion('type', [
  dashboardSnapshotSchema,
  dashboardSubmissionSchema,
  dashboardActivitySchema,
  replayLoadSchema,
  diagnosticsSnapshotSchema,
  hostErrorSchema,
  leaderboardSnapshotSchema,
  arenaSnapshotSchema,
]);
export type HostToWebview = z.infer<typeof hostToWebviewSchema>;

// ---------------------------------------------------------------------------------------------
// Webview → host

export const readySchema = z.object({ type: z.literal('ready'), panel: z.enum(PANEL_KINDS) });
export const openFeedbackSchema = z.object({ type: z.literal('openFeedback'), submission: z.number().int().min(0) });
export const openDiffSchema = z.object({ type: z.literal('openDiff'), submission: z.number().int().min(0) });
export const openSourceSchema = z.object({
  type: z.literal('openSource'),
  file: z.string().min(1),
  line: z.number().int().min(1),
  column: z.number().int().min(0).optional(),
});
export const openReplaySchema = z.object({
  type: z.literal('openReplay'),
  submission: z.number().int().min(0),
  caseIndex: z.number().int().min(0),
  compareWith: z.number().int().min(0).optional(),
});
export const exportFileSchema = z.object({
  type: z.literal('export'),
  format: z.enum(['png', 'csv', 'json']),
  /** Suggested file name, e.g. `submissions.csv`. */
  filename: z.string().min(1),
  /** Text for csv/json; base64 (no data: prefix) for png. */
  content: z.string(),
  encoding: z.enum(['utf8', 'base64']),
});
export const logSchema = z.object({ type: z.literal('log'), level: z.enum(['error', 'warn', 'info']), message: z.string() });
/** Asks the host to pick leaderboard sources (a folder or file dialog), replacing or adding to the current ones. */
export const leaderboardPickSchema = z.object({ type: z.literal('leaderboard.pick'), source: z.enum(['suite', 'csv', 'runs']), add: z.boolean().optional() });
/** Asks the host to save the leaderboard as the CLI writes it (`--json` or `--format csv`). */
export const leaderboardExportSchema = z.object({ type: z.literal('leaderboard.export'), format: z.enum(['json', 'csv']) });
export const leaderboardReloadSchema = z.object({ type: z.literal('leaderboard.reload') });
/** Arena panel: pin (or unpin) a pool opponent, or drop it; the host turns these into runner calls. */
export const arenaPinSchema = z.object({ type: z.literal('arena.pin'), opponent: z.string().min(1), pinned: z.boolean() });
export const arenaDropSchema = z.object({ type: z.literal('arena.drop'), opponent: z.string().min(1) });

export const webviewToHostSchema = z.discriminatedUnion('type', [
  readySchema,
  openFeedbackSchema,
  openDiffSchema,
  openSourceSchema,
  openReplaySchema,
  exportFileSchema,
  logSchema,
  leaderboardPickSchema,
  leaderboardExportSchema,
  leaderboardReloadSchema,
  arenaPinSchema,
  arenaDropSchema,
]);
export type WebviewToHost = z.infer<typeof webviewToHostSchema>;

// ---------------------------------------------------------------------------------------------
// Persisted webview state (vscode.getState/setState; handed to the WebviewPanelSerializer)

export const replayTargetSchema = z.object({
  submission: z.number().int().min(0),
  caseIndex: z.number().int().min(0),
  compareWith: z.number().int().min(0).optional(),
});
export type ReplayTarget = z.infer<typeof replayTargetSchema>;

export const dashboardStateSchema = z.object({
  panel: z.literal('dashboard'),
  sortKey: z.string(),
  sortDir: z.enum(['asc', 'desc']),
});
export type DashboardState = z.infer<typeof dashboardStateSchema>;

export const replayStateSchema = z.object({
  panel: z.literal('replay'),
  target: replayTargetSchema.nullable(),
  step: z.number().int().min(0),
  speed: z.number().positive(),
});
export type ReplayState = z.infer<typeof replayStateSchema>;

export const diagnosticsStateSchema = z.object({ panel: z.literal('diagnostics') });
export type DiagnosticsState = z.infer<typeof diagnosticsStateSchema>;

/** The Leaderboard panel remembers its sources, so a reloaded window shows the same board. */
export const leaderboardStateSchema = z.object({ panel: z.literal('leaderboard'), sources: z.array(z.string()) });
export type LeaderboardState = z.infer<typeof leaderboardStateSchema>;

export const arenaStateSchema = z.object({
  panel: z.literal('arena'),
  sortKey: z.string(),
  sortDir: z.enum(['asc', 'desc']),
  /** Ratings chart: conservative rating (mu − 3 sigma), or mu with a ±sigma band. */
  ratingView: z.enum(['ordinal', 'mu']),
});
export type ArenaState = z.infer<typeof arenaStateSchema>;

export const panelStateSchema = z.discriminatedUnion('panel', [dashboardStateSchema, replayStateSchema, diagnosticsStateSchema, leaderboardStateSchema, arenaStateSchema]);
export type PanelState = z.infer<typeof panelStateSchema>;

// ---------------------------------------------------------------------------------------------
// Checking, the same on both ends

const HOST_MESSAGE_TYPES: ReadonlySet<string> = new Set(hostToWebviewSchema.options.map((o) => o.shape.type.value));
const WEBVIEW_MESSAGE_TYPES: ReadonlySet<string> = new Set(webviewToHostSchema.options.map((o) => o.shape.type.value));

function checkMessage<T>(union: z.ZodType<T>, types: ReadonlySet<string>, data: unknown): Checked<T> {
  const type = typeof data === 'object' && data !== null && 'type' in data ? data.type : undefined;
  if (typeof type !== 'string') return { ok: false, error: '(root): expected an object with a string "type"' };
  if (!types.has(type)) return { ok: false, error: `type: unknown message type "${type}"` };
  return checkWith(union, data);
}

/** A message the host sent, as the webview receives it. */
export const checkHostMessage = (data: unknown): Checked<HostToWebview> => checkMessage(hostToWebviewSchema, HOST_MESSAGE_TYPES, data);
/** A message a webview sent, as the host receives it (and as the webview checks it before sending). */
export const checkWebviewMessage = (data: unknown): Checked<WebviewToHost> => checkMessage(webviewToHostSchema, WEBVIEW_MESSAGE_TYPES, data);
/** State a webview saved with setState, as it comes back after a reload or restore. */
export const checkPanelState = (data: unknown): Checked<PanelState> => checkWith(panelStateSchema, data);
