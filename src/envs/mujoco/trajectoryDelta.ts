/**
 * Records a MuJoCo episode as `mujoco-delta/1` (src/protocol/mujocoTrajectory.ts): the scene and
 * qpos after reset once, then per step the action, reward and reward terms (4 decimals) and qpos
 * in thousandths. The sandbox's trajectory recorder asks the environment for one
 * (`deltaRecorder()`) and lets it write each whole step line.
 */
import type { Info } from '../core/env';
import { MUJOCO_DELTA_FORMAT, QPOS_SCALE, qposCode, replayQpos, reported } from '../../protocol/mujocoTrajectory';
import type { MujocoScene } from '../../protocol/mujocoScene';

/** What an environment of the family offers its recorder. */
export interface ReplayRecordable {
  /** The `info` keys stored per step, in this order (the rest follows from qpos; see the family's guide). */
  readonly rewardTerms: readonly string[];
  /** The simulator's qpos right now (unrounded). */
  replayQposSource(): ArrayLike<number>;
  /** The model's scene with this episode's markers. */
  replayScene(): MujocoScene;
}

/** JSON numbers as this format writes them: non-finite values as null, like JSON.stringify. */
function num(v: number): string {
  return Number.isFinite(v) ? `${v}` : 'null';
}

function codes(q: ArrayLike<number>): string {
  let s = '[';
  for (let i = 0; i < q.length; i++) s += `${i === 0 ? '' : ','}${num(qposCode(q[i] as number))}`;
  return `${s}]`;
}

/** An action as stored: a number array rounded to 4 decimals; anything else (never valid here) as JSON. */
function actionText(a: unknown): string {
  if (ArrayBuffer.isView(a) || Array.isArray(a)) {
    const v = a as ArrayLike<unknown>;
    let s = '[';
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      s += `${i === 0 ? '' : ','}${typeof x === 'number' ? num(reported(x)) : (JSON.stringify(x) ?? 'null')}`;
    }
    return `${s}]`;
  }
  return typeof a === 'number' ? num(reported(a)) : (JSON.stringify(a) ?? 'null');
}

export class MujocoDeltaRecorder {
  readonly format = MUJOCO_DELTA_FORMAT;

  constructor(private readonly env: ReplayRecordable) {}

  /** The header's world: qpos after reset, the term names, the scene. */
  start(): unknown {
    return { qpos: JSON.parse(codes(this.env.replayQposSource())) as (number | null)[], qposScale: QPOS_SCALE, terms: [...this.env.rewardTerms], scene: this.env.replayScene() };
  }

  /** Unused: `line` writes the whole step. */
  step(): string {
    return '';
  }

  /** The step line of the step just taken. */
  line({ action, reward, terminated, truncated, info }: { action: unknown; reward: number; terminated: boolean; truncated: boolean; info: Info }): string {
    let s = `{"action":${actionText(action)},"reward":${num(reported(reward))}`;
    if (terminated) s += ',"terminated":true';
    if (truncated) s += ',"truncated":true';
    s += ',"terms":[';
    this.env.rewardTerms.forEach((t, i) => {
      const v = info[t];
      s += `${i === 0 ? '' : ','}${typeof v === 'number' ? num(reported(v)) : 'null'}`;
    });
    return `${s}],"qpos":${codes(this.env.replayQposSource())}}`;
  }
}

/**
 * The replay side every environment of the family shares: snapshots (qpos in thousandths, the
 * scene with the first one of each episode) and the stored trajectory's recorder, both from the
 * environment's qpos and scene. The environment calls `episodeStarted()` in its reset.
 */
export class MujocoReplay {
  /** The next snapshot is an episode's first: it carries the scene. */
  private sceneDue = false;

  constructor(private readonly env: ReplayRecordable) {}

  episodeStarted(): void {
    this.sceneDue = true;
  }

  /** `{ qpos }` rounded to thousandths; an episode's first also carries `scene`. */
  snapshot(): { qpos: number[]; scene?: MujocoScene } {
    const qpos = replayQpos(this.env.replayQposSource());
    if (!this.sceneDue) return { qpos };
    this.sceneDue = false;
    return { qpos, scene: this.env.replayScene() };
  }

  deltaRecorder(): MujocoDeltaRecorder {
    return new MujocoDeltaRecorder(this.env);
  }
}
