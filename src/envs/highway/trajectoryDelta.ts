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

/** The family's AGENTS.md section on its trajectory files (the feedback section points here). */
export const DRIVING_TRAJECTORY_GUIDE = `## Trajectory files (\`"format": "highway-delta/1"\`)
- The header's \`initialSnapshot\` is the scene after reset, for the replay view: \`time\`, \`ego\` (the ego's index in \`vehicles\`), \`vehicles\` [{ x, y, h (heading), l, w, v (speed), c (crashed) }] within \`view\` metres of the ego (all of them when \`view\` is null), \`view\`, \`road\`, \`lanes\`, \`obstacles\` (and \`goal\` for parking).
- Then one line per step: \`observation\` as \`act\` saw it, or \`observation32\` when every value is a float32 (Kinematics arrays), written with the fewest digits that round back to it; \`action\`, \`reward\`, \`terminated\` / \`truncated\` only when true, \`info\` only when it differs from the step before; the scene after the step: \`vehicles\` as [x, y, heading, speed] rows in the snapshot's order, \`sizes\` ([length, width] per row) only when they changed, \`crashed\` (indices of crashed rows) only when any, \`changed\` (the other scene keys that changed, such as \`time\` and \`ego\`) and \`removed\`.`;
