/**
 * Practice submits: a submit with a training configuration runs the policy on practice cases of
 * the environment changed as the configuration says, charged to the practice budget. Practice
 * submissions live beside the run's submissions, never in them (runState.ts), so selection, the
 * best train mean and paired statistics never see one; validation and assessment always use the
 * run's own parameters. Practice cases take their seeds from the `practice` label (secret.ts).
 */
import type { EnvRegistry } from '../envs/core/registry';
import { describeTraining } from '../envs/core/training';
import { checkTrainingParams } from '../envs/core/trainingCheck';
import type { BudgetState } from '../protocol/feedback';
import type { PracticeStatus, TrainingConfig } from '../protocol/training';
import type { PolicyBundle } from '../sandbox/types';
import { batchRequest, type BatchBase } from './batches';
import type { RunConfig } from './config';
import type { PracticeParams } from './journal';
import { RunError } from './runError';
import type { RunState } from './runState';
import type { SeedDeriver } from './secret';

export interface PracticeAdmission {
  /** The overrides, as given (journaled and shown). */
  params: PracticeParams;
  /** The run's parameters with the overrides applied: what practice episodes make the environment with. */
  merged: PracticeParams;
  skill?: string;
  reason?: string;
}

/** The practice budget: the run's own when it set one, else the size of the main budget. */
export function practiceBudgetOf(config: RunConfig): number {
  return config.practiceBudget ?? config.budget;
}

export function practiceBudgetState(config: RunConfig, state: RunState, charging = 0): BudgetState {
  const total = practiceBudgetOf(config);
  const used = state.practiceUsed + charging;
  return { total, used, remaining: total - used };
}

/** Checks a configuration against the environment's training schema; a refusal names the parameter and its bounds, and costs nothing. */
export function admitPracticeConfig(config: TrainingConfig, run: RunConfig, registry: EnvRegistry): PracticeAdmission {
  const def = registry.get(run.envId);
  if (config.env !== undefined && config.env !== run.envId) {
    throw new RunError('malformedRequest', `the training configuration is for ${config.env}, but this run's environment is ${run.envId}`, { field: 'config.env' });
  }
  if (!def.training || Object.keys(def.training).length === 0) {
    throw new RunError('malformedRequest', `${run.envId} declares no training configuration parameters, so it has no practice submits`, { field: 'config' });
  }
  const runParams = registry.make(run.envId, run.params).params;
  const checked = checkTrainingParams(def, runParams, config.params);
  if (!checked.ok) throw new RunError('malformedRequest', `training configuration refused (nothing was charged): ${checked.message}`, { field: `config.params.${checked.param}`, param: checked.param, allowed: describeTraining(def) });
  // Cross-parameter rules (MultiRoom's room counts, MountainCar's range) are the environment's own: making it checks them.
  try {
    registry.make(run.envId, checked.params);
  } catch (e) {
    throw new RunError('malformedRequest', `training configuration refused (nothing was charged): ${e instanceof Error ? e.message : String(e)}`, { field: 'config.params' });
  }
  return {
    params: { ...config.params },
    merged: { ...checked.params },
    ...(config.skill !== undefined ? { skill: config.skill } : {}),
    ...(config.reason !== undefined ? { reason: config.reason } : {}),
  };
}

/** A practice batch: train-like limits (trajectories and logs are kept), practice seeds, the configured parameters. */
export function practiceBatch(config: RunConfig, seeds: SeedDeriver, bundle: PolicyBundle, cases: readonly number[], practice: PracticeAdmission): BatchBase {
  return { ...batchRequest(config, seeds, bundle, 'train', cases), params: practice.merged, episodes: cases.map((i) => seeds.episode('practice', i)) };
}

/** `run.status.practice`. */
export function practiceStatus(config: RunConfig, state: RunState): PracticeStatus {
  return {
    budget: practiceBudgetState(config, state),
    submissions: [...state.practice.values()].sort((a, b) => a.submission - b.submission).map((p) => ({ submission: p.submission, mean: p.mean, count: p.count, params: p.params })),
  };
}
