/**
 * Records a bounded trajectory: steps up to a cap, then only the `truncated` marker. Each step
 * is serialized as it is recorded, into the JSON line the feedback file holds (see
 * RecordedTrajectory): the workers do that work in parallel, and the record crosses the IPC
 * channel and reaches the disk as text.
 *
 * The line is what `JSON.stringify` gives for the step with its observation as plain JSON (see
 * toJson: typed arrays as arrays, non-finite numbers as strings), built by hand for numbers
 * and typed arrays: going through arrays and objects first cost more than the episode.
 *
 * An environment that can say what each step changed (`deltaRecorder()`, MiniGrid) is recorded
 * that way instead when snapshots are on: its world once, then per step the action, the reward,
 * the flags only when true, `info` only when it changed, and the recorder's fields. The policy's
 * observation is left out there: it follows from the world (`expandTrajectory` rebuilds it).
 *
 * An environment whose observation is too large to keep per step (CarRacing's 96×96×3 frame,
 * about 100 KB of JSON) says `recordsObservations = false`: its steps carry no observation and
 * the replay draws them from the snapshot.
 */
import { EpisodeLimits, type Env, type Info } from '../../envs/core/env';
import type { RecordedTrajectory } from '../../protocol/episodes';
import { toJson } from './observationCopy';

/** Records an environment's steps as changes; `format` names the layout (src/protocol/episodes.ts expands it). */
export interface DeltaRecorder {
  readonly format: string;
  /** The world right after reset, as JSON data (the header's `initialSnapshot`). */
  start(): unknown;
  /** JSON fields (each after a comma) that the step just taken changed. */
  step(): string;
  /**
   * The whole step line instead, for a layout that rounds what the common fields would write at
   * full precision (MuJoCo's action and reward) or stores part of `info` only.
   */
  line?(step: RecordedStep): string;
  /** The observation's field as `line` writes it (`"observation":…`), for a layout that keeps observations. */
  observation?(observation: unknown, json: (v: unknown) => string): string;
}

/** A step as a delta recorder's `line` receives it. */
export interface RecordedStep {
  /** The recorder's `observation` field of what the policy saw, when it keeps observations; else ''. */
  observation: string;
  action: unknown;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  info: Info;
  /** A value's JSON text as the plain layout writes it (typed arrays as arrays, non-finite numbers as strings). */
  json(v: unknown): string;
}

interface DeltaRecording {
  deltaRecorder(): DeltaRecorder;
}

function deltaRecording(env: object): env is DeltaRecording {
  return typeof (env as Partial<DeltaRecording>).deltaRecorder === 'function';
}

/** An environment that opts its observations out of trajectories (see the header). */
function observationsOmitted(env: object): boolean {
  return (env as { recordsObservations?: boolean }).recordsObservations === false;
}

export class TrajectoryRecorder {
  private readonly lines: string[] = [];
  private initialSnapshot: unknown;
  private truncated = false;
  private delta: DeltaRecorder | undefined;
  /** The info of the last step written in the delta layout, as JSON. */
  private lastInfo = '{}';
  /** The environment keeps its observations out of the trajectory. */
  private omitObservation = false;

  constructor(private readonly maxSteps: number, private readonly snapshots: boolean) {}

  /** True while steps are still kept. */
  get recording(): boolean {
    return this.lines.length < this.maxSteps;
  }

  /**
   * What `push` needs of the observation the policy is about to see: its JSON text while steps
   * are kept in the plain layout or in a delta layout that keeps observations, '' in the other
   * delta layouts (not kept), undefined past the cap (the step is skipped).
   */
  seen(observation: unknown): string | undefined {
    if (!this.recording) return undefined;
    if (this.omitObservation) return '';
    if (this.delta === undefined) return jsonText(observation);
    return this.delta.observation?.(observation, jsonText) ?? '';
  }

  /** Right after reset: the world as it starts, when snapshots are recorded. */
  initial(env: Env): void {
    const inner = env instanceof EpisodeLimits ? (env.inner as Env) : env;
    this.omitObservation = observationsOmitted(inner);
    if (!this.snapshots) return;
    if (deltaRecording(inner)) {
      this.delta = inner.deltaRecorder();
      this.initialSnapshot = this.delta.start();
      return;
    }
    this.initialSnapshot = toJson(env.snapshot?.());
  }

  /** A step past the cap: only the marker changes. */
  skip(): void {
    this.truncated = true;
  }

  /** `observation` is the JSON text of what the policy saw (see jsonText), taken before the step. */
  push(observation: string, action: unknown, reward: number, terminated: boolean, truncated: boolean, info: Info, snapshot: () => unknown): void {
    if (this.delta !== undefined) {
      this.pushDelta(this.delta, observation, action, reward, terminated, truncated, info);
      return;
    }
    let line = this.omitObservation ? `{"action":${jsonText(action)},` : `{"observation":${observation},"action":${jsonText(action)},`;
    line += `"reward":${JSON.stringify(reward)},"terminated":${terminated},"truncated":${truncated}`;
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

  private pushDelta(delta: DeltaRecorder, observation: string, action: unknown, reward: number, terminated: boolean, truncated: boolean, info: Info): void {
    if (delta.line !== undefined) {
      this.lines.push(delta.line({ observation, action, reward, terminated, truncated, info, json: jsonText }));
      return;
    }
    let line = `{"action":${jsonText(action)},"reward":${JSON.stringify(reward)}`;
    if (terminated) line += ',"terminated":true';
    if (truncated) line += ',"truncated":true';
    let infoText = '{}';
    for (const _ in info) {
      infoText = JSON.stringify(toJson(info));
      break;
    }
    if (infoText !== this.lastInfo) {
      line += `,"info":${infoText}`;
      this.lastInfo = infoText;
    }
    this.lines.push(`${line}${delta.step()}}`);
  }

  get trajectory(): RecordedTrajectory {
    const t: RecordedTrajectory = { stepsJsonl: this.lines.join('\n'), stepCount: this.lines.length, truncated: this.truncated };
    if (this.delta !== undefined) t.format = this.delta.format;
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
