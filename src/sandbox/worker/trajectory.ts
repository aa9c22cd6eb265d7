/**
 * Records a bounded trajectory: steps up to a cap, then only the `truncated` marker. Each step
 * is serialized as it is recorded, into the JSON line the feedback file holds (see
 * RecordedTrajectory): the workers do that work in parallel, and the record crosses the IPC
 * channel and reaches the disk as text.
 */
import type { Info } from '../../envs/core/env';
import type { RecordedTrajectory, TrajectoryStep } from '../../protocol/episodes';
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

  push(observation: unknown, action: unknown, reward: number, terminated: boolean, truncated: boolean, info: Info, snapshot: () => unknown): void {
    const step: TrajectoryStep = { observation, action, reward, terminated, truncated };
    for (const _ in info) {
      step.info = toJson(info) as Record<string, unknown>;
      break;
    }
    if (this.snapshots) step.snapshot = toJson(snapshot());
    this.lines.push(JSON.stringify(step));
  }

  get trajectory(): RecordedTrajectory {
    const t: RecordedTrajectory = { stepsJsonl: this.lines.join('\n'), stepCount: this.lines.length, truncated: this.truncated };
    if (this.initialSnapshot !== undefined) t.initialSnapshot = this.initialSnapshot;
    return t;
  }
}
