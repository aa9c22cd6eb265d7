/** What the run's jobs (admission, submission, recovery, finish, report) share: the run's stores, its live state and its journal. */
import type { EnvRegistry } from '../envs/core/registry';
import type { RunDiagnostics } from '../protocol/analysis';
import type { SubmissionSummary } from '../protocol/feedback';
import type { CheckpointStore } from './checkpoints';
import type { RunConfig } from './config';
import type { EpisodeExecutor } from './executor';
import type { FeedbackStore } from './feedbackStore';
import type { JournalEvent } from './journal';
import type { WorkspacePaths } from './paths';
import type { RunState } from './runState';
import type { SelectionRule } from './selection';
import type { SeedDeriver } from './secret';

export interface RunContext {
  readonly config: RunConfig;
  readonly paths: WorkspacePaths;
  /** The fold of the journal, updated by `record`. */
  readonly state: RunState;
  readonly executor: EpisodeExecutor;
  readonly registry: EnvRegistry;
  readonly checkpoints: CheckpointStore;
  readonly feedback: FeedbackStore;
  readonly seeds: SeedDeriver;
  /** Journals `event` (durably) and applies it to `state`. */
  record(event: JournalEvent): void;
  log(message: string): void;
}

/** Edit analysis between a submission's checkpoint and its parent's; optional. */
export type AnalyzeEdit = (parentCheckpointDir: string | null, childCheckpointDir: string, parent: number | null) => Promise<SubmissionSummary['edit'] | undefined>;

/** Run diagnostics for the report; optional. */
export type Diagnose = (workspace: string) => Promise<RunDiagnostics>;

export interface RunOptions {
  executor: EpisodeExecutor;
  registry: EnvRegistry;
  /** Edit analysis for each summary's `edit`; failures are logged and the feedback goes on without it. */
  analyzeEdit?: AnalyzeEdit;
  /** Run diagnostics for the report; failures are logged and the report goes on without them. */
  diagnostics?: Diagnose;
  /** The selection rule of the finish (default: the protocol's, src/runner/selection.ts). */
  select?: SelectionRule;
  /** Assess the environment's starter policy on the held-out cases too (the baseline). Default true. */
  assessStarter?: boolean;
  log?: (message: string) => void;
  runnerVersion?: string;
}
