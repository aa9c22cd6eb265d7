/**
 * Practice submits (EnvGen's training configurations) on the wire: the configuration a client
 * sends with `run.submit` (`config`, usually read from a JSON file), and what a practice
 * submission's summary carries. Which parameters a configuration may set, and their bounds, is
 * the environment's declaration (src/envs/core/training.ts); the runner checks it.
 */
import { z } from 'zod';
import type { BudgetState } from './feedback';

const paramValue = z.union([z.number(), z.boolean(), z.string()]);

/** A training configuration: parameter overrides for practice episodes (also the `--config FILE` format). */
export const TrainingConfigSchema = z
  .object({
    /** The environment it was written for; when given it must be the run's. */
    env: z.string().optional(),
    params: z.record(z.string(), paramValue).describe('Parameter overrides, each one the environment declares for training, within its bounds.'),
    /** The skill it practises (the proposer writes it). */
    skill: z.string().optional(),
    /** Why this configuration (the proposer's one sentence). */
    reason: z.string().max(2000).optional(),
  })
  .strict();
export type TrainingConfig = z.infer<typeof TrainingConfigSchema>;

/** `summary.practice`: present only on practice submissions, which never count toward selection. */
export interface PracticeInfo {
  /** The overrides the episodes ran with (the rest of the parameters are the run's). */
  params: Record<string, number | boolean | string>;
  /** The practice budget after this submission; `summary.budget` stays the main budget. */
  budget: BudgetState;
  skill?: string;
  reason?: string;
}

export const practiceInfoSchema = z.looseObject({
  params: z.record(z.string(), paramValue),
  budget: z.looseObject({ total: z.number(), used: z.number(), remaining: z.number() }),
  skill: z.string().optional(),
  reason: z.string().optional(),
});

/** `run.status.practice`: the practice budget and the practice submissions so far. */
export const PracticeStatusSchema = z.object({
  budget: z.object({ total: z.number(), used: z.number(), remaining: z.number() }),
  submissions: z.array(z.object({ submission: z.number(), mean: z.number(), count: z.number(), params: z.record(z.string(), paramValue) })),
});
export type PracticeStatus = z.infer<typeof PracticeStatusSchema>;
