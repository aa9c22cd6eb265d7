/**
 * Gymnasium-Robotics' Fetch v4 tasks (Reach, Push, Slide, PickAndPlace) on the vendored models.
 *
 * Semantics follow Gymnasium-Robotics' `MujocoFetchEnv`:
 * - Set-up, once per model and process: the task's initial joint positions, the mocap weld reset
 *   to the identity, the mocap moved to a fixed offset from the gripper (plus the task's extra
 *   height) and 10 × 20 `mj_step`s; the resulting state, gripper position and object height are
 *   every episode's starting point.
 * - Reset: that state; the object (if any) uniformly within `obj_range` of the gripper but not
 *   within 0.1 m; the goal uniformly within `target_range` of the gripper (plus `target_offset`;
 *   on the table for object tasks, lifted by up to 0.45 m half the time when `target_in_the_air`).
 * - Step: the action clipped to [-1, 1]; the mocap moved to the gripper's pose plus 0.05 × (dx,
 *   dy, dz) with the fixed downward rotation added to its quaternion; finger actuators (if any)
 *   set to the finger position plus action[3]; 20 `mj_step`s; a blocked gripper's fingers reset
 *   to 0 followed by `mj_forward`.
 * - Observation (dict): `observation` as Gymnasium-Robotics lays it out (see OBS_LAYOUT),
 *   velocities × dt; `achieved_goal` the gripper (Reach) or the object position; `desired_goal`.
 * - Reward: sparse −1 while the goal is farther than 0.05 m, else 0 (dense: −distance); `info`
 *   carries `is_success`. Never terminates; the 50-step limit truncates.
 */
import type { DoubleBuffer, MainModule, MjModel } from 'mujoco-js';
import type { Env, EnvState, ResetOptions, ResetResult, StepResult } from '../../core/env';
import { Rng } from '../../core/rng';
import { Box, Dict, type Space } from '../../core/spaces';
import { Simulation, type ModelInfo, type SimState } from '../mujocoEnv';
import { modelScene, type MujocoScene } from '../scene';
import { MujocoReplay, type MujocoDeltaRecorder, type ReplayRecordable } from '../trajectoryDelta';

export interface FetchTask {
  readonly id: string;
  readonly model: ModelInfo;
  readonly hasObject: boolean;
  readonly blockGripper: boolean;
  readonly gripperExtraHeight: number;
  readonly targetInTheAir: boolean;
  readonly targetOffset: readonly [number, number, number];
  readonly objRange: number;
  readonly targetRange: number;
  readonly distanceThreshold: number;
  /** Joint name → qpos values set before the set-up steps. */
  readonly initialQpos: Readonly<Record<string, readonly number[]>>;
}

export type FetchRewardType = 'sparse' | 'dense';

export interface FetchObservation {
  achieved_goal: Float64Array;
  desired_goal: Float64Array;
  observation: Float64Array;
}

/** Substeps per environment step (Gymnasium-Robotics' `n_substeps`). */
export const N_SUBSTEPS = 20;
/** Gripper displacement per unit of action (m). */
const POS_SCALE = 0.05;
/** Added to the gripper's quaternion each step: keeps the gripper pointing down. */
const GRIPPER_ROTATION = [1, 0, 1, 0] as const;
/** Offset of the initial mocap target from the gripper site before the task's extra height. */
const GRIPPER_TARGET_OFFSET = [-0.498, 0.005, -0.431] as const;
/** An object never starts within this distance (m) of the gripper in the x-y plane. */
const OBJECT_MIN_DISTANCE = 0.1;
/** Highest lift of an in-the-air goal above the table (m). */
const AIR_HEIGHT = 0.45;

/** Sizes of `observation`: gripper and object parts, as Gymnasium-Robotics concatenates them. */
export function observationLayout(hasObject: boolean): Readonly<Record<string, number>> {
  const o = hasObject ? 3 : 0;
  return { grip_pos: 3, object_pos: o, object_rel_pos: o, gripper_state: 2, object_rot: o, object_velp: o, object_velr: o, grip_velp: 3, gripper_vel: 2 };
}

interface Setup {
  time: number;
  qpos: Float64Array;
  qvel: Float64Array;
  gripperXpos: [number, number, number];
  heightOffset: number;
}

/** Model ids and scratch buffers shared by every episode of a model in this process. */
interface Bound {
  mj: MainModule;
  model: MjModel;
  gripSite: number;
  objectSite: number;
  gripperBody: number;
  /** qpos addresses of the object's free joint (x first). */
  objectQpos: number;
  /** The last two robot joints (the fingers): qpos and dof addresses. */
  fingerQpos: [number, number];
  fingerDof: [number, number];
  /** qpos address of each actuator's joint, when its bias is not zero (position actuators). */
  actuatorQpos: number[];
  jacp: DoubleBuffer;
  jacr: DoubleBuffer;
  setup: Setup | undefined;
}
const bound = new Map<string, Bound>();

export function sparseReward(achieved: ArrayLike<number>, desired: ArrayLike<number>, threshold: number): number {
  return goalDistance(achieved, desired) > threshold ? -1 : 0;
}

export function goalDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return Math.hypot((a[0] as number) - (b[0] as number), (a[1] as number) - (b[1] as number), (a[2] as number) - (b[2] as number));
}

/** Euler angles (x, y, z) of a row-major rotation matrix, in Gymnasium-Robotics' convention. */
export function matToEuler(m: ArrayLike<number>, at: number, out: Float64Array, to: number): void {
  const r = (i: number, j: number): number => m[at + 3 * i + j] as number;
  const cy = Math.sqrt(r(2, 2) * r(2, 2) + r(1, 2) * r(1, 2));
  const regular = cy > 4 * Number.EPSILON;
  out[to + 2] = regular ? -Math.atan2(r(0, 1), r(0, 0)) : -Math.atan2(-r(1, 0), r(1, 1));
  out[to + 1] = -Math.atan2(-r(0, 2), cy);
  out[to] = regular ? -Math.atan2(r(1, 2), r(2, 2)) : 0;
}

export class FetchEnv implements Env<FetchObservation, Float64Array>, ReplayRecordable {
  /** The `info` key a stored trajectory keeps per step. */
  readonly rewardTerms = ['is_success'];
  /** A Dict of three Boxes; its values are FetchObservation's arrays. */
  readonly observationSpace: Space<FetchObservation>;
  readonly actionSpace = new Box(-1, 1, [4], 'float32');
  /** Seconds of simulated time per step. */
  readonly dt: number;
  readonly layout: Readonly<Record<string, number>>;
  private readonly rng = new Rng(0);
  private simulation: Simulation | undefined;
  private readonly obs: FetchObservation;
  private readonly goal = new Float64Array(3);
  private readonly result: StepResult<FetchObservation>;
  private readonly replay = new MujocoReplay(this);
  /** Site velocities × dt (linear, then angular) of the gripper and the object. */
  private readonly gripVel = new Float64Array(6);
  private readonly objectVel = new Float64Array(6);

  constructor(readonly task: FetchTask, readonly rewardType: FetchRewardType = 'sparse') {
    this.layout = observationLayout(task.hasObject);
    const n = Object.values(this.layout).reduce((a, b) => a + b, 0);
    this.observationSpace = new Dict({
      achieved_goal: new Box(-Infinity, Infinity, [3], 'float64'),
      desired_goal: new Box(-Infinity, Infinity, [3], 'float64'),
      observation: new Box(-Infinity, Infinity, [n], 'float64'),
    }) as unknown as Space<FetchObservation>;
    this.dt = task.model.timestep * N_SUBSTEPS;
    this.obs = { achieved_goal: new Float64Array(3), desired_goal: new Float64Array(3), observation: new Float64Array(n) };
    this.result = { observation: this.obs, reward: 0, terminated: false, truncated: false, info: {} };
  }

  get sim(): Simulation {
    this.simulation ??= new Simulation(this.task.model.file);
    return this.simulation.views();
  }

  private ids(sim: Simulation): Bound {
    let b = bound.get(this.task.id);
    if (b?.model === sim.model) return b;
    // First use, or the model was evicted and compiled again: ids are the same, the set-up is redone.
    b?.jacp.delete();
    b?.jacr.delete();
    const { mj, model } = sim;
    const id = (type: { value: number }, name: string): number => {
      const i = mj.mj_name2id(model, type.value, name);
      if (i < 0) throw new Error(`${this.task.model.file} has no ${name}`);
      return i;
    };
    const robot: number[] = [];
    for (let j = 0; j < model.njnt; j++) if (mj.mj_id2name(model, mj.mjtObj.mjOBJ_JOINT.value, j).startsWith('robot')) robot.push(j);
    const fingers = robot.slice(-2);
    const actuatorQpos: number[] = [];
    for (let i = 0; i < model.nu; i++) {
      const joint = model.actuator_trnid[2 * i] as number;
      actuatorQpos.push((model.actuator_biastype[i] as number) === 0 ? -1 : (model.jnt_qposadr[joint] as number));
    }
    b = {
      mj,
      model,
      gripSite: id(mj.mjtObj.mjOBJ_SITE, 'robot0:grip'),
      objectSite: this.task.hasObject ? id(mj.mjtObj.mjOBJ_SITE, 'object0') : -1,
      gripperBody: id(mj.mjtObj.mjOBJ_BODY, 'robot0:gripper_link'),
      objectQpos: this.task.hasObject ? (model.jnt_qposadr[id(mj.mjtObj.mjOBJ_JOINT, 'object0:joint')] as number) : -1,
      fingerQpos: [model.jnt_qposadr[fingers[0] as number] as number, model.jnt_qposadr[fingers[1] as number] as number],
      fingerDof: [model.jnt_dofadr[fingers[0] as number] as number, model.jnt_dofadr[fingers[1] as number] as number],
      actuatorQpos,
      jacp: new mj.DoubleBuffer(3 * model.nv),
      jacr: new mj.DoubleBuffer(3 * model.nv),
      setup: undefined,
    };
    bound.set(this.task.id, b);
    return b;
  }

  /** The starting state every episode begins from (computed once per model and process). */
  private setup(sim: Simulation, b: Bound): Setup {
    if (b.setup) return b.setup;
    const { mj, model } = b;
    const data = sim.data;
    mj.mj_resetData(model, data);
    const qpos = sim.views().qpos;
    for (const [name, values] of Object.entries(this.task.initialQpos)) {
      const j = mj.mj_name2id(model, mj.mjtObj.mjOBJ_JOINT.value, name);
      if (j < 0) throw new Error(`${this.task.model.file} has no joint ${name}`);
      qpos.set(values, model.jnt_qposadr[j] as number);
    }
    // The weld that drags the gripper to the mocap body: no offset, identity rotation.
    const eq = model.eq_data as Float64Array;
    const eqSize = eq.length / model.neq;
    for (let e = 0; e < model.neq; e++) if ((model.eq_type[e] as number) === mj.mjtEq.mjEQ_WELD.value) eq.set([0, 0, 0, 0, 0, 0, 1], e * eqSize);
    mj.mj_forward(model, data);
    const site = data.site_xpos as Float64Array;
    const mocapPos = data.mocap_pos as Float64Array;
    for (let k = 0; k < 3; k++) mocapPos[k] = (GRIPPER_TARGET_OFFSET[k] as number) + (k === 2 ? this.task.gripperExtraHeight : 0) + (site[3 * b.gripSite + k] as number);
    (data.mocap_quat as Float64Array).set(GRIPPER_ROTATION);
    for (let i = 0; i < 10 * N_SUBSTEPS; i++) mj.mj_step(model, data);
    const after = data.site_xpos as Float64Array;
    const v = sim.views();
    b.setup = {
      time: data.time,
      qpos: Float64Array.from(v.qpos),
      qvel: Float64Array.from(v.qvel),
      gripperXpos: [after[3 * b.gripSite] as number, after[3 * b.gripSite + 1] as number, after[3 * b.gripSite + 2] as number],
      heightOffset: this.task.hasObject ? (after[3 * b.objectSite + 2] as number) : 0,
    };
    return b.setup;
  }

  reset(opts?: ResetOptions): ResetResult<FetchObservation> {
    if (opts?.seed !== undefined) this.rng.reseed(opts.seed);
    const sim = this.sim;
    const b = this.ids(sim);
    const s = this.setup(sim, b);
    const { mj, model } = b;
    mj.mj_resetData(model, sim.data);
    sim.data.time = s.time;
    const v = sim.views();
    v.qpos.set(s.qpos);
    v.qvel.set(s.qvel);
    mj.mj_forward(model, sim.data);
    const t = this.task;
    const [gx, gy, gz] = s.gripperXpos;
    if (t.hasObject) {
      let ox = gx;
      let oy = gy;
      while (Math.hypot(ox - gx, oy - gy) < OBJECT_MIN_DISTANCE) {
        ox = gx + this.rng.uniform(-t.objRange, t.objRange);
        oy = gy + this.rng.uniform(-t.objRange, t.objRange);
      }
      const q = sim.views().qpos;
      q[b.objectQpos] = ox;
      q[b.objectQpos + 1] = oy;
    }
    mj.mj_forward(model, sim.data);
    const g = this.goal;
    g[0] = gx + this.rng.uniform(-t.targetRange, t.targetRange) + t.targetOffset[0];
    g[1] = gy + this.rng.uniform(-t.targetRange, t.targetRange) + t.targetOffset[1];
    g[2] = gz + this.rng.uniform(-t.targetRange, t.targetRange) + t.targetOffset[2];
    if (t.hasObject) {
      g[2] = s.heightOffset;
      if (t.targetInTheAir && this.rng.random() < 0.5) g[2] += this.rng.uniform(0, AIR_HEIGHT);
    }
    this.observe(sim, b);
    this.replay.episodeStarted();
    return { observation: this.obs, info: {} };
  }

  step(action: Float64Array): StepResult<FetchObservation> {
    const sim = this.sim;
    const b = this.ids(sim);
    const { mj, model } = b;
    const data = sim.data;
    const a = (i: number): number => {
      const x = action[i] as number;
      return x < -1 ? -1 : x > 1 ? 1 : x;
    };
    const grip = this.task.blockGripper ? 0 : a(3);
    const v = sim.views();
    for (let i = 0; i < b.actuatorQpos.length; i++) {
      const adr = b.actuatorQpos[i] as number;
      v.ctrl[i] = adr < 0 ? grip : (v.qpos[adr] as number) + grip;
    }
    // The mocap jumps to the gripper's current pose, then moves by the action.
    const xpos = data.xpos as Float64Array;
    const xquat = data.xquat as Float64Array;
    const mocapPos = data.mocap_pos as Float64Array;
    const mocapQuat = data.mocap_quat as Float64Array;
    for (let k = 0; k < 3; k++) mocapPos[k] = (xpos[3 * b.gripperBody + k] as number) + POS_SCALE * a(k);
    for (let k = 0; k < 4; k++) mocapQuat[k] = (xquat[4 * b.gripperBody + k] as number) + (GRIPPER_ROTATION[k] as number);
    for (let i = 0; i < N_SUBSTEPS; i++) mj.mj_step(model, data);
    if (this.task.blockGripper) {
      const q = sim.views().qpos;
      q[b.fingerQpos[0]] = 0;
      q[b.fingerQpos[1]] = 0;
      mj.mj_forward(model, data);
    }
    this.observe(sim, b);
    const d = goalDistance(this.obs.achieved_goal, this.goal);
    const r = this.result;
    // The result object is reused, and wrappers (the step limit) may have marked it.
    r.terminated = false;
    r.truncated = false;
    r.reward = this.rewardType === 'sparse' ? (d > this.task.distanceThreshold ? -1 : 0) : -d;
    r.info = { is_success: d < this.task.distanceThreshold ? 1 : 0 };
    return r;
  }

  /** Site velocity (linear or angular) × dt: Jacobian · qvel, as Gymnasium-Robotics reads it. */
  private siteVelocity(b: Bound, qvel: Float64Array, site: number, out: Float64Array, at: number): void {
    const { mj, model } = b;
    mj.mj_jacSite(model, this.sim.data, b.jacp, b.jacr, site);
    const jp = b.jacp.GetView() as Float64Array;
    const jr = b.jacr.GetView() as Float64Array;
    const nv = model.nv;
    for (let row = 0; row < 3; row++) {
      let lin = 0;
      let ang = 0;
      for (let c = 0; c < nv; c++) {
        lin += (jp[row * nv + c] as number) * (qvel[c] as number);
        ang += (jr[row * nv + c] as number) * (qvel[c] as number);
      }
      out[at + row] = lin * this.dt;
      out[at + 3 + row] = ang * this.dt;
    }
  }

  private observe(sim: Simulation, b: Bound): void {
    const v = sim.views();
    const data = sim.data;
    const site = data.site_xpos as Float64Array;
    const o = this.obs.observation;
    const gp = 3 * b.gripSite;
    const grip = this.gripVel;
    this.siteVelocity(b, v.qvel, b.gripSite, grip, 0);
    let k = 0;
    for (let i = 0; i < 3; i++) o[k++] = site[gp + i] as number;
    if (this.task.hasObject) {
      const op = 3 * b.objectSite;
      for (let i = 0; i < 3; i++) o[k++] = site[op + i] as number;
      for (let i = 0; i < 3; i++) o[k++] = (site[op + i] as number) - (site[gp + i] as number);
      o[k++] = v.qpos[b.fingerQpos[0]] as number;
      o[k++] = v.qpos[b.fingerQpos[1]] as number;
      matToEuler(data.site_xmat as Float64Array, 9 * b.objectSite, o, k);
      k += 3;
      const obj = this.objectVel;
      this.siteVelocity(b, v.qvel, b.objectSite, obj, 0);
      for (let i = 0; i < 3; i++) o[k++] = (obj[i] as number) - (grip[i] as number);
      for (let i = 0; i < 3; i++) o[k++] = obj[3 + i] as number;
    } else {
      o[k++] = v.qpos[b.fingerQpos[0]] as number;
      o[k++] = v.qpos[b.fingerQpos[1]] as number;
    }
    for (let i = 0; i < 3; i++) o[k++] = grip[i] as number;
    o[k++] = (v.qvel[b.fingerDof[0]] as number) * this.dt;
    o[k++] = (v.qvel[b.fingerDof[1]] as number) * this.dt;
    this.obs.achieved_goal.set(this.task.hasObject ? o.subarray(3, 6) : o.subarray(0, 3));
    this.obs.desired_goal.set(this.goal);
  }

  getState(): EnvState {
    return { sim: this.sim.getState(), rng: this.rng.getState(), goal: Array.from(this.goal), obs: { achieved_goal: Array.from(this.obs.achieved_goal), desired_goal: Array.from(this.obs.desired_goal), observation: Array.from(this.obs.observation) } };
  }

  setState(state: EnvState): void {
    const s = state as { sim?: SimState; rng?: [number, number, number, number]; goal?: number[]; obs?: Record<keyof FetchObservation, number[]> } | null;
    if (!s || typeof s !== 'object' || !s.sim || !Array.isArray(s.rng) || !Array.isArray(s.goal) || s.goal.length !== 3 || !s.obs) throw new Error('Fetch state must be { sim, rng, goal, obs } from getState()');
    this.sim.loadState(s.sim);
    this.rng.setState(s.rng);
    this.goal.set(s.goal);
    for (const key of ['achieved_goal', 'desired_goal', 'observation'] as const) {
      const values = s.obs[key];
      if (!Array.isArray(values) || values.length !== this.obs[key].length) throw new Error(`Fetch state: obs.${key} must be ${this.obs[key].length} numbers`);
      this.obs[key].set(values);
    }
  }

  /** qpos of this step in thousandths; an episode's first snapshot also carries the scene and the goal marker. */
  snapshot(): unknown {
    return this.replay.snapshot();
  }

  /** Stored trajectories: the scene once, then per step the action, reward, success and qpos. */
  deltaRecorder(): MujocoDeltaRecorder {
    return this.replay.deltaRecorder();
  }

  replayQposSource(): Float64Array {
    return this.sim.views().qpos;
  }

  replayScene(): MujocoScene {
    return { ...modelScene(this.task.model.file, this.task.model.view), markers: [{ pos: Array.from(this.goal, (x) => Math.round(x * 1e4) / 1e4), radius: 0.02, rgba: [1, 0, 0, 1] }] };
  }

  /** Gymnasium-Robotics' `compute_reward` for this task. */
  computeReward(achieved: ArrayLike<number>, desired: ArrayLike<number>): number {
    return this.rewardType === 'sparse' ? sparseReward(achieved, desired, this.task.distanceThreshold) : -goalDistance(achieved, desired);
  }
}
