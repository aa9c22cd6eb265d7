/**
 * What the runner needs from the sandbox: build a bundle from a policy folder and run batches of
 * episodes. The real implementation is the sandbox's worker pool (src/sandbox); the indirection
 * keeps the sandbox import in one place and lets the pool be shared by several runs.
 */
import type { EpisodeRecord } from '../protocol/episodes';
import type { BatchRequest, BuildResult } from '../sandbox/types';

export interface EpisodeExecutor {
  /**
   * Builds `<root>/policy/` (paths in the result are relative to `root`). With `typeCheck`, type
   * errors join the diagnostics (they never fail the build): `run.check` and strict submits ask
   * for them, plain submits do not pay for the checker.
   */
  build(root: string, opts?: { typeCheck?: boolean }): Promise<BuildResult>;
  runBatch(request: BatchRequest): Promise<EpisodeRecord[]>;
  close(): Promise<void>;
}
