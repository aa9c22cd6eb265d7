/** The recorded Box2D golden traces (Gymnasium 1.4 on pybox2d): their shape and how to feed their draws. */
import type { LoggedDraw } from './draws';

export interface RecordedBody {
  position: [number, number];
  angle: number;
  linearVelocity: [number, number];
  angularVelocity: number;
  awake: boolean;
}

export interface RecordedStep {
  obs?: number[];
  obs_sha256?: string;
  obs_b64?: string;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  bodies: Record<string, unknown>;
  rng?: LoggedDraw[];
}

export interface Box2dTrace {
  name: string;
  reset_seed: number;
  make_kwargs: Record<string, unknown>;
  world: Record<string, unknown>;
  rng_reset: LoggedDraw[];
  initial_bodies: Record<string, unknown>;
  initial_obs?: number[] | { sha256: string; b64: string };
  actions: unknown[];
  steps: RecordedStep[];
}
