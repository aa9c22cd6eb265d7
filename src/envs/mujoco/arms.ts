/** Gymnasium's MuJoCo v5 arm tasks: Reacher (2 joints to a target) and Pusher (7 joints, a puck to a goal). */
import { MujocoEnv, sumSquares, type Simulation, type TaskStep } from './mujocoEnv';
import { MODELS, type ObservationStructure } from './models';

export interface ReacherOptions {
  frame_skip: number;
  reward_dist_weight: number;
  reward_control_weight: number;
  /** Radius of the disc the target is drawn in (Gymnasium's 0.2 when absent). */
  target_radius?: number;
}

export class ReacherEnv extends MujocoEnv {
  readonly rewardTerms = ['reward_dist', 'reward_ctrl'];
  readonly structure: ObservationStructure = { cos_qpos: 2, sin_qpos: 2, target: 2, qvel: 2, fingertip_minus_target: 2 };
  private fingertip = 0;
  private target = 0;
  constructor(readonly o: ReacherOptions) {
    super(MODELS.reacher, o.frame_skip, 10);
  }
  protected override bind(sim: Simulation): void {
    this.fingertip = sim.bodyId('fingertip');
    this.target = sim.bodyId('target');
  }
  /** fingertip − target in the world frame (x, y, z). */
  offset(sim: Simulation): [number, number, number] {
    const p = sim.views().xpos;
    const f = 3 * this.fingertip;
    const t = 3 * this.target;
    return [(p[f] as number) - (p[t] as number), (p[f + 1] as number) - (p[t + 1] as number), (p[f + 2] as number) - (p[t + 2] as number)];
  }
  protected resetModel(sim: Simulation): void {
    const qpos = this.uniformAround(sim.initQpos, 0.1);
    const radius = this.o.target_radius ?? 0.2;
    let gx: number;
    let gy: number;
    do {
      gx = this.rng.uniform(-radius, radius);
      gy = this.rng.uniform(-radius, radius);
    } while (!(Math.hypot(gx, gy) < radius));
    qpos[2] = gx;
    qpos[3] = gy;
    const qvel = this.uniformAround(new Float64Array(sim.qvel.length), 0.005);
    qvel[2] = 0;
    qvel[3] = 0;
    sim.setState(qpos, qvel);
  }
  protected observe(sim: Simulation, out: Float64Array): void {
    const q = sim.qpos;
    out[0] = Math.cos(q[0] as number);
    out[1] = Math.cos(q[1] as number);
    out[2] = Math.sin(q[0] as number);
    out[3] = Math.sin(q[1] as number);
    out[4] = q[2] as number;
    out[5] = q[3] as number;
    out[6] = sim.qvel[0] as number;
    out[7] = sim.qvel[1] as number;
    const [dx, dy] = this.offset(sim);
    out[8] = dx;
    out[9] = dy;
  }
  protected advance(sim: Simulation, action: ArrayLike<number>): TaskStep {
    sim.simulate(action, this.frameSkip);
    const [dx, dy, dz] = this.offset(sim);
    const dist = -Math.hypot(dx, dy, dz) * this.o.reward_dist_weight;
    const ctrl = -sumSquares(action) * this.o.reward_control_weight;
    return { reward: dist + ctrl, terminated: false, info: { reward_dist: dist, reward_ctrl: ctrl } };
  }
}

export interface PusherOptions {
  frame_skip: number;
  reward_near_weight: number;
  reward_dist_weight: number;
  reward_control_weight: number;
}

export class PusherEnv extends MujocoEnv {
  readonly rewardTerms = ['reward_dist', 'reward_ctrl', 'reward_near'];
  readonly structure: ObservationStructure = { qpos: 7, qvel: 7, tips_arm: 3, object: 3, goal: 3 };
  private tips = 0;
  private object = 0;
  private goal = 0;
  constructor(readonly o: PusherOptions) {
    super(MODELS.pusher, o.frame_skip, 23);
  }
  protected override bind(sim: Simulation): void {
    this.tips = sim.bodyId('tips_arm');
    this.object = sim.bodyId('object');
    this.goal = sim.bodyId('goal');
  }
  private distance(sim: Simulation, a: number, b: number): number {
    const p = sim.views().xpos;
    return Math.hypot((p[3 * a] as number) - (p[3 * b] as number), (p[3 * a + 1] as number) - (p[3 * b + 1] as number), (p[3 * a + 2] as number) - (p[3 * b + 2] as number));
  }
  protected resetModel(sim: Simulation): void {
    const qpos = Float64Array.from(sim.initQpos);
    let cx: number;
    let cy: number;
    do {
      cx = this.rng.uniform(-0.3, 0);
      cy = this.rng.uniform(-0.2, 0.2);
    } while (!(Math.hypot(cx, cy) > 0.17));
    const n = qpos.length;
    qpos[n - 4] = cx;
    qpos[n - 3] = cy;
    qpos[n - 2] = 0;
    qpos[n - 1] = 0;
    const qvel = this.uniformAround(new Float64Array(sim.qvel.length), 0.005);
    qvel.fill(0, qvel.length - 4);
    sim.setState(qpos, qvel);
  }
  protected observe(sim: Simulation, out: Float64Array): void {
    let k = 0;
    for (let i = 0; i < 7; i++) out[k++] = sim.qpos[i] as number;
    for (let i = 0; i < 7; i++) out[k++] = sim.qvel[i] as number;
    for (const b of [this.tips, this.object, this.goal]) for (let j = 0; j < 3; j++) out[k++] = sim.xpos[3 * b + j] as number;
  }
  protected advance(sim: Simulation, action: ArrayLike<number>): TaskStep {
    sim.simulate(action, this.frameSkip);
    const near = -this.distance(sim, this.object, this.tips) * this.o.reward_near_weight;
    const dist = -this.distance(sim, this.object, this.goal) * this.o.reward_dist_weight;
    const ctrl = -sumSquares(action) * this.o.reward_control_weight;
    return { reward: dist + ctrl + near, terminated: false, info: { reward_dist: dist, reward_ctrl: ctrl, reward_near: near } };
  }
}
