/**
 * Failure returns of the MuJoCo tasks (see src/envs/core/failureReturn.ts). Gymnasium bounds none
 * of these rewards from below: forward-velocity terms have no floor. Each task declares its step
 * limit × the worst step it can plausibly take: full actuation's control cost at every step, the
 * largest contact or impact cost the task clips to, distance terms at the span of the model's
 * workspace, and a backward speed (`BACKWARD_SPEED`) beyond what the model reaches under its
 * actuator limits. A failure never scores above its partial return, so the bound only needs to
 * sit below what finished episodes get.
 */
import type { ParamValues } from '../core/params';

/** Backward speed (m/s) no locomotion model here reaches; the swimmer in its viscous fluid far less. */
const BACKWARD_SPEED = { runner: 20, walker: 10, swimmer: 1 } as const;

const n = (p: ParamValues, name: string): number => p[name] as number;

/** Control cost at full actuation: weight × Σ a_max² over the actuators. */
const fullControl = (weight: number, actuators: number, limit: number): number => weight * actuators * limit * limit;

/** A locomotion task's worst step: backward at `speed`, full control cost, plus any fixed cost. */
const locomotion = (speed: number, actuators: number, limit: number, steps: number, extra: (p: ParamValues) => number = () => 0) =>
  (p: ParamValues): number => -steps * (n(p, 'forward_reward_weight') * speed + fullControl(n(p, 'ctrl_cost_weight'), actuators, limit) + extra(p));

export const mujocoFailureReturns: Readonly<Record<string, (p: ParamValues) => number>> = {
  // Fingertip and target both within 0.21 m of the base: distance at most 0.42, rounded to 0.5.
  'Reacher-v5': (p) => -50 * (n(p, 'reward_dist_weight') * 0.5 + fullControl(n(p, 'reward_control_weight'), 2, 1)),
  // Fingertip, object and goal on a table about 1.5 m across.
  'Pusher-v5': (p) => -100 * ((n(p, 'reward_near_weight') + n(p, 'reward_dist_weight')) * 1.5 + fullControl(n(p, 'reward_control_weight'), 7, 2)),
  'HalfCheetah-v5': locomotion(BACKWARD_SPEED.runner, 6, 1, 1000),
  // Contact forces are clipped to ±1 on 14 bodies × 6 components.
  'Ant-v5': locomotion(BACKWARD_SPEED.walker, 8, 1, 1000, (p) => n(p, 'contact_cost_weight') * 84 * Math.max(n(p, 'contact_force_range_min') ** 2, n(p, 'contact_force_range_max') ** 2)),
  'Hopper-v5': locomotion(BACKWARD_SPEED.walker, 3, 1, 1000),
  'Walker2d-v5': locomotion(BACKWARD_SPEED.walker, 6, 1, 1000),
  'Swimmer-v5': locomotion(BACKWARD_SPEED.swimmer, 2, 1, 1000),
  // The contact cost is clipped to its range's upper end.
  'Humanoid-v5': locomotion(BACKWARD_SPEED.walker, 17, 0.4, 1000, (p) => Math.max(0, n(p, 'contact_cost_range_max'))),
  // +1 per step while upright, nothing else: an episode that fails at once returns 0.
  'InvertedPendulum-v5': () => 0,
  // The alive bonus is withheld on the last step, whose distance penalty is at most 0.01·1² + 1²
  // on the rail; its velocity penalty is declared at most 9 (the poles' speed under their limits).
  'InvertedDoublePendulum-v5': () => -10,
  // The height term is never negative; +1 per step; control cost and the impact cost, clipped.
  'HumanoidStandup-v5': (p) => -1000 * Math.max(0, fullControl(n(p, 'ctrl_cost_weight'), 17, 0.4) + Math.max(0, n(p, 'impact_cost_range_max')) - 1),
};
