/**
 * Deterministic run data for the webview tests, the bench and the screenshots: submissions shaped
 * exactly like feedback/submit-NNNN/summary.json, a report.json and recorded trajectories.
 */
import type { EpisodeStatus, Trajectory, TrajectoryStep } from '../../../src/protocol/episodes';
import type { EditClass, EpisodeSummary, RunReport, SubmissionSummary } from '../../../src/protocol/feedback';

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >> 17;
    s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

export interface RunOptions {
  submissions: number;
  episodes: number;
  envId?: string;
  budget?: number;
  seed?: number;
  /** Fraction of failing episodes. */
  failRate?: number;
}

export function makeRun(o: RunOptions): SubmissionSummary[] {
  const r = rng(o.seed ?? 7);
  const total = o.budget ?? o.submissions * o.episodes;
  const out: SubmissionSummary[] = [];
  let used = 0;
  let skill = 20;
  const classes: EditClass[] = ['parametric', 'structural', 'parametric', 'identical', 'parametric', 'structural'];
  for (let n = 1; n <= o.submissions; n++) {
    const cls: EditClass = n === 1 ? 'initial' : (classes[(n * 7 + Math.floor(r() * 3)) % classes.length] as EditClass);
    skill = Math.min(500, skill + (cls === 'structural' ? 60 * r() : cls === 'parametric' ? 25 * (r() - 0.3) : 0));
    const cases = Array.from({ length: o.episodes }, (_, i) => (used + i) % 256);
    const episodes: EpisodeSummary[] = cases.map((c) => {
      const fail = r() < (o.failRate ?? 0.05);
      const status: EpisodeStatus = fail ? (r() < 0.7 ? 'exception' : 'timeout') : 'ok';
      const ret = fail ? Math.round(skill * r() * 0.3) : Math.max(8, Math.round(skill + (r() - 0.5) * skill * 0.6));
      const e: EpisodeSummary = { caseIndex: c, status, return: ret, length: ret, terminated: !fail, truncated: false, wallMs: 2 + r() * 5 };
      if (status === 'exception') e.error = { message: r() < 0.6 ? "TypeError: Cannot read properties of undefined (reading 'length')" : 'RangeError: index out of range', location: { file: 'policy/policy.ts', line: 12 + Math.floor(r() * 3) * 7, column: 5 } };
      if (status === 'timeout') e.error = { message: 'act() exceeded 50 ms', deadline: 'act' };
      return e;
    });
    used += o.episodes;
    const rets = episodes.map((e) => e.return);
    const mean = rets.reduce((a, b) => a + b, 0) / rets.length;
    const std = Math.sqrt(rets.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, rets.length - 1));
    const statusCounts: Partial<Record<EpisodeStatus, number>> = {};
    for (const e of episodes) statusCounts[e.status] = (statusCounts[e.status] ?? 0) + 1;
    const added = cls === 'structural' ? 8 + Math.floor(r() * 30) : cls === 'parametric' ? 1 + Math.floor(r() * 3) : 0;
    out.push({
      submission: n,
      checkpoint: `sha256-${(n * 2654435761 >>> 0).toString(16).padStart(8, '0')}${'ab12cd34ef'.repeat(5)}`.slice(0, 71),
      createdAt: new Date(Date.UTC(2026, 11, 2, 14, 0, 0) + n * 97_000).toISOString(),
      envId: o.envId ?? 'CartPole-v1',
      cases,
      episodes,
      stats: { mean, std, stderr: std / Math.sqrt(rets.length), min: Math.min(...rets), max: Math.max(...rets), okCount: statusCounts.ok ?? 0, count: rets.length },
      statusCounts,
      wallMs: 50 + 10 * o.episodes,
      budget: { total, used, remaining: Math.max(0, total - used) },
      edit: { class: cls, parent: n === 1 ? null : n - 1, linesAdded: added, linesRemoved: Math.floor(added / 2), sizeBin: added === 0 ? 'none' : added <= 5 ? 'small' : added <= 30 ? 'medium' : 'large', details: cls === 'parametric' ? [`gain 0.5 → 0.${n % 10} (policy.ts:12)`] : cls === 'structural' ? ['if added in act'] : [] },
      files: { trajectories: cases.map((c) => `feedback/submit-${String(n).padStart(4, '0')}/episodes/case-${String(c).padStart(3, '0')}.jsonl`), logs: [], evicted: false },
    });
  }
  return out;
}

export function makeReport(subs: readonly SubmissionSummary[]): RunReport {
  const r = rng(99);
  const candidates = subs.filter((_, i) => i % 2 === 1 || i === subs.length - 1).slice(-8).map((s) => ({
    submission: s.submission,
    checkpoint: s.checkpoint,
    validationMean: s.stats.mean * (0.85 + r() * 0.2),
    validationStderr: 5 + r() * 15,
    trainMean: s.stats.mean,
  }));
  const best = candidates.reduce((a, b) => (b.validationMean >= a.validationMean ? b : a), candidates[0] as (typeof candidates)[number]);
  let bestTrain = -Infinity;
  let bestVal = -Infinity;
  const last = subs.at(-1);
  return {
    envId: last?.envId ?? 'CartPole-v1',
    completedAt: new Date(Date.UTC(2026, 11, 2, 15, 0, 0)).toISOString(),
    budget: last?.budget ?? { total: 0, used: 0, remaining: 0 },
    selectionMode: 'paper',
    selected: best.submission,
    candidates,
    heldOut: { mean: best.validationMean * 0.97, std: 40, stderr: 7.1, min: 120, max: 500, okCount: 32, count: 32 },
    trainCurve: subs.map((s) => ({ budgetUsed: s.budget.used, submission: s.submission, value: (bestTrain = Math.max(bestTrain, s.stats.mean)) })),
    validationCurve: candidates.map((c) => ({ budgetUsed: subs.find((s) => s.submission === c.submission)?.budget.used ?? 0, submission: c.submission, value: (bestVal = Math.max(bestVal, c.validationMean)) })),
  };
}

/** A recorded episode of a classic-control family (physically plausible, not simulated). */
export function makeTrajectory(family: string, steps: number, seed = 3): Trajectory {
  const r = rng(seed);
  const out: TrajectoryStep[] = [];
  for (let t = 0; t < steps; t++) {
    const p = t / Math.max(1, steps - 1);
    let snapshot: unknown;
    let observation: number[];
    let action: unknown;
    switch (family) {
      case 'classic/mountaincar': {
        const position = -0.5 + Math.sin(p * 9) * 0.6 * p + p * 0.4;
        snapshot = { position, goal: 0.5 };
        observation = [position, 0.01 * Math.cos(p * 9)];
        action = Math.cos(p * 9) > 0 ? 2 : 0;
        break;
      }
      case 'classic/pendulum': {
        const theta = Math.PI * (1 - p) * Math.cos(p * 12);
        snapshot = { theta, lastU: Math.sin(p * 20) * 2 };
        observation = [Math.cos(theta), Math.sin(theta), -Math.sin(p * 12)];
        action = [Math.sin(p * 20) * 2];
        break;
      }
      case 'classic/acrobot': {
        snapshot = { theta1: Math.sin(p * 8) * 2.5 * p, theta2: Math.cos(p * 11) * 1.5 };
        observation = [Math.cos(p), Math.sin(p), 1, 0, 0.1, 0.2];
        action = t % 3;
        break;
      }
      default: {
        const x = Math.sin(p * 6) * 0.8 + (r() - 0.5) * 0.02;
        const theta = Math.sin(p * 23) * 0.08;
        snapshot = { x, theta };
        observation = [x, Math.cos(p * 6) * 0.3, theta, Math.cos(p * 23) * 0.4];
        action = theta > 0 ? 1 : 0;
      }
    }
    const reward = family === 'classic/pendulum' ? -((snapshot as { theta: number }).theta ** 2) : family === 'classic/cartpole' || family.startsWith('classic/c') ? 1 : -1;
    out.push({ observation, action, reward, terminated: t === steps - 1, truncated: false, snapshot });
  }
  return { initialSnapshot: out[0]?.snapshot, steps: out, truncated: false };
}

/** A MiniGrid episode in MiniGridSnapshot form (src/envs/minigrid/worldState.ts): walking to the goal past a door and a key. */
export function makeGridTrajectory(steps = 14): Trajectory {
  const width = 8;
  const height = 8;
  const grid: number[] = [];
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) {
      const wall = x === 0 || y === 0 || x === width - 1 || y === height - 1;
      const goal = x === 6 && y === 6;
      const door = x === 4 && y === 3;
      const key = x === 2 && y === 5;
      grid.push(wall ? 2 : goal ? 8 : door ? 4 : key ? 5 : 1, wall ? 5 : goal ? 1 : door ? 4 : key ? 4 : 0, door ? 1 : 0);
    }
  }
  const path: [number, number, number][] = [];
  let x = 1;
  let y = 1;
  for (let i = 0; i < steps; i++) {
    const dir = x < 6 ? 0 : 1;
    path.push([x, y, dir]);
    if (x < 6) x++;
    else if (y < 6) y++;
  }
  const outSteps: TrajectoryStep[] = path.map(([ax, ay, dir], i) => ({
    observation: { image: new Array(147).fill(1), direction: dir, mission: 'get to the green goal square' },
    action: 2,
    reward: i === path.length - 1 ? 0.9 : 0,
    terminated: i === path.length - 1,
    truncated: false,
    snapshot: { width, height, grid: grid.join(''), agent: [ax, ay, dir], carrying: null, visible: visibleCells(ax, ay, dir, width, height), mission: 'get to the green goal square', step: i + 1, maxSteps: 256 },
  }));
  return { initialSnapshot: outSteps[0]?.snapshot, steps: outSteps, truncated: false };
}

function visibleCells(x: number, y: number, dir: number, w: number, hgt: number): number[] {
  const out: number[] = [];
  const [tx, ty] = dir === 0 ? [x, y - 3] : dir === 1 ? [x - 3, y] : dir === 2 ? [x - 6, y - 3] : [x - 3, y - 6];
  for (let i = 0; i < 7; i++) for (let j = 0; j < 7; j++) {
    const cx = tx + i;
    const cy = ty + j;
    if (cx >= 0 && cy >= 0 && cx < w && cy < hgt) out.push(cx * hgt + cy);
  }
  return out;
}
