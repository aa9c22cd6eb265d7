/**
 * The run protocol: JSON-RPC 2.0 methods and notifications between the runner and its clients
 * (CLI, MCP server, VS Code extension). Every message has a zod schema here and every type is
 * inferred from one; methods.ts pairs each method with its params and result schema. The runner
 * validates every request with them, the clients every reply and notification, and the MCP
 * server and LM tools derive their tool input schemas from the same ones.
 * See docs/DESIGN.md, "Run protocol".
 */
import { z } from 'zod';
import { budgetStateSchema, describeIssues, runReportSchema, submissionSummarySchema } from './documents';
import { PracticeStatusSchema, TrainingConfigSchema } from './training';

/** Bumped on any incompatible change to a method or notification shape. */
export const PROTOCOL_VERSION = 1;
/** Upgrade-request header a client sends with its protocol version; a runner speaking another version refuses it (426). */
export const PROTOCOL_VERSION_HEADER = 'policyforge-protocol';

/** The line a runner process prints on stdout once it listens: `{"event":"ready","port":N,"pid":P,"workspace":…,"protocolVersion":1}`. */
export const RunnerReadyLineSchema = z.looseObject({
  event: z.literal('ready'),
  port: z.number().int(),
  pid: z.number().int(),
  workspace: z.string(),
  protocolVersion: z.number().int().optional(),
});
export type RunnerReadyLine = z.infer<typeof RunnerReadyLineSchema>;

/** The ready line, or undefined for any other output line. */
export function parseRunnerReadyLine(line: string): RunnerReadyLine | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const r = RunnerReadyLineSchema.safeParse(value);
  return r.success ? r.data : undefined;
}

/** Application error codes (JSON-RPC reserves -32768..-32000 for itself). */
export const RunErrorCode = {
  /** The request does not match its schema (names the bad field). */
  malformedRequest: -32602,
  /** The frame exceeds the server's message size cap. */
  messageTooLarge: -32001,
  /** A case index is outside `0..pool-1` (an unreadable list is `malformedRequest`). */
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
  /** A `strict` submit of a policy with type errors; diagnostics are in `data`. */
  typeErrors: 1011,
  /** An `arena.*` method on a single-agent run, or `run.submit`/`run.feedback`/`run.finish` on an arena run (src/protocol/arena.ts). */
  wrongRunKind: 1020,
  /** `arena.pin`/`arena.drop` refused: no such opponent, a pinned one, or the last one. */
  poolRefused: 1021,
} as const;
export type RunErrorCodeName = keyof typeof RunErrorCode;

/** The `data` of every runner error reply: a stable `reason` (e.g. `budget_exhausted`) plus anything specific (the field, the offending index, build diagnostics). */
export const RunErrorDataSchema = z.looseObject({ reason: z.string() });
export type RunErrorData = z.infer<typeof RunErrorDataSchema>;

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
    /** Without it a policy with type errors still runs (and is charged); clients warn first, from `run.check`. */
    strict: z.boolean().optional().describe('Refuse the submit, uncharged, when policy/ has type errors (by default it runs with a warning).'),
    config: TrainingConfigSchema.optional().describe('A training configuration: makes this a practice submit, charged to the practice budget and never selected.'),
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

/** One problem the build of `policy/` found. `syntax`, `resolve` and `limit` errors block the build; `type` errors do not. */
export const BuildDiagnosticSchema = z.object({
  file: z.string(),
  line: z.number(),
  column: z.number(),
  message: z.string(),
  severity: z.enum(['error', 'warning']),
  kind: z.enum(['syntax', 'resolve', 'type', 'limit']),
});
export type BuildDiagnostic = z.infer<typeof BuildDiagnosticSchema>;

/** `run.check`: what a submit of the current `policy/` would meet at its build, without running or charging anything. */
export const CheckResultSchema = z.object({
  /** False when the submit would be refused as `bundle_does_not_build`. */
  builds: z.boolean(),
  /** Type errors: a plain submit runs anyway (clients warn), a `strict` one is refused. */
  typeErrors: z.number().int(),
  diagnostics: z.array(BuildDiagnosticSchema),
});
export type CheckResult = z.infer<typeof CheckResultSchema>;

/** "policy/policy.ts:4:7 Type 'string' is not assignable…" for the first `limit` type errors, for warnings. */
export function typeErrorLines(check: Pick<CheckResult, 'diagnostics'>, limit = 3): string[] {
  const errors = check.diagnostics.filter((d) => d.kind === 'type' && d.severity === 'error');
  const lines = errors.slice(0, limit).map((d) => `${d.file}:${d.line}:${d.column} ${d.message.split('\n')[0]}`);
  if (errors.length > limit) lines.push(`… ${errors.length - limit} more`);
  return lines;
}

export const runPhaseSchema = z.enum(['agent', 'validating', 'assessing', 'complete']);
export type RunPhase = z.infer<typeof runPhaseSchema>;

export const RunInfoSchema = z.object({
  protocolVersion: z.number().int(),
  runId: z.string(),
  envId: z.string(),
  params: z.record(z.string(), z.union([z.number(), z.boolean(), z.string()])),
  budget: z.number(),
  poolSize: z.number(),
  minEpisodesPerSubmit: z.number(),
  maxEpisodesPerSubmit: z.number(),
  maxSubmissions: z.number(),
  validationCases: z.number(),
  heldOutCases: z.number(),
  selectionMode: z.enum(['paper', 'candidates', 'gated']),
  /** Gated selection's threshold Δ; absent: one standard error of the incumbent. */
  gateDelta: z.number().optional(),
  workspace: z.string(),
  runnerVersion: z.string(),
});
export type RunInfo = z.infer<typeof RunInfoSchema>;

export const SubmissionBriefSchema = z.object({
  submission: z.number(),
  checkpoint: z.string(),
  parent: z.number().nullable(),
  cases: z.array(z.number()),
  mean: z.number(),
  okCount: z.number(),
  count: z.number(),
  budgetUsed: z.number(),
  editClass: z.string().optional(),
});
export type SubmissionBrief = z.infer<typeof SubmissionBriefSchema>;

export const RunStatusSchema = z.object({
  phase: runPhaseSchema,
  budget: budgetStateSchema,
  submissions: z.number(),
  maxSubmissions: z.number(),
  /** Smallest train index never run yet (what `episodes: n` starts from), or null when all were used. */
  nextUnusedCase: z.number().nullable(),
  /** The submission running now, if any. */
  running: z.object({ submission: z.number(), done: z.number(), total: z.number() }).nullable(),
  /** The best train mean among submissions with at least `bestMinEpisodes` episodes (src/stats/bestTrain.ts). */
  best: z.object({ submission: z.number(), mean: z.number() }).nullable(),
  /** Episodes a submission needs before its train mean competes for `best`. */
  bestMinEpisodes: z.number().optional(),
  /** Validation or assessment under way: what is being done now. */
  finishing: z
    .object({
      phase: z.enum(['validation', 'assessment', 'baseline']),
      candidatesDone: z.number(),
      candidatesTotal: z.number(),
      episodesDone: z.number(),
      episodesTotal: z.number(),
      /** Phase `baseline`: which baseline policy (`starter`, `uniform-random`). */
      baseline: z.string().optional(),
    })
    .nullable()
    .optional(),
  history: z.array(SubmissionBriefSchema),
  /** Submission whose checkpoint was last restored into policy/ (the next submission's parent). */
  restoredFrom: z.number().nullable(),
  /** Non-fatal notes about the last restart (e.g. a rolled-back submit). */
  recovery: z.array(z.string()),
  /** Practice submits (`config`): their own budget and submissions, outside `history` and `best`. */
  practice: PracticeStatusSchema.optional(),
});
export type RunStatus = z.infer<typeof RunStatusSchema>;

export const RestoreResultSchema = z.object({
  submission: z.number(),
  checkpoint: z.string(),
  files: z.array(z.string()),
});
export type RestoreResult = z.infer<typeof RestoreResultSchema>;

export const CancelResultSchema = z.object({
  cancelled: z.boolean(),
  submission: z.number().nullable(),
});
export type CancelResult = z.infer<typeof CancelResultSchema>;

// --- notifications -------------------------------------------------------------------------

export const ProgressNotificationSchema = z.object({
  phase: z.enum(['submit', 'validation', 'assessment']),
  submission: z.number().nullable(),
  /** Episodes done and to do in this phase. */
  done: z.number(),
  total: z.number(),
  /** Validation: candidates whose every episode is done, of all candidates (assessment: 0 or 1 of 1). */
  candidates: z.object({ done: z.number(), total: z.number() }).optional(),
  /** An assessment of no submission: which baseline policy runs (`starter`, `uniform-random`; absent from older runners: the starter). */
  baseline: z.string().optional(),
});
export type ProgressNotification = z.infer<typeof ProgressNotificationSchema>;

export const SubmittedNotificationSchema = z.object({ summary: submissionSummarySchema });
export type SubmittedNotification = z.infer<typeof SubmittedNotificationSchema>;

export const CompletedNotificationSchema = z.object({ report: runReportSchema });
export type CompletedNotification = z.infer<typeof CompletedNotificationSchema>;

/** Notification emitted when a client's request is rejected, so other clients see it too. */
export const RejectedNotificationSchema = z.object({
  code: z.number(),
  reason: z.string(),
  message: z.string(),
});
export type RejectedNotification = z.infer<typeof RejectedNotificationSchema>;

/** Formats a zod error as one line naming each bad field. */
export function describeZodError(error: z.ZodError): string {
  return describeIssues(error, 'params', Infinity);
}
