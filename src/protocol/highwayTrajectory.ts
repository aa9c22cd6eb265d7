/**
 * Driving (HighwayEnv) trajectories as the runner stores them: the road and the vehicles once per
 * episode, then per step the observation, action, reward, `info` only when it changed, every
 * vehicle as a short row and the rest of the scene only when it changed. This module is what the
 * environments write with; `trajectoryReaders/highway.ts` turns that back into the plain steps
 * exactly as the environment produced them: the stored rows are the snapshot's own (already
 * rounded) numbers.
 *
 * Why not the plain form: each plain snapshot spelled out seven named fields per vehicle (50
 * vehicles on highway-v0) whose length and width never change, and repeated the view, road key
 * and parking goal at every step.
 */

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
