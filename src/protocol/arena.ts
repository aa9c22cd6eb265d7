/**
 * The arena contract: runs on a two-sided game (ConnectFour-v0, CaptureTheFlag-v0), where the
 * budget counts games and a submission plays an opponent pool. One declaration, zod-checked,
 * for everything an arena run says over the wire or writes to disk.
 *
 * Consumers: the runner (src/runner/arena: writes and serves all of it), the CLI verbs, MCP
 * tools and LM tools (the `arena.*` methods, summaries, status, report), the VS Code arena panel
 * (summaries, pool, ratings). The match trajectory formats are in arenaMatch.ts.
 *
 * Files of an arena workspace (paths relative to its root):
 * - `feedback/submit-NNNN/summary.json`: ArenaSubmissionSummary; `feedback/latest.json` the newest one
 * - `feedback/submit-NNNN/games/game-NNNNN.jsonl`: one match trajectory per game (arenaMatch.ts)
 * - `feedback/arena/pool.json`: ArenaPoolFile; `feedback/arena/ratings.json`: ArenaRatingsFile
 * - `.policyforge/report.json`: ArenaRunReport, after the finish
 * Every document carries a versioned `format`; readers go through the parse functions below.
 */
import { z } from 'zod';
import { parseJsonWith, type Checked } from './documents';

const num = z.number();
const int = z.number().int();

// --- run parameters --------------------------------------------------------------------------

/** The arena options of a run (run.json's `arena`), frozen at init. */
export const ArenaOptionsSchema = z
  .object({
    /** Screen games against every pool opponent. */
    screenGames: int.positive().max(50).default(3),
    /** Deep-evaluation games, spread over the pool by the weights. */
    deepGames: int.positive().max(500).default(20),
    /** Screen points rate (win 1, draw ½) needed to go on to the deep evaluation. */
    screenPass: num.min(0).max(1).default(0.5),
    /** Promotion when the deep points rate is at least 0.5 + this. */
    promotionMargin: num.min(0).max(0.5).default(0.25),
    /** Largest pool; a promotion into a full pool retires its oldest unpinned opponent. */
    maxPool: int.min(1).max(32).default(8),
    /** Games per opponent in validation (each candidate, fresh seeds, final pool) and in assessment. */
    validationGames: int.positive().max(200).default(6),
    assessmentGames: int.positive().max(500).default(10),
  })
  .strict();
export type ArenaOptionsInput = z.input<typeof ArenaOptionsSchema>;
export type ArenaOptions = z.output<typeof ArenaOptionsSchema>;

/** The budget of a new arena run in games, when init is given none. */
export const DEFAULT_ARENA_BUDGET_GAMES = 400;

// --- pieces ---------------------------------------------------------------------------------

export const arenaOutcomeSchema = z.enum(['W', 'D', 'L']);
export type ArenaOutcome = z.infer<typeof arenaOutcomeSchema>;
export const arenaStageSchema = z.enum(['screen', 'deep', 'validation', 'assessment']);
export type ArenaStage = z.infer<typeof arenaStageSchema>;
export const opponentKindSchema = z.enum(['built-in', 'champion', 'hidden']);
export type OpponentKind = z.infer<typeof opponentKindSchema>;

/** Games used and left, in games. */
export const arenaBudgetSchema = z.looseObject({ total: int, used: int, remaining: int });
export type ArenaBudget = z.infer<typeof arenaBudgetSchema>;

/** Which side failed (threw, timed out, gave an invalid action): that side lost the game. */
export const arenaGameErrorSchema = z.looseObject({
  side: z.enum(['submission', 'opponent']),
  status: z.string(),
  message: z.string(),
});

/** One game of a submission, from the submission's point of view. */
export const arenaGameSchema = z.looseObject({
  /** Run-wide game number (charged and uncharged games share the count). */
  game: int,
  stage: arenaStageSchema,
  opponent: z.string(),
  /** The side the submission played (seat order alternates between games). */
  side: z.string(),
  seed: int,
  outcome: arenaOutcomeSchema,
  score: z.looseObject({ own: num, opponent: num }),
  steps: int,
  error: arenaGameErrorSchema.optional(),
  /** Workspace-relative path of the match trajectory (absent when not kept). */
  trajectory: z.string().optional(),
});
export type ArenaGame = z.infer<typeof arenaGameSchema>;

/** Results against one opponent within one stage. */
export const opponentResultSchema = z.looseObject({
  opponent: z.string(),
  kind: opponentKindSchema,
  W: int,
  D: int,
  L: int,
  games: int,
  /** Win 1, draw ½. */
  points: num,
  /** Failures of either side, "opponent: …" or "submission: …". */
  errors: z.array(z.string()),
});
export type OpponentResult = z.infer<typeof opponentResultSchema>;

export const arenaStageResultSchema = z.looseObject({
  games: int,
  pointsRate: num,
  winRate: num,
  perOpponent: z.array(opponentResultSchema),
});
export type ArenaStageResult = z.infer<typeof arenaStageResultSchema>;

// --- feedback/submit-NNNN/summary.json --------------------------------------------------------

export const ARENA_SUMMARY_FORMAT = 'arena-summary/1';

export const arenaSubmissionSummarySchema = z.looseObject({
  format: z.literal(ARENA_SUMMARY_FORMAT),
  submission: int,
  checkpoint: z.string(),
  envId: z.string(),
  createdAt: z.string(),
  note: z.string().optional(),
  /** The furthest stage reached, and why it stopped there (or was promoted). */
  stage: z.enum(['screen', 'deep']),
  reason: z.string(),
  screen: arenaStageResultSchema.extend({ passMark: num }),
  deep: arenaStageResultSchema.extend({ promotionBar: num }).nullable(),
  /** The champion id this submission joined the pool as, or null. */
  promoted: z.string().nullable(),
  gamesCharged: int,
  budget: arenaBudgetSchema,
  /** Sampling weights after this submission (weakness pressure). */
  weights: z.record(z.string(), num),
  games: z.array(arenaGameSchema),
  /** Type errors the build found (the policy ran anyway unless the submit was strict). */
  typeErrors: int,
});
export type ArenaSubmissionSummary = z.infer<typeof arenaSubmissionSummarySchema>;

// --- feedback/arena/pool.json -----------------------------------------------------------------

export const ARENA_POOL_FORMAT = 'arena-pool/1';

export const poolEntrySchema = z.looseObject({
  id: z.string(),
  kind: z.enum(['built-in', 'champion']),
  pinned: z.boolean(),
  weight: num,
  /** Submissions' points rate against it in charged games; null before any. */
  winRate: num.nullable(),
  games: int,
  joinedAtGame: int,
  /** Champions: the submission and checkpoint they were promoted from. */
  submission: int.optional(),
  checkpoint: z.string().optional(),
});
export type PoolEntryInfo = z.infer<typeof poolEntrySchema>;

export const poolEventSchema = z.looseObject({
  kind: z.enum(['promoted', 'retired', 'dropped', 'pinned', 'unpinned']),
  opponent: z.string(),
  /** Games charged when it happened. */
  atGame: int,
  submission: int.optional(),
});
export type PoolEvent = z.infer<typeof poolEventSchema>;

export const arenaPoolFileSchema = z.looseObject({
  format: z.literal(ARENA_POOL_FORMAT),
  entries: z.array(poolEntrySchema),
  events: z.array(poolEventSchema),
});
export type ArenaPoolFile = z.infer<typeof arenaPoolFileSchema>;

// --- feedback/arena/ratings.json --------------------------------------------------------------

export const ARENA_RATINGS_FORMAT = 'arena-ratings/1';

/** OpenSkill rating; `ordinal` (mu − 3 sigma) is what rankings sort by. */
export const ratingSchema = z.looseObject({ id: z.string(), mu: num, sigma: num, ordinal: num });
export const ratingPointSchema = ratingSchema.extend({ game: int });
export type RatingPoint = z.infer<typeof ratingPointSchema>;

export const arenaRatingsFileSchema = z.looseObject({
  format: z.literal(ARENA_RATINGS_FORMAT),
  /** Current ratings, best first. */
  table: z.array(ratingSchema),
  /** Every update, in game order (a point per player per charged game). */
  history: z.array(ratingPointSchema),
});
export type ArenaRatingsFile = z.infer<typeof arenaRatingsFileSchema>;

// --- .policyforge/report.json ------------------------------------------------------------------

export const ARENA_REPORT_FORMAT = 'arena-report/1';

export const arenaCandidateSchema = z.looseObject({ submission: int, checkpoint: z.string(), pointsRate: num, winRate: num, games: int });

export const arenaRunReportSchema = z.looseObject({
  format: z.literal(ARENA_REPORT_FORMAT),
  runId: z.string(),
  envId: z.string(),
  params: z.record(z.string(), z.union([num, z.boolean(), z.string()])),
  budget: arenaBudgetSchema,
  submissions: int,
  /** Why the run finished: the budget ran out, or a client asked. */
  trigger: z.enum(['budget', 'request']),
  /** Validation: every candidate against the final pool on fresh hidden seeds; the best points rate wins, the later submission on ties. */
  validation: z.looseObject({ gamesPerOpponent: int, candidates: z.array(arenaCandidateSchema) }),
  selected: z.looseObject({ submission: int, checkpoint: z.string() }).nullable(),
  /** The selected submission against opponents never seen during the run, and against the final pool. */
  assessment: z
    .looseObject({
      hidden: arenaStageResultSchema.extend({ opponents: z.array(z.looseObject({ id: z.string(), description: z.string() })) }),
      finalPool: arenaStageResultSchema,
    })
    .nullable(),
  pool: z.array(poolEntrySchema),
  ratings: z.array(ratingSchema),
  completedAt: z.string(),
});
export type ArenaRunReport = z.infer<typeof arenaRunReportSchema>;

export const parseArenaSummary = (text: string): Checked<ArenaSubmissionSummary> => parseJsonWith(arenaSubmissionSummarySchema, text);
export const parseArenaReport = (text: string): Checked<ArenaRunReport> => parseJsonWith(arenaRunReportSchema, text);
export const parseArenaPool = (text: string): Checked<ArenaPoolFile> => parseJsonWith(arenaPoolFileSchema, text);
export const parseArenaRatings = (text: string): Checked<ArenaRatingsFile> => parseJsonWith(arenaRatingsFileSchema, text);

// --- methods ---------------------------------------------------------------------------------

export const ArenaSubmitParamsSchema = z
  .object({
    note: z.string().max(2000).optional().describe('Optional note recorded with the submission.'),
    strict: z.boolean().optional().describe('Refuse the submit, uncharged, when policy/ has type errors.'),
  })
  .strict();

export const ArenaFeedbackParamsSchema = z
  .object({ submission: int.positive().optional().describe('Submission number; the latest when omitted.') })
  .strict();

export const ArenaPinParamsSchema = z
  .object({
    opponent: z.string().min(1).describe('Pool opponent id, e.g. "planner" or "champion-2".'),
    pinned: z.boolean().default(true).describe('false unpins.'),
  })
  .strict();

export const ArenaDropParamsSchema = z.object({ opponent: z.string().min(1).describe('Pool opponent id to remove.') }).strict();

export const ArenaEmptyParamsSchema = z.object({}).strict();

export const arenaPhaseSchema = z.enum(['agent', 'validating', 'assessing', 'complete']);

export const arenaSubmissionBriefSchema = z.looseObject({
  submission: int,
  checkpoint: z.string(),
  stage: z.enum(['screen', 'deep']),
  screenPointsRate: num,
  deepPointsRate: num.nullable(),
  promoted: z.string().nullable(),
  gamesCharged: int,
});

export const ArenaStatusSchema = z.looseObject({
  phase: arenaPhaseSchema,
  envId: z.string(),
  budget: arenaBudgetSchema,
  options: z.looseObject({ screenGames: int, deepGames: int, screenPass: num, promotionMargin: num, maxPool: int }),
  /** The pool with kinds, pins, weights and submissions' win rates; `weights` repeats the weights by id. */
  pool: z.array(poolEntrySchema),
  weights: z.record(z.string(), num),
  events: z.array(poolEventSchema),
  ratings: z.array(ratingSchema),
  history: z.array(arenaSubmissionBriefSchema),
  /** The submission playing now, in games. */
  running: z.looseObject({ submission: int, stage: z.enum(['screen', 'deep']), done: int, total: int }).nullable(),
  /** The finish under way (phase validating or assessing): which stage, against whom, candidates and games done. */
  finishing: z
    .looseObject({
      phase: z.enum(['validation', 'assessment']),
      against: z.enum(['pool', 'hidden']),
      submission: int,
      candidatesDone: int,
      candidatesTotal: int,
      gamesDone: int,
      gamesTotal: int,
    })
    .nullable()
    .optional(),
  recovery: z.array(z.string()),
});
export type ArenaStatus = z.infer<typeof ArenaStatusSchema>;

export const ArenaPoolResultSchema = z.looseObject({ pool: z.array(poolEntrySchema), weights: z.record(z.string(), num) });

/**
 * The arena methods, merged into the run protocol's table (methods.ts). On a single-agent run
 * each answers `wrong_run_kind` (RunErrorCode.wrongRunKind); on an arena run `run.submit`/`run.feedback`/`run.finish`
 * answer the same error naming the arena method to use, while `run.info` and `run.check` work as
 * on any run, and `run.cancel` stops the running `arena.submit` (which then fails with
 * `cancelled`, rolled back, nothing charged).
 */
export const ARENA_METHODS = {
  'arena.submit': { params: ArenaSubmitParamsSchema, result: arenaSubmissionSummarySchema },
  'arena.feedback': { params: ArenaFeedbackParamsSchema, result: arenaSubmissionSummarySchema },
  'arena.status': { params: ArenaEmptyParamsSchema, result: ArenaStatusSchema },
  'arena.pin': { params: ArenaPinParamsSchema, result: ArenaPoolResultSchema },
  'arena.drop': { params: ArenaDropParamsSchema, result: ArenaPoolResultSchema },
  'arena.finish': { params: ArenaEmptyParamsSchema, result: arenaRunReportSchema },
  'arena.report': { params: ArenaEmptyParamsSchema, result: arenaRunReportSchema.nullable() },
} as const;

/** Progress of an arena submit or finish, in games (`arena.progress` notification). */
export const ArenaProgressNotificationSchema = z.object({
  phase: z.enum(['screen', 'deep', 'validation', 'assessment']),
  submission: int.nullable(),
  done: int,
  total: int,
  /** Validation and assessment: whom these games are against (the final pool, or the hidden opponents). */
  against: z.enum(['pool', 'hidden']).optional(),
  /** Validation: candidates whose games are all played, of all candidates. */
  candidates: z.object({ done: int, total: int }).optional(),
});

export const ARENA_NOTIFICATIONS = {
  'arena.progress': ArenaProgressNotificationSchema,
  'arena.submitted': z.object({ summary: arenaSubmissionSummarySchema }),
  'arena.completed': z.object({ report: arenaRunReportSchema }),
} as const;
