/**
 * Reads `highway-delta/1` trajectories (the layout `../highwayTrajectory.ts` defines) back into
 * plain steps: the scene is rebuilt step by step from the vehicle rows and the changed fields.
 */
import { z } from 'zod';
import { describeIssues } from '../documents';
import type { TrajectoryStep } from '../episodes';
import type { DrivingVehicle } from '../highwayTrajectory';

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
