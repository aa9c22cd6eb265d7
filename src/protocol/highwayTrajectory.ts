/**
 * Driving (HighwayEnv) trajectories as the runner stores them: the road and the vehicles once per
 * episode, then per step the observation, action, reward, `info` only when it changed, every
 * vehicle as a short row and the rest of the scene only when it changed. `expandHighwaySteps`
 * turns that back into the plain steps exactly as the environment produced them: the stored
 * rows are the snapshot's own (already rounded) numbers.
 *
 * Why not the plain form: each plain snapshot spelled out seven named fields per vehicle (50
 * vehicles on highway-v0) whose length and width never change, and repeated the view, road key
 * and parking goal at every step.
 */
import { z } from 'zod';
import { describeIssues } from './documents';
import type { TrajectoryStep } from './episodes';

/** The `format` of a trajectory written this way (header line and RecordedTrajectory). */
export const HIGHWAY_DELTA_FORMAT = 'highway-delta/1';

/** A vehicle as the replay snapshot holds it. */
export interface DrivingVehicle {
  x: number;
  y: number;
  h: number;
  l: number;
  w: number;
  v: number;
  c: boolean;
}

const vehicle = z.object({ x: z.number(), y: z.number(), h: z.number(), l: z.number(), w: z.number(), v: z.number(), c: z.boolean() });

/** The header's `initialSnapshot`: the plain snapshot after reset (road, lanes, vehicles). */
export const highwayStartSchema = z.looseObject({
  vehicles: z.array(vehicle),
});

/**
 * One step line: `observation` (as the policy saw it before the step; `observation32` instead when
 * all its values are float32, each spelled with the fewest digits that round back to it), the action and reward,
 * the flags only when true, `info` only when it differs from the step before, `vehicles` after
 * the step as [x, y, heading, speed] rows, `sizes` ([length, width] per vehicle) only when they
 * changed, `crashed` (the indices of crashed vehicles) only when any, and `changed` / `removed`:
 * the other snapshot keys (time, ego, goal…) that differ from the snapshot before.
 */
export const highwayDeltaStepSchema = z.looseObject({
  observation: z.unknown().optional(),
  observation32: z.array(z.number()).optional(),
  action: z.unknown(),
  reward: z.number(),
  terminated: z.boolean().optional(),
  truncated: z.boolean().optional(),
  info: z.record(z.string(), z.unknown()).optional(),
  vehicles: z.array(z.tuple([z.number(), z.number(), z.number(), z.number()])),
  sizes: z.array(z.tuple([z.number(), z.number()])).optional(),
  crashed: z.array(z.number().int().nonnegative()).optional(),
  changed: z.record(z.string(), z.unknown()).optional(),
  removed: z.array(z.string()).optional(),
});
type HighwayDeltaStep = z.infer<typeof highwayDeltaStepSchema>;

/**
 * The shortest decimal that rounds back to `v` in float32 (`v` must be float32-exact): the
 * Kinematics observations are float32 values, whose float64 spelling takes 17 digits for 8.
 */
export function float32Text(v: number): string {
  for (let p = 1; p < 9; p++) {
    const n = Number(v.toPrecision(p));
    if (Math.fround(n) === v) return `${n}`;
  }
  return `${Number(v.toPrecision(9))}`;
}

/**
 * The step line's observation field: `"observation32"` with float32 spellings when every value
 * is float32-exact (a Kinematics array), else `"observation"` as JSON (`json`, the plain
 * layout's writer).
 */
export function observationField(obs: unknown, json: (v: unknown) => string): string {
  if (obs instanceof Float64Array || obs instanceof Float32Array) {
    let exact = true;
    for (let i = 0; i < obs.length && exact; i++) exact = Math.fround(obs[i] as number) === obs[i];
    if (exact) {
      let s = '"observation32":[';
      for (let i = 0; i < obs.length; i++) s += `${i === 0 ? '' : ','}${float32Text(obs[i] as number)}`;
      return `${s}]`;
    }
  }
  return `"observation":${json(obs)}`;
}

/** The step line's scene fields for `snap` after `prev` (both plain snapshots), each after a comma. */
export function sceneDeltaFields(prev: Record<string, unknown>, snap: Record<string, unknown>): string {
  const vehicles = snap['vehicles'] as DrivingVehicle[];
  const before = prev['vehicles'] as DrivingVehicle[];
  let s = ',"vehicles":[';
  const crashed: number[] = [];
  let sameSizes = vehicles.length === before.length;
  vehicles.forEach((v, i) => {
    s += `${i === 0 ? '' : ','}[${v.x},${v.y},${v.h},${v.v}]`;
    if (v.c) crashed.push(i);
    const b = before[i];
    if (b === undefined || b.l !== v.l || b.w !== v.w) sameSizes = false;
  });
  s += ']';
  if (!sameSizes) s += `,"sizes":${JSON.stringify(vehicles.map((v) => [v.l, v.w]))}`;
  if (crashed.length > 0) s += `,"crashed":${JSON.stringify(crashed)}`;
  const changed: Record<string, unknown> = {};
  let any = false;
  for (const [k, v] of Object.entries(snap)) {
    if (k === 'vehicles' || JSON.stringify(v) === JSON.stringify(prev[k])) continue;
    changed[k] = v;
    any = true;
  }
  if (any) s += `,"changed":${JSON.stringify(changed)}`;
  const removed = Object.keys(prev).filter((k) => !(k in snap));
  if (removed.length > 0) s += `,"removed":${JSON.stringify(removed)}`;
  return s;
}

function applyScene(prev: Record<string, unknown>, s: HighwayDeltaStep, sizes: [number, number][], k: number): Record<string, unknown> {
  if (s.vehicles.length !== sizes.length) throw new Error(`step ${k} has ${s.vehicles.length} vehicles but ${sizes.length} sizes`);
  const crashed = new Set(s.crashed ?? []);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(prev)) if (key !== 'vehicles' && !(s.removed ?? []).includes(key)) out[key] = v;
  Object.assign(out, s.changed ?? {});
  out['vehicles'] = s.vehicles.map(([x, y, h, v], i): DrivingVehicle => ({ x, y, h, l: sizes[i]![0], w: sizes[i]![1], v, c: crashed.has(i) }));
  return out;
}

/**
 * The plain trajectory of a `highway-delta/1` one. Throws an Error naming the step when the data
 * does not fit the format.
 */
export function expandHighwaySteps(initial: unknown, steps: readonly unknown[]): { initialSnapshot: unknown; steps: TrajectoryStep[] } {
  const start = highwayStartSchema.safeParse(initial);
  if (!start.success) throw new Error(`the header's initialSnapshot is not a driving scene (${describeIssues(start.error, 'initialSnapshot', 2)})`);
  const initialSnapshot: Record<string, unknown> = start.data;
  let scene = initialSnapshot;
  let sizes = start.data.vehicles.map((v): [number, number] => [v.l, v.w]);
  let info: Record<string, unknown> | undefined;
  const out = steps.map((raw, i): TrajectoryStep => {
    const parsed = highwayDeltaStepSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`step ${i + 1} is not a driving step (${describeIssues(parsed.error, 'step', 2)})`);
    const s = parsed.data;
    if (s.info !== undefined) info = Object.keys(s.info).length === 0 ? undefined : s.info;
    if (s.sizes !== undefined) sizes = s.sizes;
    scene = applyScene(scene, s, sizes, i + 1);
    const observation = s.observation32 !== undefined ? s.observation32.map((v) => Math.fround(v)) : s.observation;
    const step: TrajectoryStep = { observation, action: s.action, reward: s.reward, terminated: s.terminated === true, truncated: s.truncated === true };
    if (info !== undefined) step.info = info;
    step.snapshot = scene;
    return step;
  });
  return { initialSnapshot, steps: out };
}
