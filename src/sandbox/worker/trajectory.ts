/**
 * Records a bounded trajectory: steps up to a cap, then only the `truncated` marker. Each step
 * is serialized as it is recorded, into the JSON line the feedback file holds (see
 * RecordedTrajectory): the workers do that work in parallel, and the record crosses the IPC
 * channel and reaches the disk as text.
 *
 * The line is what `JSON.stringify` gives for the step with its observation as plain JSON (see
 * toJson: typed arrays as arrays, non-finite numbers as strings), built by hand for numbers
 * and typed arrays: going through arrays and objects first cost more than the episode.
 */
import type { Info } from '../../envs/core/env';
import type { RecordedTrajectory } from '../../protocol/episodes';
import { toJson } from './observationCopy';

export class TrajectoryRecorder {
  private readonly lines: string[] = [];
  private initialSnapshot: unknown;
  private truncated = false;

  constructor(private readonly maxSteps: number, private readonly snapshots: boolean) {}

  /** True while steps are still kept: callers skip copying the observation otherwise. */
  get recording(): boolean {
    return this.lines.length < this.maxSteps;
  }

  initial(snapshot: () => unknown): void {
    if (this.snapshots) this.initialSnapshot = toJson(snapshot());
  }

  /** A step past the cap: only the marker changes. */
  skip(): void {
    this.truncated = true;
  }

  /** `observation` is the JSON text of what the policy saw (see jsonText), taken before the step. */
  push(observation: string, action: unknown, reward: number, terminated: boolean, truncated: boolean, info: Info, snapshot: () => unknown): void {
    let line = `{"observation":${observation},"action":${jsonText(action)},"reward":${JSON.stringify(reward)},"terminated":${terminated},"truncated":${truncated}`;
    for (const _ in info) {
      line += `,"info":${JSON.stringify(toJson(info))}`;
      break;
    }
    if (this.snapshots) {
      const s = toJson(snapshot());
      if (s !== undefined) line += `,"snapshot":${JSON.stringify(s)}`;
    }
    this.lines.push(`${line}}`);
  }

  get trajectory(): RecordedTrajectory {
    const t: RecordedTrajectory = { stepsJsonl: this.lines.join('\n'), stepCount: this.lines.length, truncated: this.truncated };
    if (this.initialSnapshot !== undefined) t.initialSnapshot = this.initialSnapshot;
    return t;
  }
}

/** JSON of a number as toJson has it: non-finite numbers are strings ("NaN", "Infinity"). */
function numberText(v: number): string {
  return Number.isFinite(v) ? `${v}` : `"${v}"`;
}

/** `JSON.stringify(toJson(v))`, with numbers and typed arrays (observations, Box actions) written directly. */
export function jsonText(v: unknown): string {
  if (typeof v === 'number') return numberText(v);
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    const a = v as unknown as ArrayLike<number>;
    // As JSON.stringify writes the array toJson makes of it: non-finite elements are null.
    let s = '[';
    for (let i = 0; i < a.length; i++) {
      const x = a[i] as number;
      s += `${i === 0 ? '' : ','}${Number.isFinite(x) ? x : 'null'}`;
    }
    return `${s}]`;
  }
  return JSON.stringify(toJson(v)) ?? 'null';
}
