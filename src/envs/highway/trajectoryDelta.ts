/**
 * Records a driving episode as `highway-delta/1` (src/protocol/highwayTrajectory.ts): the plain
 * snapshot after reset once (road, lanes, vehicles), then per step the observation, action,
 * reward, `info` when it changed, and the snapshot after the step as vehicle rows plus the keys
 * that changed. It encodes the environment's own snapshot, so the expansion gives it back exactly.
 */
import type { Info } from '../core/env';
import { HIGHWAY_DELTA_FORMAT, observationField, sceneDeltaFields } from '../../protocol/highwayTrajectory';

export class HighwayDeltaRecorder {
  readonly format = HIGHWAY_DELTA_FORMAT;
  private prev: Record<string, unknown> = {};
  private lastInfo = '{}';

  constructor(private readonly snapshot: () => unknown) {}

  start(): unknown {
    this.prev = this.snapshot() as Record<string, unknown>;
    return this.prev;
  }

  step(): string {
    return '';
  }

  observation(obs: unknown, json: (v: unknown) => string): string {
    return observationField(obs, json);
  }

  /** `observation` is this recorder's field text; `json` writes values as the plain layout does (the sandbox's jsonText). */
  line({ observation, action, reward, terminated, truncated, info, json }: { observation: string; action: unknown; reward: number; terminated: boolean; truncated: boolean; info: Info; json(v: unknown): string }): string {
    let s = `{${observation},"action":${json(action)},"reward":${JSON.stringify(reward)}`;
    if (terminated) s += ',"terminated":true';
    if (truncated) s += ',"truncated":true';
    let infoText = '{}';
    for (const _ in info) {
      infoText = json(info);
      break;
    }
    if (infoText !== this.lastInfo) {
      s += `,"info":${infoText}`;
      this.lastInfo = infoText;
    }
    const snap = this.snapshot() as Record<string, unknown>;
    s += sceneDeltaFields(this.prev, snap);
    this.prev = snap;
    return `${s}}`;
  }
}
