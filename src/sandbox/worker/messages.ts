/**
 * Messages between the pool (host) and a sandbox worker process over the Node IPC channel.
 *
 * Each message costs tens of microseconds on both sides (a pipe write that wakes the other
 * process, JSON), as much as a short episode. So episodes travel in chunks, and the worker
 * reports in coalesced `progress` messages: finished records plus where it is now, sent at a
 * chunk's end, when its queue runs dry, and otherwise at most every REPORT_INTERVAL_MS.
 * The host's deadline timers are re-armed by every message; a worker that falls silent
 * for longer than a call may take is killed (see pool/workerHandle.ts).
 *
 * `exact` chunks hold one episode and report every phase as it starts, so a kill is charged
 * to the right episode, phase and step. The pool sends those after a worker running ordinary
 * chunks was killed, when the unreported episodes of its chunks could not be told apart. Their
 * episodes are also traced (worker/trace.ts): step by step and log line by log line, on a pipe
 * the worker writes synchronously.
 */
import type { PublicParamValue } from '../../protocol/policy';
import type { EpisodeLimits, EpisodeSpec } from '../types';
import type { LoadedBundle } from './loadedBundle';
import type { WireRecords } from './recordWire';

/**
 * Where an episode is: what a deadline that fires now is charged to. `setup` (making the
 * environment, resetting it, a policy realm) is the worker's own work, never the policy's: it has
 * its own deadline (SETUP_TIMEOUT_MS), and a kill in it is a runner fault. `module` is the
 * policy's top-level code, when it runs (once per realm for a shared module).
 */
export type EpisodePhase = 'setup' | 'module' | 'constructor' | 'reset' | 'act';

/** Longest an episode's setup may take before the host stops the worker (a runner fault). */
export const SETUP_TIMEOUT_MS = 30_000;

/** Longest an environment family's `load` may take in a worker (instantiating a WebAssembly engine takes seconds). */
export const PREPARE_TIMEOUT_MS = 60_000;

/** Most time between two progress messages of a busy worker (records wait at most this long). */
export const REPORT_INTERVAL_MS = 4;

/**
 * Bundles a worker keeps compiled, first in first out; a worker usually serves one submission at
 * a time. The host mirrors the cache (same size, same order: the channel keeps messages in order)
 * to know when a bundle's code must be sent again.
 */
export const WORKER_BUNDLE_CACHE_SIZE = 4;

/** What one episode needs, apart from the bundle. */
export interface EpisodeTask {
  envId: string;
  params: Readonly<Record<string, PublicParamValue>>;
  spec: EpisodeSpec;
  limits: EpisodeLimits;
  /** Write the episode's position every step, and its log lines, to the trace pipe (worker/trace.ts). */
  traced?: boolean;
  /** Arena games: the champion's bundle playing the other side (src/sandbox/arena/champion.ts). */
  opponent?: LoadedBundle;
}

/** Episodes of one batch, run in order. */
export interface RunEpisodesMessage {
  type: 'episodes';
  bundleId: string;
  /** Sent the first time this worker sees the bundle; cached by id afterwards. */
  code?: string;
  envId: string;
  params: Readonly<Record<string, PublicParamValue>>;
  limits: EpisodeLimits;
  /** Arena games: the champion playing the other side; its code comes the first time, as `code` does. */
  opponent?: { bundleId: string; code?: string };
  /** Host-side job ids with their cases. */
  jobs: { job: number; spec: EpisodeSpec }[];
  /** Report every phase change and the record at once (one-episode chunks, see above). */
  exact: boolean;
}

export type HostMessage = RunEpisodesMessage;

/** The episode a worker is in when it reports. */
export interface EpisodePosition {
  job: number;
  phase: EpisodePhase;
  steps: number;
  return: number;
  /** Milliseconds since the policy's part of the episode started (after setup), for the host's episode deadline. */
  elapsedMs: number;
}

export type WorkerMessage =
  | { type: 'ready'; pluginErrors: string[] }
  /**
   * The worker awaits an environment family's asynchronous `load` (a WebAssembly engine) before
   * the next episode: the host holds its deadlines to PREPARE_TIMEOUT_MS until the next message.
   */
  | { type: 'preparing'; envId: string }
  /** Records finished since the last message, in job order, and the episode running now (if any). */
  | { type: 'progress'; records: WireRecords; current?: EpisodePosition };

/** What the host passes on the worker's command line (JSON in argv[2]). */
export interface WorkerArgs {
  plugins: string[];
}
