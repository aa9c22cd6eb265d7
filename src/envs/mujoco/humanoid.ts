/** Gymnasium's MuJoCo v5 Humanoid (walk forward) and HumanoidStandup (get up from lying down). */
import type { Info } from '../core/env';
import { MujocoEnv, copyInto, sumSquares, clip, type ModelInfo, type Simulation, type TaskStep } from './mujocoEnv';
import { MODELS, type PositionsStructure } from './models';

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
  readonly structure: PositionsStructure;
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
    let k = copyInto(out, copyInto(out, 0, sim.qpos, this.structure.skipped_qpos), sim.qvel);
    if (ho.include_cinert_in_observation) k = copyInto(out, k, sim.cinert, 10);
    if (ho.include_cvel_in_observation) k = copyInto(out, k, sim.cvel, 6);
    if (ho.include_qfrc_actuator_in_observation) k = copyInto(out, k, sim.qfrcActuator, 6);
    if (ho.include_cfrc_ext_in_observation) copyInto(out, k, sim.cfrcExt, 6);
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
