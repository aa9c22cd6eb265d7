/**
 * Runtime schemas of the feedback documents (`feedback.ts`, `episodes.ts`): what the runner
 * writes (`feedback/submit-NNNN/summary.json`, `feedback/latest.json`, `.policyforge/report.json`,
 * trajectory files) and returns over the protocol. Every reader of those files or replies goes
 * through these schemas: the runner's method results, the clients, the extension's run model and
 * panels, the run analysis and the webviews.
 *
 * Objects are loose (unknown extra fields pass through) so a reader built against an older
 * protocol keeps working on a newer runner's documents. Each schema is typed with the interface
 * it checks, so the two cannot drift apart silently. The larger ones are built on first use
 * (lazySchema.ts), so a process that reads one kind of document builds only that one.
 */
import { z } from 'zod';
import { agentRecordSchema } from './agent';
import { lazySchema } from './lazySchema';
import type { EpisodeError, EpisodeStatus, SourceLocation, Trajectory, TrajectoryStep } from './episodes';
import type { EpisodeSkills, SkillRate } from './skills';
import { practiceInfoSchema } from './training';
import { attributionSchema } from './attribution';
import type { BudgetState, CandidateResult, CurvePoint, EditSummary, EpisodeSummary, PairedComparison, ReturnStats, RunReport, SubmissionSummary } from './feedback';

const num = z.number();

export const episodeStatusSchema: z.ZodType<EpisodeStatus> = z.enum(['ok', 'exception', 'timeout', 'invalid_action', 'memory', 'runner_fault']);

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

const sourceLocationSchema: z.ZodType<SourceLocation> = lazySchema(() => z.looseObject({ file: z.string(), line: num, column: num }));

const episodeErrorSchema: z.ZodType<EpisodeError> = lazySchema(() => z.looseObject({
  message: z.string(),
  stack: z.string().optional(),
  location: sourceLocationSchema.optional(),
  deadline: z.enum(['episode', 'module', 'constructor', 'reset', 'act']).optional(),
}));

const episodeSkillsSchema: z.ZodType<EpisodeSkills> = lazySchema(() => z.record(z.string(), num.nullable()));

const skillRateSchema: z.ZodType<SkillRate> = lazySchema(() => z.looseObject({
  id: z.string(),
  label: z.string(),
  kind: z.enum(['success', 'fraction', 'steps']),
  mean: num,
  stderr: num,
  count: num,
}));

export const episodeSummarySchema: z.ZodType<EpisodeSummary> = lazySchema(() => z.looseObject({
  caseIndex: num,
  status: episodeStatusSchema,
  return: num,
  length: num,
  terminated: z.boolean(),
  truncated: z.boolean(),
  wallMs: num,
  error: episodeErrorSchema.optional(),
  partialReturn: num.optional(),
  skills: episodeSkillsSchema.optional(),
}));

export const editSummarySchema: z.ZodType<EditSummary> = lazySchema(() => z.looseObject({
  class: z.enum(['initial', 'identical', 'parametric', 'structural']),
  parent: num.nullable(),
  linesAdded: num,
  linesRemoved: num,
  sizeBin: z.enum(['none', 'small', 'medium', 'large']),
  details: z.array(z.string()),
}));

const pairedComparisonSchema: z.ZodType<PairedComparison> = lazySchema(() => z.looseObject({
  against: num,
  shared: num,
  meanDifference: num.nullable(),
  ci95: z.tuple([num, num]).nullable(),
  resubmitCases: z.string().optional(),
}));

/** `feedback/submit-NNNN/summary.json`, `feedback/latest.json`, and the `run.submit` / `run.feedback` results. */
export const submissionSummarySchema: z.ZodType<SubmissionSummary> = lazySchema(() => z.looseObject({
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
  parent: num.nullable().optional(),
  charged: num.optional(),
  note: z.string().optional(),
  paired: z.looseObject({ parent: pairedComparisonSchema.nullable(), bestSoFar: pairedComparisonSchema.nullable() }).optional(),
  failureReturn: num.optional(),
  skills: z.array(skillRateSchema).optional(),
  attribution: attributionSchema.optional(),
  files: z.looseObject({ trajectories: z.array(z.string()), logs: z.array(z.string()), evicted: z.boolean() }),
  practice: practiceInfoSchema.optional(),
}));

const candidateResultSchema: z.ZodType<CandidateResult> = lazySchema(() => z.looseObject({
  submission: num,
  checkpoint: z.string(),
  validationMean: num,
  validationStderr: num,
  trainMean: num,
  validationCount: num.optional(),
  validationOkCount: num.optional(),
}));

const curvePointSchema: z.ZodType<CurvePoint> = lazySchema(() => z.looseObject({ budgetUsed: num, submission: num, value: num }));

/** `.policyforge/report.json`, and the `run.finish` / `run.report` results. */
export const runReportSchema: z.ZodType<RunReport> = lazySchema(() => z.looseObject({
  envId: z.string(),
  completedAt: z.string(),
  budget: budgetStateSchema,
  selectionMode: z.enum(['paper', 'candidates', 'gated']),
  selection: z
    .looseObject({
      rule: z.literal('gated'),
      delta: num.nullable(),
      first: num.nullable(),
      steps: z.array(z.looseObject({ candidate: num, incumbent: num, delta: num, differences: z.tuple([num, num]), accepted: z.boolean() })),
    })
    .optional(),
  elite: z.array(z.looseObject({ submission: num, checkpoint: z.string(), validationMean: num, freshMean: num, freshCases: num })).optional(),
  selected: num.nullable(),
  reason: z.string().optional(),
  candidates: z.array(candidateResultSchema),
  heldOut: returnStatsSchema.nullable(),
  selectedCheckpoint: z.string().optional(),
  failureReturn: num.optional(),
  starterHeldOut: returnStatsSchema.nullable().optional(),
  baselines: z.record(z.string(), z.looseObject({ heldOut: returnStatsSchema.nullable(), error: z.string().optional() })).optional(),
  validationCurve: z.array(curvePointSchema),
  trainCurve: z.array(curvePointSchema),
  diagnostics: z.unknown().optional(),
  agent: agentRecordSchema.optional(),
}));

export const trajectoryStepSchema: z.ZodType<TrajectoryStep> = lazySchema(() => z.looseObject({
  // Absent in a trajectory that stores changes (Trajectory.format): the expansion rebuilds it.
  observation: z.unknown().optional(),
  action: z.unknown(),
  reward: num,
  terminated: z.boolean(),
  truncated: z.boolean(),
  info: z.record(z.string(), z.unknown()).optional(),
  snapshot: z.unknown().optional(),
}));

export const trajectorySchema: z.ZodType<Trajectory> = lazySchema(() => z.looseObject({
  format: z.string().optional(),
  initialSnapshot: z.unknown().optional(),
  steps: z.array(trajectoryStepSchema),
  truncated: z.boolean(),
}));

// --- reading ---------------------------------------------------------------------------------

/** A value that passed its schema, or a one-line reason it did not. */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** A readable one-line reason a value failed validation, naming each bad field (at most `limit`). */
export function describeIssues(error: z.ZodError, root = '(root)', limit = 5): string {
  return error.issues
    .slice(0, limit)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : root}: ${i.message}`)
    .join('; ');
}

export function checkWith<T>(schema: z.ZodType<T>, value: unknown): Checked<T> {
  const r = schema.safeParse(value);
  return r.success ? { ok: true, value: r.data } : { ok: false, error: describeIssues(r.error) };
}

/** JSON text checked against `schema`: the one way a document file is read. */
export function parseJsonWith<T>(schema: z.ZodType<T>, text: string): Checked<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `not JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  return checkWith(schema, value);
}

/** The text of `summary.json` or `latest.json`. */
export const parseSubmissionSummary = (text: string): Checked<SubmissionSummary> => parseJsonWith(submissionSummarySchema, text);

/** The text of `report.json`. */
export const parseRunReport = (text: string): Checked<RunReport> => parseJsonWith(runReportSchema, text);
