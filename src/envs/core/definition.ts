/**
 * What an environment plugin declares for each environment it adds. The registry turns a
 * definition into a running environment; everything else (CLI, runner, AGENTS.md, generated
 * types, replay renderers) reads the definition.
 */
import type { Env } from './env';
import type { FailureReturn } from './failureReturn';
import type { ParamSpecs, ParamValues } from './params';
import type { TrainingSchema } from './training';

export interface EnvDefinition {
  /** Gymnasium-style id, e.g. `CartPole-v1`. */
  readonly id: string;
  /** Family name shared by related environments; selects the replay renderer (`classic/cartpole`, `minigrid`, …). */
  readonly family: string;
  /** One or two sentences for listings and AGENTS.md. */
  readonly description: string;
  readonly params: ParamSpecs;
  /** TimeLimit truncation, or null when the environment truncates itself (MiniGrid). */
  readonly maxEpisodeSteps: number | null;
  readonly rewardRange: readonly [number, number];
  /** The score is a cost: leaderboards rank a lower held-out mean first. Absent means higher is better. */
  readonly lowerIsBetter?: boolean;
  /**
   * What a failed episode (exception, timeout, invalid action, memory) scores: the worst return
   * an episode can get within its time limit, or, where the task has no lower bound, a finite
   * bound documented beside the number (`failureReturn.ts`). A function when it depends on the
   * parameters (a step limit, say).
   */
  readonly failureReturn: FailureReturn;
  /** Build the bare environment (without the episode-limit wrapper). */
  create(params: ParamValues): Env;
  /**
   * Asynchronous preparation the environment needs before its first `reset` (a WebAssembly
   * engine to instantiate, say). Called once per process by whoever runs episodes (the sandbox
   * worker awaits it); `create` and the spaces must work without it.
   */
  readonly load?: () => Promise<void>;
  /** Source of `policy/policy.ts` for a new workspace: a small valid baseline. */
  readonly starterPolicy: string;
  /** Extra TypeScript declarations appended to the generated `policy/env.d.ts` (constants, helper types). */
  readonly declarations?: string;
  /** A Markdown section for AGENTS.md: what every part of the observation and action means. */
  readonly guide?: string;
  /** Extra files a new workspace gets under `policy/` (e.g. a constants module), path → source. */
  readonly workspaceFiles?: Readonly<Record<string, string>>;
  /**
   * The parameters a training configuration (a practice submit's `--config`) may change, each
   * within bounds (`training.ts`). Absent: the environment offers no practice configurations.
   */
  readonly training?: TrainingSchema;
}

/** What a plugin module exports: `environments` (or a default export) listing its definitions. */
export interface EnvPluginModule {
  environments?: readonly EnvDefinition[];
  default?: readonly EnvDefinition[] | { environments?: readonly EnvDefinition[] };
}
