/**
 * The run protocol: JSON-RPC 2.0 methods and notifications between the runner and its clients
 * (CLI, MCP server, VS Code extension). Every message has a zod schema here; the runner validates
 * every request with them and the MCP server derives its tool input schemas from the same ones.
 * See docs/DESIGN.md, "Run protocol".
 */
import { z } from 'zod';
import type { BudgetState, RunReport, SubmissionSummary } from './feedback';

/** Bumped on any incompatible change to a method or notification shape. */
export const PROTOCOL_VERSION = 1;
/** Upgrade-request header a client sends with its protocol version; a runner speaking another version refuses it (426). */
export const PROTOCOL_VERSION_HEADER = 'policyforge-protocol';

/** Application error codes (JSON-RPC reserves -32768..-32000 for itself). */
export const RunErrorCode = {
  /** The request does not match its schema (names the bad field). */
  malformedRequest: -32602,
  /** The frame exceeds the server's message size cap. */
  messageTooLarge: -32001,
  /** A case index is outside `0..pool-1`, or a range is unreadable. */
  indexOutOfPool: 1001,
  /** The number of episodes in one submit is below the minimum or above the maximum. */
  episodesOutOfBounds: 1002,
  /** The run's submission limit is reached. */
  submissionLimit: 1003,
  /** The request needs more episodes than the budget has left (or it is 0). */
  budgetExhausted: 1004,
  /** `policy/` does not build into a bundle; diagnostics are in `data`. */
  bundleDoesNotBuild: 1005,
  /** The agent phase is over: the run is validating, assessing or complete. */
  runFinished: 1006,
  /** Too many requests queued behind the running submission. */
  busy: 1007,
  /** No such submission (feedback, restore, candidates). */
  unknownSubmission: 1008,
  /** The submission was cancelled or rolled back before it was charged. */
  cancelled: 1009,
  /** A runner-side fault (disk, sandbox crash); never charged. */
  internal: 1010,
} as const;
export type RunErrorCodeName = keyof typeof RunErrorCode;

export interface RunErrorData {
  /** Stable name of the error, e.g. `budget_exhausted`. */
  reason: string;
  /** Anything specific: the field, the offending index, build diagnostics. */
  [key: string]: unknown;
}

// --- shared pieces -------------------------------------------------------------------------

/** Case list: indices or a range string like "0-7,12". */
export const CaseSelectionSchema = z.union([
  z.array(z.number().int()).min(1, 'cases must list at least one index'),
  z.string().min(1, 'cases must not be empty'),
]);

/** The submit fields (MCP tool schemas use this shape; the refinement below is enforced by the runner). */
export const SubmitParamsObject = z
  .object({
    cases: CaseSelectionSchema.optional().describe('Case indices, e.g. [0,1,2] or "0-7,12". Repeats run (and charge) again.'),
    episodes: z.number().int().positive().optional().describe('Run this many episodes on the next unused case indices.'),
    /** Free text kept in the journal and summary (what the agent tried). */
    note: z.string().max(2000).optional().describe('Optional note recorded with the submission.'),
  })
  .strict();
export const SubmitParamsSchema = SubmitParamsObject.refine((p) => (p.cases === undefined) !== (p.episodes === undefined), { message: 'give exactly one of cases or episodes' });
export type SubmitParams = z.infer<typeof SubmitParamsSchema>;

export const EmptyParamsSchema = z.object({}).strict();

export const FeedbackParamsSchema = z
  .object({
    submission: z.number().int().positive().optional().describe('Submission number; the latest when omitted.'),
  })
  .strict();
export type FeedbackParams = z.infer<typeof FeedbackParamsSchema>;

export const FinishParamsSchema = z
  .object({
    candidates: z.array(z.number().int().positive()).min(1).optional().describe('Ordered submission numbers to validate (candidates mode).'),
  })
  .strict();
export type FinishParams = z.infer<typeof FinishParamsSchema>;

export const RestoreParamsSchema = z
  .object({
    submission: z.number().int().positive().describe('Submission whose checkpoint is copied back into policy/.'),
  })
  .strict();
export type RestoreParams = z.infer<typeof RestoreParamsSchema>;

export const InfoParamsSchema = z
  .object({
    protocolVersion: z.number().int().optional().describe('The client protocol version; a mismatch is reported, not refused.'),
  })
  .strict();

// --- replies -------------------------------------------------------------------------------

export type RunPhase = 'agent' | 'validating' | 'assessing' | 'complete';

export interface RunInfo {
  protocolVersion: number;
  runId: string;
  envId: string;
  params: Record<string, number | boolean | string>;
  budget: number;
  poolSize: number;
  minEpisodesPerSubmit: number;
  maxEpisodesPerSubmit: number;
  maxSubmissions: number;
  validationCases: number;
  heldOutCases: number;
  selectionMode: 'paper' | 'candidates';
  workspace: string;
  runnerVersion: string;
}

export interface SubmissionBrief {
  submission: number;
  checkpoint: string;
  parent: number | null;
  cases: number[];
  mean: number;
  okCount: number;
  count: number;
  budgetUsed: number;
  editClass?: string;
}

export interface RunStatus {
  phase: RunPhase;
  budget: BudgetState;
  submissions: number;
  maxSubmissions: number;
  /** Smallest train index never run yet (what `episodes: n` starts from), or null when all were used. */
  nextUnusedCase: number | null;
  /** The submission running now, if any. */
  running: { submission: number; done: number; total: number } | null;
  best: { submission: number; mean: number } | null;
  history: SubmissionBrief[];
  /** Submission whose checkpoint was last restored into policy/ (the next submission's parent). */
  restoredFrom: number | null;
  /** Non-fatal notes about the last restart (e.g. a rolled-back submit). */
  recovery: string[];
}

export interface RestoreResult {
  submission: number;
  checkpoint: string;
  files: string[];
}

export interface CancelResult {
  cancelled: boolean;
  submission: number | null;
}

// --- notifications -------------------------------------------------------------------------

export interface ProgressNotification {
  phase: 'submit' | 'validation' | 'assessment';
  submission: number | null;
  done: number;
  total: number;
}

export interface SubmittedNotification {
  summary: SubmissionSummary;
}

export interface CompletedNotification {
  report: RunReport;
}

/** Notification emitted when a client's request is rejected, so other clients see it too. */
export interface RejectedNotification {
  code: number;
  reason: string;
  message: string;
}

export interface RunMethods {
  'run.info': { params: z.infer<typeof InfoParamsSchema>; result: RunInfo };
  'run.submit': { params: SubmitParams; result: SubmissionSummary };
  'run.status': { params: Record<string, never>; result: RunStatus };
  'run.feedback': { params: FeedbackParams; result: SubmissionSummary };
  'run.finish': { params: FinishParams; result: RunReport };
  'run.cancel': { params: Record<string, never>; result: CancelResult };
  'run.restore': { params: RestoreParams; result: RestoreResult };
  'run.report': { params: Record<string, never>; result: RunReport | null };
}
export type RunMethod = keyof RunMethods;

export interface RunNotifications {
  'run.progress': ProgressNotification;
  'run.submitted': SubmittedNotification;
  'run.completed': CompletedNotification;
  'run.rejected': RejectedNotification;
}
export type RunNotification = keyof RunNotifications;

export const RUN_PARAM_SCHEMAS: { [M in RunMethod]: z.ZodType } = {
  'run.info': InfoParamsSchema,
  'run.submit': SubmitParamsSchema,
  'run.status': EmptyParamsSchema,
  'run.feedback': FeedbackParamsSchema,
  'run.finish': FinishParamsSchema,
  'run.cancel': EmptyParamsSchema,
  'run.restore': RestoreParamsSchema,
  'run.report': EmptyParamsSchema,
};

/** Formats a zod error as one line naming each bad field. */
export function describeZodError(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'params'}: ${i.message}`).join('; ');
}
