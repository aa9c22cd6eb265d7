/**
 * The sandbox's public contract: build a policy bundle, then run batches of episodes on a pool
 * of sandboxed worker processes. The runner depends only on what is declared here and
 * re-exported from `src/sandbox/index.ts`.
 */
import type { EpisodeRecord } from '../protocol/episodes';
import type { PublicParamValue } from '../protocol/policy';

export interface BundleFile {
  /** Path relative to the workspace root, e.g. `policy/policy.ts`. */
  path: string;
  bytes: number;
}

export interface BundleDiagnostic {
  file: string;
  line: number;
  column: number;
  message: string;
  severity: 'error' | 'warning';
  /** `resolve` and `syntax` errors block the build; `type` errors are reported only. */
  kind: 'syntax' | 'resolve' | 'type' | 'limit';
}

export interface PolicyBundle {
  /** sha256 (hex) over the sorted (path, bytes) of the source files: the checkpoint id. */
  id: string;
  /** One script with an inline source map. */
  code: string;
  files: BundleFile[];
}

export type BuildResult =
  | { ok: true; bundle: PolicyBundle; diagnostics: BundleDiagnostic[] }
  | { ok: false; diagnostics: BundleDiagnostic[] };

/** Size limits of a policy folder; exceeding one is a `limit` diagnostic that blocks the build. */
export interface BundleLimits {
  /** Sum of the bytes of every file under `policy/`. */
  maxTotalBytes: number;
  /** Number of files under `policy/`. */
  maxFiles: number;
}

export interface BuildOptions {
  /** Run the TypeScript checker (reported, never blocking). Default true; costs ~1 s on first use. */
  typeCheck?: boolean;
  limits?: Partial<BundleLimits>;
}

/** One episode to run: the case it belongs to and its (hidden) seeds. */
export interface EpisodeSpec {
  caseIndex: number;
  envSeed: number;
  policySeed: number;
}

export interface EpisodeLimits {
  /** Wall-clock deadline of a whole episode (constructor included). */
  episodeTimeoutMs: number;
  /** Deadline of one `act` (or `reset`) call. */
  actTimeoutMs: number;
  /** Trajectory steps kept per episode before `truncated: true`. */
  maxTrajectorySteps: number;
  /** Bytes of console output kept per episode. */
  maxLogBytes: number;
  /** Record environment snapshots in trajectories (for replays). */
  recordSnapshots: boolean;
  /** Record which of the policy's functions and branches ran (`EpisodeRecord.coverage`, src/sandbox/coverage). Default off. */
  coverage?: boolean;
}

export interface BatchRequest {
  bundle: PolicyBundle;
  envId: string;
  params: Readonly<Record<string, PublicParamValue>>;
  episodes: readonly EpisodeSpec[];
  /** Arena games: a champion's bundle plays the other side, in a policy realm of its own (src/sandbox/arena). */
  opponent?: PolicyBundle;
  limits?: Partial<EpisodeLimits>;
  /** Extra environment plugin modules the workers load (absolute paths). */
  plugins?: readonly string[];
  /** Called as each episode finishes, in completion order. */
  onEpisode?: (record: EpisodeRecord) => void;
  /** Aborting stops the batch: finished records are kept, the rest never start. */
  signal?: AbortSignal;
}

export interface SandboxPoolOptions {
  /** Default: one per core. */
  workers?: number;
  /** Heap limit of each worker process, MiB (default 512). */
  heapMb?: number;
  /**
   * Resident-memory limit of each worker process, MiB (default heapMb + 512): catches typed-array
   * allocations, which live outside the V8 heap. Linux only (read from /proc).
   */
  rssLimitMb?: number;
  /** Node binary; default process.execPath (with ELECTRON_RUN_AS_NODE=1 inside VS Code). */
  nodePath?: string;
  /** The worker script; default `dist/sandboxWorker.js` found beside or above this module. */
  workerScript?: string;
}

