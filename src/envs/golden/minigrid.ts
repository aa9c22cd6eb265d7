/**
 * Replays MiniGrid golden traces: load the recorded initial world (grid, boxes, pose, mission,
 * max_steps, task target), apply the recorded actions in one free rollout (MiniGrid is integer
 * logic, so nothing drifts) and require every step to match exactly: image, direction, reward,
 * flags, pose and carried object, then the final grid and the ASCII picture of the start.
 */
import type { EnvRegistry } from '../core/registry';
import { GoldenFormatError, type TraceResult } from './types';

interface MiniGridTrace {
  name: string;
  initial: { ascii?: string[]; mission: string } & Record<string, unknown>;
  task: Record<string, unknown>;
  initial_obs: { image: string; direction: number; mission: string };
  actions: number[];
  steps: {
    image: string[];
    direction: number[];
    reward: number[];
    terminated: boolean[];
    truncated: boolean[];
    agent_pos: [number, number][];
    agent_dir: number[];
    carrying: (unknown[] | null)[];
  };
  final_grid: string;
}

interface Observation {
  image: Uint8Array;
  direction: number;
  mission: string;
}

interface Snapshot {
  grid: string;
  agent: [number, number, number];
  carrying: unknown[] | null;
}

export function replayMiniGridTrace(registry: EnvRegistry, envId: string, raw: unknown): TraceResult {
  const trace = checkTrace(raw);
  const { env } = registry.make(envId);
  env.reset({ seed: 0 });
  const n = trace.actions.length;
  const fail = (step: number, what: string): TraceResult => ({ name: trace.name, passed: false, steps: n, failure: `step ${step}: ${what}` });

  env.setState({ ...trace.initial, task: trace.task });
  if (trace.initial.ascii && env.renderText() !== trace.initial.ascii.join('\n')) {
    return fail(0, `ASCII picture differs:\nexpected\n${trace.initial.ascii.join('\n')}\ngot\n${env.renderText()}`);
  }
  const first = (env.inner as { currentObservation?: () => Observation }).currentObservation?.();
  if (!first) return fail(0, 'the environment does not expose its current observation');
  const initialDiff = compareObs(first, trace.initial_obs.image, trace.initial_obs.direction, trace.initial_obs.mission);
  if (initialDiff) return fail(0, initialDiff);

  const s = trace.steps;
  for (let t = 0; t < n; t++) {
    const r = env.step(trace.actions[t]);
    const obs = r.observation as Observation;
    const diff = compareObs(obs, s.image[t]!, s.direction[t]!, trace.initial.mission);
    if (diff) return fail(t + 1, diff);
    if (r.reward !== s.reward[t]) return fail(t + 1, `reward expected ${s.reward[t]} got ${r.reward}`);
    if (r.terminated !== s.terminated[t]) return fail(t + 1, `terminated expected ${s.terminated[t]} got ${r.terminated}`);
    if (r.truncated !== s.truncated[t]) return fail(t + 1, `truncated expected ${s.truncated[t]} got ${r.truncated}`);
    const snap = env.snapshot() as Snapshot;
    const pos = s.agent_pos[t]!;
    if (snap.agent[0] !== pos[0] || snap.agent[1] !== pos[1]) return fail(t + 1, `agent_pos expected ${JSON.stringify(pos)} got ${JSON.stringify(snap.agent.slice(0, 2))}`);
    if (snap.agent[2] !== s.agent_dir[t]) return fail(t + 1, `agent_dir expected ${s.agent_dir[t]} got ${snap.agent[2]}`);
    if (JSON.stringify(snap.carrying) !== JSON.stringify(s.carrying[t])) return fail(t + 1, `carrying expected ${JSON.stringify(s.carrying[t])} got ${JSON.stringify(snap.carrying)}`);
    if (t === n - 1 && snap.grid !== trace.final_grid) return fail(t + 1, `final grid differs at entry ${firstDiff(snap.grid, trace.final_grid)}`);
  }
  if (n === 0 && (env.snapshot() as Snapshot).grid !== trace.final_grid) return fail(0, 'final grid differs');
  return { name: trace.name, passed: true, steps: n };
}

function compareObs(obs: Observation, image: string, direction: number, mission: string): string | null {
  const img = obs.image;
  if (img.length !== image.length) return `image has ${img.length} entries, expected ${image.length}`;
  for (let k = 0; k < img.length; k++) {
    if (img[k] !== image.charCodeAt(k) - 48) {
      const c = Math.floor(k / 3);
      return `image entry (${Math.floor(c / 7)},${c % 7},${k % 3}) expected ${image[k]} got ${img[k]}`;
    }
  }
  if (obs.direction !== direction) return `direction expected ${direction} got ${obs.direction}`;
  if (obs.mission !== mission) return `mission expected ${JSON.stringify(mission)} got ${JSON.stringify(obs.mission)}`;
  return null;
}

function firstDiff(a: string, b: string): string {
  for (let k = 0; k < Math.max(a.length, b.length); k++) if (a[k] !== b[k]) return `${k} (cell ${Math.floor(k / 3)}): expected ${b[k]} got ${a[k]}`;
  return 'none';
}

function checkTrace(raw: unknown): MiniGridTrace {
  const t = raw as Partial<MiniGridTrace> | null;
  if (!t || typeof t !== 'object' || typeof t.name !== 'string') throw new GoldenFormatError('MiniGrid trace needs a name');
  if (!t.initial || typeof t.initial !== 'object' || !t.task || !t.initial_obs || !Array.isArray(t.actions) || !t.steps || typeof t.final_grid !== 'string') {
    throw new GoldenFormatError(`MiniGrid trace ${t.name} needs initial, task, initial_obs, actions, steps and final_grid`);
  }
  const n = t.actions.length;
  for (const key of ['image', 'direction', 'reward', 'terminated', 'truncated', 'agent_pos', 'agent_dir', 'carrying'] as const) {
    const col = (t.steps as unknown as Record<string, unknown>)[key];
    if (!Array.isArray(col) || col.length !== n) throw new GoldenFormatError(`MiniGrid trace ${t.name}: steps.${key} must have one entry per action (${n})`);
  }
  return t as MiniGridTrace;
}
