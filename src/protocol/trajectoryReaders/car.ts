/**
 * Reads `carracing-delta/1` trajectories (the layout `../carTrajectory.ts` defines) back into
 * plain steps, drawing each snapshot with the environment's own `carSnapshot`.
 */
import { z } from 'zod';
import { describeIssues } from '../documents';
import type { TrajectoryStep } from '../episodes';
import { carSnapshot, type CarPose } from '../carTrajectory';
import { poseStepFields } from './pose';

const hullTuple = z.tuple([z.number(), z.number(), z.number(), z.number(), z.number(), z.number()]);
const hullObject = z.object({ x: z.number(), y: z.number(), angle: z.number(), vx: z.number(), vy: z.number(), w: z.number() });
const wheelObject = z.object({ x: z.number(), y: z.number(), angle: z.number(), omega: z.number(), phase: z.number(), jointAngle: z.number() });
const tileIndices = z.array(z.number().int().nonnegative());
/** The step fields the Box2D pose layouts share, less `next`: CarRacing keeps no observation. */
const { next: _next, ...stepFields } = poseStepFields;

/** The header's `initialSnapshot`: the whole track, the tile count, the car after reset and the tiles visited during reset. */
export const carStartSchema = z.looseObject({
  track: z.array(z.object({ points: z.array(z.number()).length(8), tile: z.number().int().min(-1), kerb: z.enum(['red', 'white']).nullable() })),
  tileCount: z.number().int().nonnegative(),
  t: z.number(),
  hull: hullObject,
  wheels: z.array(wheelObject).length(4),
  visited: tileIndices,
});

/**
 * One step line: the action and its reward always, the flags only when true, `info` only when it
 * differs from the step before, then the car after the step (`t`, `hull`, `wheels` as rows) and
 * `visited`, the tiles touched for the first time in this step, only when there are any.
 */
export const carDeltaStepSchema = z.looseObject({
  ...stepFields,
  t: z.number(),
  hull: hullTuple,
  wheels: z.array(z.tuple([z.number(), z.number(), z.number(), z.number(), z.number(), z.number()])).length(4),
  visited: tileIndices.optional(),
});

/**
 * The plain trajectory of a `carracing-delta/1` one (steps without observations, as CarRacing's
 * plain steps are). Throws an Error naming the step when the data does not fit the format.
 */
export function expandCarSteps(initial: unknown, steps: readonly unknown[]): { initialSnapshot: unknown; steps: TrajectoryStep[] } {
  const start = carStartSchema.safeParse(initial);
  if (!start.success) throw new Error(`the header's initialSnapshot is not a CarRacing track (${describeIssues(start.error, 'initialSnapshot', 2)})`);
  const { track, tileCount } = start.data;
  const seen = new Set<number>(start.data.visited);
  const isVisited = (tile: number): boolean => seen.has(tile);
  const initialSnapshot = carSnapshot(track, tileCount, start.data, isVisited, seen.size);
  let info: Record<string, unknown> | undefined;
  const out = steps.map((raw, i) => {
    const parsed = carDeltaStepSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`step ${i + 1} is not a CarRacing step (${describeIssues(parsed.error, 'step', 2)})`);
    const s = parsed.data;
    if (s.info !== undefined) info = Object.keys(s.info).length === 0 ? undefined : s.info;
    for (const tile of s.visited ?? []) seen.add(tile);
    const [x, y, angle, vx, vy, w] = s.hull;
    const pose: CarPose = { t: s.t, hull: { x, y, angle, vx, vy, w }, wheels: s.wheels.map(([wx, wy, wa, omega, phase, jointAngle]) => ({ x: wx, y: wy, angle: wa, omega, phase, jointAngle })) };
    const step: TrajectoryStep = { action: s.action, reward: s.reward, terminated: s.terminated === true, truncated: s.truncated === true };
    if (info !== undefined) step.info = info;
    step.snapshot = carSnapshot(track, tileCount, pose, isVisited, seen.size);
    return step;
  });
  return { initialSnapshot, steps: out };
}
