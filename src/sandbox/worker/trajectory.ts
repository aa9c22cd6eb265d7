/** Records a bounded trajectory: steps up to a cap, then only the `truncated` marker. */
import type { Info } from '../../envs/core/env';
import type { Trajectory, TrajectoryStep } from '../../protocol/episodes';
import { toJson } from './observationCopy';

export class TrajectoryRecorder {
  readonly trajectory: Trajectory = { steps: [], truncated: false };

  constructor(private readonly maxSteps: number, private readonly snapshots: boolean) {}

  /** True while steps are still kept: callers skip copying the observation otherwise. */
  get recording(): boolean {
    return this.trajectory.steps.length < this.maxSteps;
  }

  initial(snapshot: () => unknown): void {
    if (this.snapshots) this.trajectory.initialSnapshot = toJson(snapshot());
  }

  /** A step past the cap: only the marker changes. */
  skip(): void {
    this.trajectory.truncated = true;
  }

  push(observation: unknown, action: unknown, reward: number, terminated: boolean, truncated: boolean, info: Info, snapshot: () => unknown): void {
    const step: TrajectoryStep = { observation, action, reward, terminated, truncated };
    for (const _ in info) {
      step.info = toJson(info) as Record<string, unknown>;
      break;
    }
    if (this.snapshots) step.snapshot = toJson(snapshot());
    this.trajectory.steps.push(step);
  }
}
