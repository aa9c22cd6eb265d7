/**
 * Trajectories cross the IPC channel column-wise: numeric observations, rewards and flags as
 * base64 float64/uint8 bytes instead of JSON text. Printing and parsing 17-digit decimals was
 * most of a batch's cost (the host parses every worker's records on one thread); bytes are
 * exact, so records stay bit-identical.
 */
import type { Trajectory, TrajectoryStep } from '../../protocol/episodes';

export interface WireTrajectory {
  n: number;
  truncated: boolean;
  initialSnapshot?: unknown;
  /** Set when every observation is an array of `obsDim` numbers: base64 of n·obsDim float64. */
  obsDim?: number;
  obs?: string;
  /** Otherwise the observations as JSON values. */
  obsJson?: unknown[];
  actions: unknown[];
  rewards: string;
  /** bit 0 terminated, bit 1 truncated. */
  flags: string;
  /** [step index, info] for the steps that have one. */
  infos?: [number, Record<string, unknown>][];
  /** Per step, null where a step has none. */
  snapshots?: unknown[];
}

const toBase64 = (a: ArrayBufferView): string => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');

export function packTrajectory(t: Trajectory): WireTrajectory {
  const steps = t.steps;
  const n = steps.length;
  const rewards = new Float64Array(n);
  const flags = new Uint8Array(n);
  const actions: unknown[] = new Array<unknown>(n);
  const first = steps[0]?.observation;
  const dim = Array.isArray(first) ? first.length : -1;
  let numeric = dim >= 0;
  const obs = numeric ? new Float64Array(n * dim) : undefined;
  let infos: [number, Record<string, unknown>][] | undefined;
  let snapshots: unknown[] | undefined;
  for (let i = 0; i < n; i++) {
    const s = steps[i] as TrajectoryStep;
    rewards[i] = s.reward;
    flags[i] = (s.terminated ? 1 : 0) | (s.truncated ? 2 : 0);
    actions[i] = s.action;
    if (s.info) (infos ??= []).push([i, s.info]);
    if (s.snapshot !== undefined && s.snapshot !== null) (snapshots ??= new Array<unknown>(n).fill(null))[i] = s.snapshot;
    if (numeric && obs) {
      const o = s.observation as unknown[];
      if (!Array.isArray(o) || o.length !== dim) numeric = false;
      else for (let j = 0; j < dim; j++) {
        const v = o[j];
        if (typeof v !== 'number') {
          numeric = false;
          break;
        }
        obs[i * dim + j] = v;
      }
    }
  }
  const wire: WireTrajectory = { n, truncated: t.truncated, actions, rewards: toBase64(rewards), flags: toBase64(flags) };
  if (t.initialSnapshot !== undefined) wire.initialSnapshot = t.initialSnapshot;
  if (numeric && obs) {
    wire.obsDim = dim;
    wire.obs = toBase64(obs);
  } else {
    wire.obsJson = steps.map((s) => s.observation);
  }
  if (infos) wire.infos = infos;
  if (snapshots) wire.snapshots = snapshots;
  return wire;
}

export function unpackTrajectory(w: WireTrajectory): Trajectory {
  const rewards = floats(w.rewards);
  const flags = Buffer.from(w.flags, 'base64');
  const obs = w.obs !== undefined ? floats(w.obs) : undefined;
  const dim = w.obsDim ?? 0;
  const infos = new Map(w.infos ?? []);
  const steps: TrajectoryStep[] = new Array<TrajectoryStep>(w.n);
  for (let i = 0; i < w.n; i++) {
    const f = flags[i] ?? 0;
    let observation: unknown;
    if (obs) {
      const o: number[] = [];
      for (let j = 0; j < dim; j++) o.push(obs[i * dim + j] as number);
      observation = o;
    } else {
      observation = w.obsJson?.[i];
    }
    const step: TrajectoryStep = {
      observation,
      action: w.actions[i],
      reward: rewards[i] as number,
      terminated: (f & 1) !== 0,
      truncated: (f & 2) !== 0,
    };
    const info = infos.get(i);
    if (info) step.info = info;
    const snap = w.snapshots?.[i];
    if (snap !== undefined && snap !== null) step.snapshot = snap;
    steps[i] = step;
  }
  const t: Trajectory = { steps, truncated: w.truncated };
  if (w.initialSnapshot !== undefined) t.initialSnapshot = w.initialSnapshot;
  return t;
}

function floats(b64: string): Float64Array {
  const bytes = Buffer.from(b64, 'base64');
  // Copy into an aligned buffer: Buffer slices may start at any byte offset.
  const out = new Float64Array(bytes.byteLength / 8);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}
