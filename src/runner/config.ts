/**
 * The run configuration: validated once (each bad field named), then frozen into
 * `.policyforge/run.json`. Everything that decides budget, cases and selection lives here.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { describeZodError, PROTOCOL_VERSION } from '../protocol/run';
import { ArenaOptionsSchema, DEFAULT_ARENA_BUDGET_GAMES, type ArenaOptions } from '../protocol/arena';
import { isArenaGame } from '../envs/arena/ids';

const paramValue = z.union([z.number(), z.boolean(), z.string()]);

export const RunConfigInputSchema = z
  .object({
    envId: z.string().min(1, 'envId is required'),
    params: z.record(z.string(), paramValue).default({}),
    budget: z.number().int().positive().max(100_000).default(128),
    /** Episodes practice submits (`config`) may spend, apart from the budget; default = budget. */
    practiceBudget: z.number().int().nonnegative().max(100_000).optional(),
    /** Train pool size; default = budget. */
    poolSize: z.number().int().positive().max(1_000_000).optional(),
    minEpisodesPerSubmit: z.number().int().positive().default(1),
    /** Default = budget. */
    maxEpisodesPerSubmit: z.number().int().positive().optional(),
    maxSubmissions: z.number().int().positive().default(1000),
    validationCases: z.number().int().positive().max(10_000).default(16),
    heldOutCases: z.number().int().positive().max(10_000).default(32),
    /** `gated`: the two-stage acceptance gate on validation halves (src/stats/selectionGate.ts). */
    selectionMode: z.enum(['paper', 'candidates', 'gated']).default('paper'),
    /** Gated selection's Δ; absent: one standard error of the incumbent's validation mean. */
    gateDelta: z.number().nonnegative().optional(),
    /** Elite re-evaluation: the top k candidates run again on `eliteCases` fresh validation cases (default: validationCases) before the choice. */
    eliteK: z.number().int().positive().optional(),
    eliteCases: z.number().int().positive().max(10_000).optional(),
    episodeTimeoutMs: z.number().int().positive().default(30_000),
    actTimeoutMs: z.number().int().positive().default(1_000),
    maxTrajectorySteps: z.number().int().nonnegative().default(2_000),
    maxLogBytes: z.number().int().nonnegative().default(16_384),
    /** Record the environment's snapshot at every trajectory step, so replays draw the true world (MiniGrid beyond the agent's view). */
    recordSnapshots: z.boolean().default(true),
    /** Cap of all feedback bulk files (trajectories); the oldest are evicted first. */
    feedbackMaxBytes: z.number().int().positive().default(256 * 1024 * 1024),
    /** Extra environment plugin modules (absolute paths). */
    plugins: z.array(z.string()).default([]),
    /** Arena runs (two-sided games) only: screen, deep evaluation, promotion; filled with defaults for an arena game. */
    arena: ArenaOptionsSchema.optional(),
  })
  .strict();
export type RunConfigInput = z.input<typeof RunConfigInputSchema>;

export interface RunConfig {
  readonly protocolVersion: number;
  readonly runId: string;
  readonly createdAt: string;
  readonly envId: string;
  readonly params: Readonly<Record<string, number | boolean | string>>;
  readonly budget: number;
  /** Absent in runs made before practice submits: the practice budget is then the budget (`practiceBudgetOf`). */
  readonly practiceBudget?: number;
  readonly poolSize: number;
  readonly minEpisodesPerSubmit: number;
  readonly maxEpisodesPerSubmit: number;
  readonly maxSubmissions: number;
  readonly validationCases: number;
  readonly heldOutCases: number;
  readonly selectionMode: 'paper' | 'candidates' | 'gated';
  readonly gateDelta?: number;
  readonly eliteK?: number;
  readonly eliteCases?: number;
  readonly episodeTimeoutMs: number;
  readonly actTimeoutMs: number;
  readonly maxTrajectorySteps: number;
  readonly maxLogBytes: number;
  readonly recordSnapshots: boolean;
  readonly feedbackMaxBytes: number;
  readonly plugins: readonly string[];
  /** Present exactly when the environment is an arena game; the budget then counts games. */
  readonly arena?: ArenaOptions;
}

export type ConfigResult = { ok: true; config: RunConfig } | { ok: false; error: string };

/** Validates user input and fills defaults; cross-field rules name the fields they relate. */
export function makeRunConfig(input: unknown, now = new Date()): ConfigResult {
  const parsed = RunConfigInputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: `invalid run config: ${describeZodError(parsed.error)}` };
  const c = parsed.data;
  const arena = isArenaGame(c.envId);
  // An arena run's budget counts games, whose default differs from the episode budget's.
  if (arena && (input as { budget?: unknown }).budget === undefined) c.budget = DEFAULT_ARENA_BUDGET_GAMES;
  const poolSize = c.poolSize ?? c.budget;
  const maxEpisodesPerSubmit = c.maxEpisodesPerSubmit ?? c.budget;
  const errors: string[] = [];
  if (c.minEpisodesPerSubmit > maxEpisodesPerSubmit) errors.push(`minEpisodesPerSubmit (${c.minEpisodesPerSubmit}) exceeds maxEpisodesPerSubmit (${maxEpisodesPerSubmit})`);
  if (c.minEpisodesPerSubmit > c.budget) errors.push(`minEpisodesPerSubmit (${c.minEpisodesPerSubmit}) exceeds budget (${c.budget})`);
  if (errors.length) return { ok: false, error: `invalid run config: ${errors.join('; ')}` };
  return {
    ok: true,
    config: Object.freeze({
      protocolVersion: PROTOCOL_VERSION,
      runId: randomUUID(),
      createdAt: now.toISOString(),
      envId: c.envId,
      params: Object.freeze({ ...c.params }),
      budget: c.budget,
      ...(c.practiceBudget !== undefined ? { practiceBudget: c.practiceBudget } : {}),
      poolSize,
      minEpisodesPerSubmit: c.minEpisodesPerSubmit,
      maxEpisodesPerSubmit,
      maxSubmissions: c.maxSubmissions,
      validationCases: c.validationCases,
      heldOutCases: c.heldOutCases,
      selectionMode: c.selectionMode,
      ...(c.gateDelta !== undefined ? { gateDelta: c.gateDelta } : {}),
      ...(c.eliteK !== undefined ? { eliteK: c.eliteK } : {}),
      ...(c.eliteCases !== undefined ? { eliteCases: c.eliteCases } : {}),
      episodeTimeoutMs: c.episodeTimeoutMs,
      actTimeoutMs: c.actTimeoutMs,
      maxTrajectorySteps: c.maxTrajectorySteps,
      maxLogBytes: c.maxLogBytes,
      recordSnapshots: c.recordSnapshots,
      feedbackMaxBytes: c.feedbackMaxBytes,
      plugins: Object.freeze([...c.plugins]),
      ...(arena ? { arena: Object.freeze(ArenaOptionsSchema.parse(c.arena ?? {})) } : {}),
    }),
  };
}

const FrozenSchema = RunConfigInputSchema.extend({
  protocolVersion: z.number().int(),
  runId: z.string().min(1),
  createdAt: z.string(),
  poolSize: z.number().int().positive(),
  maxEpisodesPerSubmit: z.number().int().positive(),
});

/** Reads back a frozen run.json, naming the bad field if it was edited into an invalid state. */
export function parseFrozenConfig(json: unknown): ConfigResult {
  const parsed = FrozenSchema.safeParse(json);
  if (!parsed.success) return { ok: false, error: `.policyforge/run.json is invalid: ${describeZodError(parsed.error)}` };
  const c = parsed.data;
  return { ok: true, config: Object.freeze({ ...c, poolSize: c.poolSize, maxEpisodesPerSubmit: c.maxEpisodesPerSubmit, params: Object.freeze({ ...c.params }), plugins: Object.freeze([...c.plugins]) }) };
}
