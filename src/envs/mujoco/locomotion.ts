/**
 * Gymnasium's MuJoCo v5 tasks, one class each. Every constructor argument of Gymnasium v5 is an
 * option here with its default; tuple arguments (ranges) are split into `_min` and `_max`, and an
 * unbounded end is ±Number.MAX_VALUE (parameters are JSON numbers; the comparisons come out the
 * same as with infinities for any finite state).
 */
import type { Info } from '../core/env';
import { MujocoEnv, sumSquares, type ModelInfo, type Simulation, type TaskStep } from './mujocoEnv';

export const MODELS = {
  ant: { file: 'gymnasium/ant.xml', nq: 15, nv: 14, nu: 8, nbody: 14, ctrlLimit: 1, timestep: 0.01, view: { track: 'torso', distance: 4 } },
  halfCheetah: { file: 'gymnasium/half_cheetah.xml', nq: 9, nv: 9, nu: 6, nbody: 8, ctrlLimit: 1, timestep: 0.01, view: { track: 'torso', distance: 4 } },
  hopper: { file: 'gymnasium/hopper.xml', nq: 6, nv: 6, nu: 3, nbody: 5, ctrlLimit: 1, timestep: 0.002, view: { track: 'torso', distance: 3 } },
  humanoid: { file: 'gymnasium/humanoid.xml', nq: 24, nv: 23, nu: 17, nbody: 14, ctrlLimit: 0.4, timestep: 0.003, view: { track: 'torso', distance: 4 } },
  humanoidStandup: { file: 'gymnasium/humanoidstandup.xml', nq: 24, nv: 23, nu: 17, nbody: 14, ctrlLimit: 0.4, timestep: 0.003, view: { track: 'torso', distance: 4 } },
  invertedDoublePendulum: { file: 'gymnasium/inverted_double_pendulum.xml', nq: 3, nv: 3, nu: 1, nbody: 4, ctrlLimit: 1, timestep: 0.01, view: { lookat: [0, 0, 0.5], distance: 4.1 } },
  invertedPendulum: { file: 'gymnasium/inverted_pendulum.xml', nq: 2, nv: 2, nu: 1, nbody: 3, ctrlLimit: 3, timestep: 0.02, view: { lookat: [0, 0, 0.3], distance: 2.5 } },
  pusher: { file: 'gymnasium/pusher_v5.xml', nq: 11, nv: 11, nu: 7, nbody: 13, ctrlLimit: 2, timestep: 0.01, view: { lookat: [0.2, -0.3, 0], distance: 2.5 } },
  reacher: { file: 'gymnasium/reacher.xml', nq: 4, nv: 4, nu: 2, nbody: 5, ctrlLimit: 1, timestep: 0.01, view: { lookat: [0, 0, 0], distance: 0.9 } },
  swimmer: { file: 'gymnasium/swimmer.xml', nq: 5, nv: 5, nu: 2, nbody: 4, ctrlLimit: 1, timestep: 0.01, view: { track: 'torso', distance: 3 } },
  walker2d: { file: 'gymnasium/walker2d_v5.xml', nq: 9, nv: 9, nu: 6, nbody: 8, ctrlLimit: 1, timestep: 0.002, view: { track: 'torso', distance: 4 } },
} as const satisfies Record<string, ModelInfo>;

const clip = (v: number, lo: number, hi: number): number => (v < lo ? lo : v > hi ? hi : v);

/** Gymnasium's `observation_structure`: how many values each part contributes, in order. */
export type ObservationStructure = Readonly<Record<string, number>>;

// ---------------------------------------------------------------------------------------------
// Forward runners on a plane: HalfCheetah, Hopper, Walker2d, Swimmer.

export interface PlanarOptions {
  frame_skip: number;
  forward_reward_weight: number;
  ctrl_cost_weight: number;
  reset_noise_scale: number;
  exclude_current_positions_from_observation: boolean;
}

export class HalfCheetahEnv extends MujocoEnv {
  readonly rewardTerms = ['reward_forward', 'reward_ctrl'];
  readonly structure: ObservationStructure;
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
    const skip = this.o.exclude_current_positions_from_observation ? 1 : 0;
    let k = 0;
    for (let i = skip; i < sim.qpos.length; i++) out[k++] = sim.qpos[i] as number;
    for (let i = 0; i < sim.qvel.length; i++) out[k++] = sim.qvel[i] as number;
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
  readonly structure: ObservationStructure;
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
    const skip = this.o.exclude_current_positions_from_observation ? 1 : 0;
    let k = 0;
    for (let i = skip; i < sim.qpos.length; i++) out[k++] = sim.qpos[i] as number;
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
  readonly structure: ObservationStructure;
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
    const skip = this.o.exclude_current_positions_from_observation ? 2 : 0;
    let k = 0;
    for (let i = skip; i < sim.qpos.length; i++) out[k++] = sim.qpos[i] as number;
    for (let i = 0; i < sim.qvel.length; i++) out[k++] = sim.qvel[i] as number;
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

// ---------------------------------------------------------------------------------------------
// Ant

export interface AntOptions extends PlanarOptions {
  contact_cost_weight: number;
  healthy_reward: number;
  main_body: number;
  terminate_when_unhealthy: boolean;
  healthy_z_range_min: number;
  healthy_z_range_max: number;
  contact_force_range_min: number;
  contact_force_range_max: number;
  include_cfrc_ext_in_observation: boolean;
}

export class AntEnv extends MujocoEnv {
  readonly rewardTerms = ['reward_forward', 'reward_ctrl', 'reward_contact', 'reward_survive'];
  readonly structure: ObservationStructure;
  constructor(readonly o: AntOptions) {
    const m = MODELS.ant;
    const skip = o.exclude_current_positions_from_observation ? 2 : 0;
    const cfrc = o.include_cfrc_ext_in_observation ? (m.nbody - 1) * 6 : 0;
    super(m, o.frame_skip, m.nq + m.nv - skip + cfrc);
    if (!(o.main_body >= 0 && o.main_body < m.nbody)) throw new RangeError(`Ant-v5: main_body must be a body id in 0..${m.nbody - 1}`);
    this.structure = { skipped_qpos: skip, qpos: m.nq - skip, qvel: m.nv, cfrc_ext: cfrc };
  }
  isHealthy(sim: Simulation): boolean {
    const { qpos, qvel } = sim.views();
    for (let i = 0; i < qpos.length; i++) if (!Number.isFinite(qpos[i])) return false;
    for (let i = 0; i < qvel.length; i++) if (!Number.isFinite(qvel[i])) return false;
    const z = qpos[2] as number;
    return this.o.healthy_z_range_min <= z && z <= this.o.healthy_z_range_max;
  }
  /** Σ clip(cfrc_ext)² over every body, the world included (as Gymnasium sums it). */
  contactCost(sim: Simulation): number {
    const f = sim.views().cfrcExt;
    let s = 0;
    for (let i = 0; i < f.length; i++) {
      const c = clip(f[i] as number, this.o.contact_force_range_min, this.o.contact_force_range_max);
      s += c * c;
    }
    return this.o.contact_cost_weight * s;
  }
  protected resetModel(sim: Simulation): void {
    const s = this.o.reset_noise_scale;
    sim.setState(this.uniformAround(sim.initQpos, s), this.normalAround(new Float64Array(sim.qvel.length), s));
  }
  protected observe(sim: Simulation, out: Float64Array): void {
    const skip = this.o.exclude_current_positions_from_observation ? 2 : 0;
    let k = 0;
    for (let i = skip; i < sim.qpos.length; i++) out[k++] = sim.qpos[i] as number;
    for (let i = 0; i < sim.qvel.length; i++) out[k++] = sim.qvel[i] as number;
    if (this.o.include_cfrc_ext_in_observation) {
      const f = sim.cfrcExt;
      for (let i = 6; i < f.length; i++) out[k++] = clip(f[i] as number, this.o.contact_force_range_min, this.o.contact_force_range_max);
    }
  }
  protected advance(sim: Simulation, action: ArrayLike<number>): TaskStep {
    const b = this.o.main_body * 3;
    const x0 = sim.views().xpos[b] as number;
    const y0 = sim.xpos[b + 1] as number;
    sim.simulate(action, this.frameSkip);
    const xVelocity = ((sim.xpos[b] as number) - x0) / this.dt;
    const yVelocity = ((sim.xpos[b + 1] as number) - y0) / this.dt;
    const healthy = this.isHealthy(sim);
    const forward = xVelocity * this.o.forward_reward_weight;
    const survive = healthy ? this.o.healthy_reward : 0;
    const ctrlCost = this.o.ctrl_cost_weight * sumSquares(action);
    const contactCost = this.contactCost(sim);
    const q = sim.qpos;
    return {
      reward: forward + survive - ctrlCost - contactCost,
      terminated: !healthy && this.o.terminate_when_unhealthy,
      info: {
        x_position: q[0],
        y_position: q[1],
        distance_from_origin: Math.hypot(q[0] as number, q[1] as number),
        x_velocity: xVelocity,
        y_velocity: yVelocity,
        reward_forward: forward,
        reward_ctrl: -ctrlCost,
        reward_contact: -contactCost,
        reward_survive: survive,
      },
    };
  }
  protected override resetInfo(sim: Simulation): Info {
    const q = sim.views().qpos;
    return { x_position: q[0], y_position: q[1], distance_from_origin: Math.hypot(q[0] as number, q[1] as number) };
  }
}

// ---------------------------------------------------------------------------------------------
// Humanoid and HumanoidStandup

export interface HumanoidObservationOptions {
  frame_skip: number;
  reset_noise_scale: number;
  exclude_current_positions_from_observation: boolean;
  include_cinert_in_observation: boolean;
  include_cvel_in_observation: boolean;
  include_qfrc_actuator_in_observation: boolean;
  include_cfrc_ext_in_observation: boolean;
}

abstract class HumanoidBase extends MujocoEnv {
  readonly structure: ObservationStructure;
  constructor(info: ModelInfo, readonly ho: HumanoidObservationOptions) {
    const skip = ho.exclude_current_positions_from_observation ? 2 : 0;
    const bodies = info.nbody - 1;
    const structure = {
      skipped_qpos: skip,
      qpos: info.nq - skip,
      qvel: info.nv,
      cinert: ho.include_cinert_in_observation ? bodies * 10 : 0,
      cvel: ho.include_cvel_in_observation ? bodies * 6 : 0,
      qfrc_actuator: ho.include_qfrc_actuator_in_observation ? info.nv - 6 : 0,
      cfrc_ext: ho.include_cfrc_ext_in_observation ? bodies * 6 : 0,
      ten_length: 0,
      ten_velocity: 0,
    };
    super(info, ho.frame_skip, structure.qpos + structure.qvel + structure.cinert + structure.cvel + structure.qfrc_actuator + structure.cfrc_ext);
    this.structure = structure;
  }
  protected resetModel(sim: Simulation): void {
    const s = this.ho.reset_noise_scale;
    sim.setState(this.uniformAround(sim.initQpos, s), this.uniformAround(new Float64Array(sim.qvel.length), s));
  }
  protected observe(sim: Simulation, out: Float64Array): void {
    const ho = this.ho;
    let k = 0;
    const copy = (a: Float64Array, from: number): void => {
      for (let i = from; i < a.length; i++) out[k++] = a[i] as number;
    };
    copy(sim.qpos, ho.exclude_current_positions_from_observation ? 2 : 0);
    copy(sim.qvel, 0);
    if (ho.include_cinert_in_observation) copy(sim.cinert, 10);
    if (ho.include_cvel_in_observation) copy(sim.cvel, 6);
    if (ho.include_qfrc_actuator_in_observation) copy(sim.qfrcActuator, 6);
    if (ho.include_cfrc_ext_in_observation) copy(sim.cfrcExt, 6);
  }
  protected tendons(sim: Simulation): { tendon_length: number[]; tendon_velocity: number[] } {
    return { tendon_length: [...sim.views().tenLength], tendon_velocity: [...sim.tenVelocity] };
  }
}

/** Centre of mass of all bodies in the horizontal plane (Gymnasium's `mass_center`). */
export function massCenter(sim: Simulation): [number, number] {
  const m = sim.bodyMass;
  const p = sim.views().xipos;
  let total = 0;
  let x = 0;
  let y = 0;
  for (let b = 0; b < m.length; b++) {
    const w = m[b] as number;
    total += w;
    x += w * (p[3 * b] as number);
    y += w * (p[3 * b + 1] as number);
  }
  return [x / total, y / total];
}

export interface HumanoidOptions extends HumanoidObservationOptions {
  forward_reward_weight: number;
  ctrl_cost_weight: number;
  contact_cost_weight: number;
  contact_cost_range_min: number;
  contact_cost_range_max: number;
  healthy_reward: number;
  terminate_when_unhealthy: boolean;
  healthy_z_range_min: number;
  healthy_z_range_max: number;
}

export class HumanoidEnv extends HumanoidBase {
  readonly rewardTerms = ['reward_forward', 'reward_ctrl', 'reward_contact', 'reward_survive'];
  constructor(readonly o: HumanoidOptions) {
    super(MODELS.humanoid, o);
  }
  isHealthy(sim: Simulation): boolean {
    const z = sim.views().qpos[2] as number;
    return this.o.healthy_z_range_min < z && z < this.o.healthy_z_range_max;
  }
  contactCost(sim: Simulation): number {
    return clip(this.o.contact_cost_weight * sumSquares(sim.views().cfrcExt), this.o.contact_cost_range_min, this.o.contact_cost_range_max);
  }
  protected advance(sim: Simulation, action: ArrayLike<number>): TaskStep {
    const [x0, y0] = massCenter(sim);
    sim.simulate(action, this.frameSkip);
    const [x1, y1] = massCenter(sim);
    const xVelocity = (x1 - x0) / this.dt;
    const yVelocity = (y1 - y0) / this.dt;
    const healthy = this.isHealthy(sim);
    const forward = this.o.forward_reward_weight * xVelocity;
    const survive = healthy ? this.o.healthy_reward : 0;
    const ctrlCost = this.o.ctrl_cost_weight * sumSquares(sim.ctrl);
    const contactCost = this.contactCost(sim);
    const q = sim.qpos;
    return {
      reward: forward + survive - ctrlCost - contactCost,
      terminated: !healthy && this.o.terminate_when_unhealthy,
      info: {
        x_position: q[0],
        y_position: q[1],
        ...this.tendons(sim),
        distance_from_origin: Math.hypot(q[0] as number, q[1] as number),
        x_velocity: xVelocity,
        y_velocity: yVelocity,
        reward_survive: survive,
        reward_forward: forward,
        reward_ctrl: -ctrlCost,
        reward_contact: -contactCost,
      },
    };
  }
  protected override resetInfo(sim: Simulation): Info {
    const q = sim.views().qpos;
    return { x_position: q[0], y_position: q[1], ...this.tendons(sim), distance_from_origin: Math.hypot(q[0] as number, q[1] as number) };
  }
}

export interface HumanoidStandupOptions extends HumanoidObservationOptions {
  uph_cost_weight: number;
  ctrl_cost_weight: number;
  impact_cost_weight: number;
  impact_cost_range_min: number;
  impact_cost_range_max: number;
}

export class HumanoidStandupEnv extends HumanoidBase {
  readonly rewardTerms = ['reward_linup', 'reward_quadctrl', 'reward_impact'];
  constructor(readonly o: HumanoidStandupOptions) {
    super(MODELS.humanoidStandup, o);
  }
  protected advance(sim: Simulation, action: ArrayLike<number>): TaskStep {
    sim.simulate(action, this.frameSkip);
    const q = sim.qpos;
    // Gymnasium documents uph_cost_weight in the reward; with its default of 1 both readings agree.
    const uph = (this.o.uph_cost_weight * (q[2] as number)) / this.info.timestep;
    const ctrlCost = this.o.ctrl_cost_weight * sumSquares(sim.ctrl);
    const impact = clip(this.o.impact_cost_weight * sumSquares(sim.cfrcExt), this.o.impact_cost_range_min, this.o.impact_cost_range_max);
    return {
      reward: uph - ctrlCost - impact + 1,
      terminated: false,
      info: {
        x_position: q[0],
        y_position: q[1],
        z_distance_from_origin: (q[2] as number) - (sim.initQpos[2] as number),
        ...this.tendons(sim),
        reward_linup: uph,
        reward_quadctrl: -ctrlCost,
        reward_impact: -impact,
      },
    };
  }
  protected override resetInfo(sim: Simulation): Info {
    const q = sim.views().qpos;
    return { x_position: q[0], y_position: q[1], z_distance_from_origin: (q[2] as number) - (sim.initQpos[2] as number), ...this.tendons(sim) };
  }
}

// ---------------------------------------------------------------------------------------------
// Pendulums on a cart

export class InvertedPendulumEnv extends MujocoEnv {
  readonly rewardTerms = ['reward_survive'];
  readonly structure: ObservationStructure = { qpos: MODELS.invertedPendulum.nq, qvel: MODELS.invertedPendulum.nv };
  constructor(readonly o: { frame_skip: number; reset_noise_scale: number }) {
    super(MODELS.invertedPendulum, o.frame_skip, 4);
  }
  protected resetModel(sim: Simulation): void {
    const s = this.o.reset_noise_scale;
    sim.setState(this.uniformAround(sim.initQpos, s), this.uniformAround(new Float64Array(sim.qvel.length), s));
  }
  protected observe(sim: Simulation, out: Float64Array): void {
    out[0] = sim.qpos[0] as number;
    out[1] = sim.qpos[1] as number;
    out[2] = sim.qvel[0] as number;
    out[3] = sim.qvel[1] as number;
  }
  protected advance(sim: Simulation, action: ArrayLike<number>): TaskStep {
    sim.simulate(action, this.frameSkip);
    const o = this.obs;
    this.observe(sim, o);
    const terminated = !o.every(Number.isFinite) || Math.abs(o[1] as number) > 0.2;
    const reward = terminated ? 0 : 1;
    return { reward, terminated, info: { reward_survive: reward } };
  }
}

export class InvertedDoublePendulumEnv extends MujocoEnv {
  readonly rewardTerms = ['reward_survive', 'distance_penalty', 'velocity_penalty'];
  readonly structure: ObservationStructure = { qpos: 1, sin_qpos: 2, cos_qpos: 2, qvel: 3, qfrc_constraint: 1 };
  constructor(readonly o: { frame_skip: number; healthy_reward: number; reset_noise_scale: number }) {
    super(MODELS.invertedDoublePendulum, o.frame_skip, 9);
  }
  protected resetModel(sim: Simulation): void {
    const s = this.o.reset_noise_scale;
    sim.setState(this.uniformAround(sim.initQpos, s), this.normalAround(new Float64Array(sim.qvel.length), s));
  }
  protected observe(sim: Simulation, out: Float64Array): void {
    const q = sim.qpos;
    out[0] = q[0] as number;
    out[1] = Math.sin(q[1] as number);
    out[2] = Math.sin(q[2] as number);
    out[3] = Math.cos(q[1] as number);
    out[4] = Math.cos(q[2] as number);
    for (let i = 0; i < 3; i++) out[5 + i] = clip(sim.qvel[i] as number, -10, 10);
    out[8] = clip(sim.qfrcConstraint[0] as number, -10, 10);
  }
  protected advance(sim: Simulation, action: ArrayLike<number>): TaskStep {
    sim.simulate(action, this.frameSkip);
    const x = sim.siteXpos[0] as number;
    const y = sim.siteXpos[2] as number;
    const terminated = y <= 1;
    const v1 = sim.qvel[1] as number;
    const v2 = sim.qvel[2] as number;
    const distPenalty = 0.01 * x * x + (y - 2) ** 2;
    const velPenalty = 0.001 * v1 * v1 + 0.005 * v2 * v2;
    const alive = terminated ? 0 : this.o.healthy_reward;
    return { reward: alive - distPenalty - velPenalty, terminated, info: { reward_survive: alive, distance_penalty: -distPenalty, velocity_penalty: -velPenalty } };
  }
}
