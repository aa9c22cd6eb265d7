/** Gymnasium's MuJoCo v5 Ant: a four-legged walker rewarded for moving along x. */
import type { Info } from '../core/env';
import { MujocoEnv, copyInto, sumSquares, clip, type Simulation, type TaskStep } from './mujocoEnv';
import { MODELS, type PositionsStructure } from './models';
import type { PlanarOptions } from './planar';

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
  readonly structure: PositionsStructure;
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
    let k = copyInto(out, copyInto(out, 0, sim.qpos, this.structure.skipped_qpos), sim.qvel);
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
