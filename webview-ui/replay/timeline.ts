/**
 * A replay side as frames: frame 0 is the state after reset, frame k the state after step k,
 * with the step's observation (what the policy saw before acting), action, reward and the return
 * so far. Precomputed once so scrubbing and playback do no work per frame beyond drawing.
 */
import type { TrajectoryStep } from '../../src/protocol/episodes';
import type { ReplaySide } from '../../src/protocol/webview';
import type { SceneRenderer } from './renderers';
import { skillMarks, skillOutcomes, type SkillMark, type SkillOutcome } from './episodeSkills';

export interface Timeline {
  submission: number;
  /** Frames = steps + 1. */
  frames: number;
  snapshots: unknown[];
  rewards: Float64Array;
  returns: Float64Array;
  steps: readonly TrajectoryStep[];
  /** Vector observations as numbers per step (null when observations are not flat numeric vectors). */
  obsMatrix: number[][] | null;
  status: string | null;
  problem: string | null;
  /** True when the scenes were reconstructed from observations (no snapshots recorded). */
  fromObservations: boolean;
  /** The episode's skill outcomes, and the skills that happened at a step (episodeSkills.ts). */
  skills: SkillOutcome[];
  skillMarks: SkillMark[];
}

export function buildTimeline(side: ReplaySide, renderer: SceneRenderer): Timeline {
  const steps = side.trajectory?.steps ?? [];
  const n = steps.length;
  const rewards = new Float64Array(n + 1);
  const returns = new Float64Array(n + 1);
  const snapshots: unknown[] = new Array<unknown>(n + 1);
  const recorded = side.trajectory?.initialSnapshot !== undefined || steps.some((s) => s.snapshot !== undefined);
  const fromObs = !recorded && renderer.fromObservation !== undefined && n > 0;
  snapshots[0] = fromObs ? renderer.fromObservation?.(steps[0]?.observation, steps[0]?.action) : (side.trajectory?.initialSnapshot ?? steps[0]?.snapshot);
  let acc = 0;
  for (let i = 0; i < n; i++) {
    const s = steps[i];
    if (s === undefined) continue;
    rewards[i + 1] = s.reward;
    acc += s.reward;
    returns[i + 1] = acc;
    // The state after step i is what the policy observes before step i+1; the last state was never observed.
    const next = steps[i + 1];
    snapshots[i + 1] = fromObs ? (next ? renderer.fromObservation?.(next.observation, next.action) : snapshots[i]) : (s.snapshot ?? snapshots[i]);
  }
  renderer.prepare?.(snapshots);
  return {
    submission: side.submission,
    frames: n + 1,
    snapshots,
    rewards,
    returns,
    steps,
    obsMatrix: numericObservations(steps.map((s) => s.observation)),
    status: side.episode?.status ?? null,
    problem: side.problem ?? (side.trajectory === null ? 'No trajectory recorded for this episode.' : null),
    fromObservations: fromObs,
    skills: skillOutcomes(side.episode, side.skills),
    skillMarks: skillMarks(side.episode, side.skills),
  };
}

function numericObservations(obs: unknown[]): number[][] | null {
  if (obs.length === 0) return null;
  const first = obs[0];
  if (!Array.isArray(first) || first.length === 0 || first.length > 12) return null;
  const out: number[][] = [];
  for (const o of obs) {
    if (!Array.isArray(o) || !o.every((v) => typeof v === 'number')) return null;
    out.push(o as number[]);
  }
  return out;
}

export function formatValue(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(4);
  if (Array.isArray(v)) return v.length > 16 ? `[${v.length} values]` : `[${v.map((x) => formatValue(x)).join(', ')}]`;
  if (typeof v === 'object' && v !== null) {
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k}: ${Array.isArray(x) && x.length > 16 ? `${x.length} values` : formatValue(x)}`)
      .join(', ');
  }
  return v === undefined ? '—' : JSON.stringify(v);
}

/** An action by its name when the environment names its discrete actions (`forward`), else its value. */
export function actionText(action: unknown, names: readonly string[] | undefined): string {
  if (names !== undefined && typeof action === 'number' && Number.isInteger(action)) {
    const name = names[action];
    if (name !== undefined) return name;
  }
  return formatValue(action);
}
