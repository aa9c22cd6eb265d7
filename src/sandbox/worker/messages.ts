/** Messages between the pool (host) and a sandbox worker process over the Node IPC channel. */
import type { EpisodeRecord } from '../../protocol/episodes';
import type { PublicParamValue } from '../../protocol/policy';
import type { EpisodeLimits, EpisodeSpec } from '../types';
import type { WireTrajectory } from './trajectoryWire';

/** Where an episode is: what a deadline that fires now is charged to. */
export type EpisodePhase = 'constructor' | 'reset' | 'act';

export interface RunEpisodeMessage {
  type: 'episode';
  /** Host-side job id, echoed in beats and the record. */
  job: number;
  bundleId: string;
  /** Sent the first time this worker sees the bundle; cached by id afterwards. */
  code?: string;
  envId: string;
  params: Readonly<Record<string, PublicParamValue>>;
  spec: EpisodeSpec;
  limits: EpisodeLimits;
}

export type HostMessage = RunEpisodeMessage;

export type WorkerMessage =
  | { type: 'ready'; pluginErrors: string[] }
  /** Progress: the phase the episode is in and how far it got (used when the host has to kill it). */
  | { type: 'beat'; job: number; phase: EpisodePhase; steps: number; return: number }
  | { type: 'record'; job: number; record: WireRecord };

/** An EpisodeRecord with its trajectory packed for the channel (see trajectoryWire.ts). */
export type WireRecord = Omit<EpisodeRecord, 'trajectory'> & { trajectory: WireTrajectory };

/** What the host passes on the worker's command line (JSON in argv[2]). */
export interface WorkerArgs {
  plugins: string[];
}
