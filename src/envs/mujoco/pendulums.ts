/** Gymnasium's MuJoCo v5 pendulums on a cart: InvertedPendulum and InvertedDoublePendulum. */
import { MujocoEnv, clip, type Simulation, type TaskStep } from './mujocoEnv';
import { MODELS, type ObservationStructure } from './models';

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
