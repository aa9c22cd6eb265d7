/** Gymnasium's MuJoCo v5 forward runners on a plane: HalfCheetah, Hopper, Walker2d, Swimmer. */
import type { Info } from '../core/env';
import { MujocoEnv, copyInto, sumSquares, clip, type ModelInfo, type Simulation, type TaskStep } from './mujocoEnv';
import { MODELS, type PositionsStructure } from './models';

export interface PlanarOptions {
  frame_skip: number;
  forward_reward_weight: number;
  ctrl_cost_weight: number;
  reset_noise_scale: number;
  exclude_current_positions_from_observation: boolean;
}

export class HalfCheetahEnv extends MujocoEnv {
  readonly rewardTerms = ['reward_forward', 'reward_ctrl'];
  readonly structure: PositionsStructure;
  constructor(readonly o: PlanarOptions) {
    const skip = o.exclude_current_positions_from_observation ? 1 : 0;
    super(MODELS.halfCheetah, o.frame_skip, MODELS.halfCheetah.nq + MODELS.halfCheetah.nv - skip);
    this.structure = { skipped_qpos: skip, qpos: MODELS.halfCheetah.nq - skip, qvel: MODELS.halfCheetah.nv };
  }
  protected resetModel(sim: Simulation): void {
    const qpos = this.uniformAround(sim.initQpos, this.o.reset_noise_scale);
    const qvel = this.normalAround(new Float64Array(sim.qvel.length), this.o.reset_noise_scale);
    sim.setState(qpos, qvel);
  }
  protected observe(sim: Simulation, out: Float64Array): void {
    copyInto(out, copyInto(out, 0, sim.qpos, this.structure.skipped_qpos), sim.qvel);
  }
  protected advance(sim: Simulation, action: ArrayLike<number>): TaskStep {
    const before = sim.views().qpos[0] as number;
    sim.simulate(action, this.frameSkip);
    const after = sim.qpos[0] as number;
    const xVelocity = (after - before) / this.dt;
    const forward = this.o.forward_reward_weight * xVelocity;
    const ctrlCost = this.o.ctrl_cost_weight * sumSquares(action);
    return { reward: forward - ctrlCost, terminated: false, info: { x_position: after, x_velocity: xVelocity, reward_forward: forward, reward_ctrl: -ctrlCost } };
  }
  protected override resetInfo(sim: Simulation): Info {
    return { x_position: sim.views().qpos[0] };
  }
}

export interface HopperOptions extends PlanarOptions {
  healthy_reward: number;
  terminate_when_unhealthy: boolean;
  healthy_state_range_min: number;
  healthy_state_range_max: number;
  healthy_z_range_min: number;
  healthy_z_range_max: number;
  healthy_angle_range_min: number;
  healthy_angle_range_max: number;
}

/** Hopper and Walker2d: one planar hopping/walking body, velocities clipped to ±10 in the observation. */
abstract class PlanarWalker extends MujocoEnv {
  readonly rewardTerms = ['reward_forward', 'reward_ctrl', 'reward_survive'];
  readonly structure: PositionsStructure;
  constructor(info: ModelInfo, readonly o: PlanarOptions & { healthy_reward: number; terminate_when_unhealthy: boolean }) {
    const skip = o.exclude_current_positions_from_observation ? 1 : 0;
    super(info, o.frame_skip, info.nq + info.nv - skip);
    this.structure = { skipped_qpos: skip, qpos: info.nq - skip, qvel: info.nv };
  }
  abstract isHealthy(sim: Simulation): boolean;
  protected resetModel(sim: Simulation): void {
    const s = this.o.reset_noise_scale;
    const qpos = this.uniformAround(sim.initQpos, s);
    const qvel = this.uniformAround(new Float64Array(sim.qvel.length), s);
    sim.setState(qpos, qvel);
  }
  protected observe(sim: Simulation, out: Float64Array): void {
    let k = copyInto(out, 0, sim.qpos, this.structure.skipped_qpos);
    for (let i = 0; i < sim.qvel.length; i++) out[k++] = clip(sim.qvel[i] as number, -10, 10);
  }
  protected advance(sim: Simulation, action: ArrayLike<number>): TaskStep {
    const before = sim.views().qpos[0] as number;
    sim.simulate(action, this.frameSkip);
    const after = sim.qpos[0] as number;
    const xVelocity = (after - before) / this.dt;
    const healthy = this.isHealthy(sim);
    const forward = this.o.forward_reward_weight * xVelocity;
    const survive = healthy ? this.o.healthy_reward : 0;
    const ctrlCost = this.o.ctrl_cost_weight * sumSquares(action);
    return {
      reward: forward + survive - ctrlCost,
      terminated: !healthy && this.o.terminate_when_unhealthy,
      info: { x_position: after, z_distance_from_origin: (sim.qpos[1] as number) - (sim.initQpos[1] as number), x_velocity: xVelocity, reward_forward: forward, reward_ctrl: -ctrlCost, reward_survive: survive },
    };
  }
  protected override resetInfo(sim: Simulation): Info {
    const q = sim.views().qpos;
    return { x_position: q[0], z_distance_from_origin: (q[1] as number) - (sim.initQpos[1] as number) };
  }
}

export class HopperEnv extends PlanarWalker {
  constructor(readonly h: HopperOptions) {
    super(MODELS.hopper, h);
  }
  isHealthy(sim: Simulation): boolean {
    const { qpos, qvel } = sim.views();
    const h = this.h;
    for (let i = 2; i < qpos.length; i++) if (!(h.healthy_state_range_min < (qpos[i] as number) && (qpos[i] as number) < h.healthy_state_range_max)) return false;
    for (let i = 0; i < qvel.length; i++) if (!(h.healthy_state_range_min < (qvel[i] as number) && (qvel[i] as number) < h.healthy_state_range_max)) return false;
    const z = qpos[1] as number;
    const angle = qpos[2] as number;
    return h.healthy_z_range_min < z && z < h.healthy_z_range_max && h.healthy_angle_range_min < angle && angle < h.healthy_angle_range_max;
  }
}

export type Walker2dOptions = Omit<HopperOptions, 'healthy_state_range_min' | 'healthy_state_range_max'>;

export class Walker2dEnv extends PlanarWalker {
  constructor(readonly w: Walker2dOptions) {
    super(MODELS.walker2d, w);
  }
  isHealthy(sim: Simulation): boolean {
    const q = sim.views().qpos;
    const z = q[1] as number;
    const angle = q[2] as number;
    const w = this.w;
    return w.healthy_z_range_min < z && z < w.healthy_z_range_max && w.healthy_angle_range_min < angle && angle < w.healthy_angle_range_max;
  }
}

export class SwimmerEnv extends MujocoEnv {
  readonly rewardTerms = ['reward_forward', 'reward_ctrl'];
  readonly structure: PositionsStructure;
  constructor(readonly o: PlanarOptions) {
    const skip = o.exclude_current_positions_from_observation ? 2 : 0;
    super(MODELS.swimmer, o.frame_skip, MODELS.swimmer.nq + MODELS.swimmer.nv - skip);
    this.structure = { skipped_qpos: skip, qpos: MODELS.swimmer.nq - skip, qvel: MODELS.swimmer.nv };
  }
  protected resetModel(sim: Simulation): void {
    const s = this.o.reset_noise_scale;
    sim.setState(this.uniformAround(sim.initQpos, s), this.uniformAround(new Float64Array(sim.qvel.length), s));
  }
  protected observe(sim: Simulation, out: Float64Array): void {
    copyInto(out, copyInto(out, 0, sim.qpos, this.structure.skipped_qpos), sim.qvel);
  }
  protected advance(sim: Simulation, action: ArrayLike<number>): TaskStep {
    const q0 = sim.views().qpos;
    const x0 = q0[0] as number;
    const y0 = q0[1] as number;
    sim.simulate(action, this.frameSkip);
    const x1 = sim.qpos[0] as number;
    const y1 = sim.qpos[1] as number;
    const xVelocity = (x1 - x0) / this.dt;
    const yVelocity = (y1 - y0) / this.dt;
    const forward = this.o.forward_reward_weight * xVelocity;
    const ctrlCost = this.o.ctrl_cost_weight * sumSquares(action);
    return {
      reward: forward - ctrlCost,
      terminated: false,
      info: { x_position: x1, y_position: y1, distance_from_origin: Math.hypot(x1, y1), x_velocity: xVelocity, y_velocity: yVelocity, reward_forward: forward, reward_ctrl: -ctrlCost },
    };
  }
  protected override resetInfo(sim: Simulation): Info {
    const q = sim.views().qpos;
    return { x_position: q[0], y_position: q[1], distance_from_origin: Math.hypot(q[0] as number, q[1] as number) };
  }
}
