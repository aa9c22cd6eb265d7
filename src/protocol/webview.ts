/**
 * Messages between the extension host and the webview panels (dashboard, replay, diagnostics),
 * declared once with zod schemas so both sides validate what they receive at runtime: a webview
 * is reloaded, restored from stale state or fed by a different extension version, so nothing it
 * gets is trusted by type alone. The document schemas mirror `feedback.ts` / `episodes.ts` and are
 * loose (unknown extra fields pass through) so a newer runner does not break an older panel.
 *
 * The browser bundles may import only types from src/protocol (docs/DESIGN.md), so they get these
 * schemas as JSON Schema (`webviewJsonSchemas()`, committed as webview-ui/shared/protocolSchemas.json
 * and checked to be current by test/unit/webview/schemas.test.ts) and rebuild them with
 * z.fromJSONSchema: still declared once, here.
 */
import { z } from 'zod';
import type { EpisodeStatus, Trajectory, TrajectoryStep } from './episodes';
import type {
  BudgetState,
  CandidateResult,
  CurvePoint,
  EditSummary,
  EpisodeSummary,
  ReturnStats,
  RunReport,
  SubmissionSummary,
} from './feedback';

export const PANEL_KINDS = ['dashboard', 'replay', 'diagnostics'] as const;
export type PanelKind = (typeof PANEL_KINDS)[number];

/** View types registered with VS Code (serializers are keyed by them). */
export const PANEL_VIEW_TYPES: Readonly<Record<PanelKind, string>> = {
  dashboard: 'policyforge.dashboard',
  replay: 'policyforge.replay',
  diagnostics: 'policyforge.diagnostics',
};

// ---------------------------------------------------------------------------------------------
// Documents (mirrors of feedback.ts / episodes.ts)

const num = z.number();
const episodeStatusSchema: z.ZodType<EpisodeStatus> = z.enum(['ok', 'exception', 'timeout', 'invalid_action', 'memory', 'runner_fault']);

export const budgetStateSchema: z.ZodType<BudgetState> = z.looseObject({ total: num, used: num, remaining: num });

export const returnStatsSchema: z.ZodType<ReturnStats> = z.looseObject({
  mean: num,
  std: num,
  stderr: num,
  min: num,
  max: num,
  okCount: num,
  count: num,
});

const sourceLocationSchema = z.looseObject({ file: z.string(), line: num, column: num });
const episodeErrorSchema = z.looseObject({
  message: z.string(),
  stack: z.string().optional(),
  location: sourceLocationSchema.optional(),
  deadline: z.enum(['episode', 'act', 'constructor']).optional(),
});

export const episodeSummarySchema: z.ZodType<EpisodeSummary> = z.looseObject({
  caseIndex: num,
  status: episodeStatusSchema,
  return: num,
  length: num,
  terminated: z.boolean(),
  truncated: z.boolean(),
  wallMs: num,
  error: episodeErrorSchema.optional(),
});

export const editSummarySchema: z.ZodType<EditSummary> = z.looseObject({
  class: z.enum(['initial', 'identical', 'parametric', 'structural']),
  parent: num.nullable(),
  linesAdded: num,
  linesRemoved: num,
  sizeBin: z.enum(['none', 'small', 'medium', 'large']),
  details: z.array(z.string()),
});

export const submissionSummarySchema: z.ZodType<SubmissionSummary> = z.looseObject({
  submission: num,
  checkpoint: z.string(),
  createdAt: z.string(),
  envId: z.string(),
  cases: z.array(num),
  episodes: z.array(episodeSummarySchema),
  stats: returnStatsSchema,
  statusCounts: z.partialRecord(episodeStatusSchema, num),
  wallMs: num,
  budget: budgetStateSchema,
  edit: editSummarySchema.optional(),
  files: z.looseObject({ trajectories: z.array(z.string()), logs: z.array(z.string()), evicted: z.boolean() }),
});

const candidateResultSchema: z.ZodType<CandidateResult> = z.looseObject({
  submission: num,
  checkpoint: z.string(),
  validationMean: num,
  validationStderr: num,
  trainMean: num,
});
const curvePointSchema: z.ZodType<CurvePoint> = z.looseObject({ budgetUsed: num, submission: num, value: num });

export const runReportSchema: z.ZodType<RunReport> = z.looseObject({
  envId: z.string(),
  completedAt: z.string(),
  budget: budgetStateSchema,
  selectionMode: z.enum(['paper', 'candidates']),
  selected: num.nullable(),
  reason: z.string().optional(),
  candidates: z.array(candidateResultSchema),
  heldOut: returnStatsSchema.nullable(),
  validationCurve: z.array(curvePointSchema),
  trainCurve: z.array(curvePointSchema),
  diagnostics: z.unknown().optional(),
});

export const trajectoryStepSchema: z.ZodType<TrajectoryStep> = z.looseObject({
  observation: z.unknown(),
  action: z.unknown(),
  reward: num,
  terminated: z.boolean(),
  truncated: z.boolean(),
  info: z.record(z.string(), z.unknown()).optional(),
  snapshot: z.unknown().optional(),
});

export const trajectorySchema: z.ZodType<Trajectory> = z.looseObject({
  initialSnapshot: z.unknown().optional(),
  steps: z.array(trajectoryStepSchema),
  truncated: z.boolean(),
});

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

export const hostErrorSchema = z.object({ type: z.literal('host.error'), message: z.string() });

export const hostToWebviewSchema = z.discriminatedUnion('type', [
  dashboardSnapshotSchema,
  dashboardSubmissionSchema,
  dashboardActivitySchema,
  replayLoadSchema,
  diagnosticsSnapshotSchema,
  hostErrorSchema,
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

export const webviewToHostSchema = z.discriminatedUnion('type', [
  readySchema,
  openFeedbackSchema,
  openDiffSchema,
  openSourceSchema,
  openReplaySchema,
  exportFileSchema,
  logSchema,
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

export const panelStateSchema = z.discriminatedUnion('panel', [dashboardStateSchema, replayStateSchema, diagnosticsStateSchema]);
export type PanelState = z.infer<typeof panelStateSchema>;

/** Each host → webview message by type, so a receiver validates against exactly one schema. */
export const HOST_MESSAGE_SCHEMAS = {
  'dashboard.snapshot': dashboardSnapshotSchema,
  'dashboard.submission': dashboardSubmissionSchema,
  'dashboard.activity': dashboardActivitySchema,
  'replay.load': replayLoadSchema,
  'diagnostics.snapshot': diagnosticsSnapshotSchema,
  'host.error': hostErrorSchema,
} as const satisfies Record<HostToWebview['type'], z.ZodType>;

export const WEBVIEW_MESSAGE_SCHEMAS = {
  ready: readySchema,
  openFeedback: openFeedbackSchema,
  openDiff: openDiffSchema,
  openSource: openSourceSchema,
  openReplay: openReplaySchema,
  export: exportFileSchema,
  log: logSchema,
} as const satisfies Record<WebviewToHost['type'], z.ZodType>;

export interface WebviewJsonSchemas {
  host: Record<HostToWebview['type'], unknown>;
  webview: Record<WebviewToHost['type'], unknown>;
  state: unknown;
}

/** The message and state schemas as JSON Schema, for the browser bundles. */
export function webviewJsonSchemas(): WebviewJsonSchemas {
  const json = (s: z.ZodType): unknown => z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' });
  const map = <K extends string>(o: Record<K, z.ZodType>): Record<K, unknown> => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, json(v as z.ZodType)])) as Record<K, unknown>;
  return { host: map(HOST_MESSAGE_SCHEMAS), webview: map(WEBVIEW_MESSAGE_SCHEMAS), state: json(panelStateSchema) };
}

/** A readable one-line reason a message failed validation (for the log, not for the user). */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}
