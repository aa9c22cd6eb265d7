/**
 * What every Gymnasium MuJoCo task shares: a vendored model simulated by the WebAssembly engine,
 * an action written to `ctrl` and `frame_skip` calls of `mj_step` per step (then
 * `mj_rnePostConstraint`, so contact forces are current), reset to the model's initial pose plus
 * noise from our seeded generator, and the full simulator state as JSON.
 *
 * Spaces come from the static model description (`ModelInfo`) and not from the engine, so hosts
 * can list environments and generate types without instantiating WebAssembly; the simulator is
 * bound at the first reset. A test checks the static descriptions against the compiled models.
 */
import type { MainModule, MjData, MjModel } from 'mujoco-js';
import { EMPTY_INFO, type Env, type EnvState, type Info, type ResetOptions, type ResetResult, type StepResult } from '../core/env';
import { Rng } from '../core/rng';
import { Box } from '../core/spaces';
import { compiledModel, mujoco, onModelEviction } from './engine';
import { modelScene, type MujocoScene, type SceneMarker, type SceneView } from './scene';
import { MujocoReplay, type MujocoDeltaRecorder, type ReplayRecordable } from './trajectoryDelta';

/** The sizes of a vendored model that spaces and layouts depend on. */
export interface ModelInfo {
  /** Key into the embedded model files, e.g. `gymnasium/half_cheetah.xml`. */
  readonly file: string;
  readonly nq: number;
  readonly nv: number;
  readonly nu: number;
  readonly nbody: number;
  /** Every actuator's control range is [-ctrlLimit, ctrlLimit] in these models. */
  readonly ctrlLimit: number;
  /** `opt.timestep` in seconds. */
  readonly timestep: number;
  /** How the replay frames the model (see scene.ts). */
  readonly view?: SceneView;
}

/**
 * One MjData per model and process, lent to one Simulation at a time. Episodes run one after the
 * other in a worker, each with a new environment: a private MjData each would grow the engine's
 * heap (which no garbage collector sees) until allocation fails. When another Simulation claims
 * the data, the owner parks its state in JS arrays: everything the next step depends on and every
 * derived quantity that observations and rewards read, so both continue bit-exactly.
 */
interface Shared {
  readonly data: MjData;
  owner: Simulation | undefined;
  /** The model was freed (see compiledModel): users re-acquire a new model and data. */
  evicted: boolean;
}
const sharedData = new Map<string, Shared>();

function acquire(mj: MainModule, file: string, model: MjModel): Shared {
  let shared = sharedData.get(file);
  if (!shared) {
    shared = { data: new mj.MjData(model), owner: undefined, evicted: false };
    sharedData.set(file, shared);
  }
  return shared;
}

onModelEviction((file) => {
  const shared = sharedData.get(file);
  if (!shared) return;
  shared.owner?.park();
  shared.owner = undefined;
  shared.evicted = true;
  shared.data.delete();
  sharedData.delete(file);
});

/** The MjData fields a state carries: inputs of the next step, then derived values read between steps. */
const STATE_FIELDS = ['qpos', 'qvel', 'act', 'ctrl', 'qacc_warmstart', 'mocap_pos', 'mocap_quat'] as const;
const DERIVED_FIELDS = ['xpos', 'xquat', 'xipos', 'cfrc_ext', 'cinert', 'cvel', 'qfrc_actuator', 'qfrc_constraint', 'site_xpos', 'ten_length', 'ten_velocity'] as const;
type Field = (typeof STATE_FIELDS)[number] | (typeof DERIVED_FIELDS)[number];

/** The model (shared) and the lent MjData, with typed-array views that survive heap growth. */
export class Simulation {
  readonly mj: MainModule;
  /** The compiled model; replaced when it was evicted meanwhile (read it after `views()`). */
  model: MjModel;
  private shared: Shared;
  readonly initQpos: Float64Array;
  readonly bodyMass: Float64Array;
  private parked: SimState | undefined;
  qpos!: Float64Array;
  qvel!: Float64Array;
  ctrl!: Float64Array;
  act!: Float64Array;
  xpos!: Float64Array;
  xipos!: Float64Array;
  cfrcExt!: Float64Array;
  cinert!: Float64Array;
  cvel!: Float64Array;
  qfrcActuator!: Float64Array;
  qfrcConstraint!: Float64Array;
  siteXpos!: Float64Array;
  tenLength!: Float64Array;
  tenVelocity!: Float64Array;

  constructor(private readonly file: string) {
    this.mj = mujoco();
    this.model = compiledModel(file);
    this.shared = acquire(this.mj, file, this.model);
    this.initQpos = Float64Array.from(this.model.qpos0 as Float64Array);
    this.bodyMass = Float64Array.from(this.model.body_mass as Float64Array);
    this.refreshViews();
  }

  get data(): MjData {
    return this.shared.data;
  }

  /** Claims the data (parking the previous owner's state) and refreshes detached views. */
  views(): this {
    if (this.shared.evicted) {
      // The model was freed while another ran: compile it again; the parked state carries over.
      this.model = compiledModel(this.file);
      this.shared = acquire(this.mj, this.file, this.model);
    }
    const shared = this.shared;
    if (shared.owner !== this) {
      shared.owner?.park();
      shared.owner = this;
      this.refreshViews();
      if (this.parked) {
        this.write(this.parked);
        this.parked = undefined;
      }
    } else if (this.qpos.byteLength === 0) {
      // The WebAssembly memory grew (another model or MjData was allocated): views detach.
      this.refreshViews();
    }
    return this;
  }

  /** Copies this simulation's state out of the shared data (another one claims it, or it is freed). */
  park(): void {
    this.parked = this.read();
  }

  private field(name: Field): Float64Array {
    return (this.shared.data as unknown as Record<Field, Float64Array>)[name];
  }

  private refreshViews(): void {
    this.qpos = this.field('qpos');
    this.qvel = this.field('qvel');
    this.ctrl = this.field('ctrl');
    this.act = this.field('act');
    this.xpos = this.field('xpos');
    this.xipos = this.field('xipos');
    this.cfrcExt = this.field('cfrc_ext');
    this.cinert = this.field('cinert');
    this.cvel = this.field('cvel');
    this.qfrcActuator = this.field('qfrc_actuator');
    this.qfrcConstraint = this.field('qfrc_constraint');
    this.siteXpos = this.field('site_xpos');
    this.tenLength = this.field('ten_length');
    this.tenVelocity = this.field('ten_velocity');
  }

  bodyId(name: string): number {
    const id = this.mj.mj_name2id(this.model, this.mj.mjtObj.mjOBJ_BODY.value, name);
    if (id < 0) throw new Error(`the model has no body named ${name}`);
    return id;
  }

  resetData(): void {
    this.views();
    this.mj.mj_resetData(this.model, this.data);
  }

  /** Gymnasium's `set_state`: positions and velocities, then `mj_forward`. */
  setState(qpos: ArrayLike<number>, qvel: ArrayLike<number>): void {
    this.views();
    this.qpos.set(qpos);
    this.qvel.set(qvel);
    this.mj.mj_forward(this.model, this.data);
  }

  /** Gymnasium's `do_simulation`: `ctrl`, `n` × `mj_step`, then the contact forces. */
  simulate(action: ArrayLike<number>, n: number): void {
    const ctrl = this.views().ctrl;
    const { mj, model } = this;
    const data = this.data;
    for (let i = 0; i < ctrl.length; i++) ctrl[i] = action[i] as number;
    for (let i = 0; i < n; i++) mj.mj_step(model, data);
    mj.mj_rnePostConstraint(model, data);
    this.views();
  }

  get time(): number {
    this.views();
    return this.data.time;
  }

  private read(): SimState {
    const fields: Record<string, number[]> = {};
    for (const f of [...STATE_FIELDS, ...DERIVED_FIELDS]) fields[f] = Array.from(this.field(f));
    return { time: this.data.time, fields };
  }

  private write(s: SimState): void {
    for (const f of [...STATE_FIELDS, ...DERIVED_FIELDS]) {
      const into = this.field(f);
      const values = s.fields[f];
      if (!Array.isArray(values) || values.length !== into.length || !values.every((v) => typeof v === 'number')) {
        throw new Error(`MuJoCo state: ${f} must be ${into.length} numbers`);
      }
      into.set(values);
    }
    this.data.time = s.time;
  }

  /** Everything the next step depends on and every derived value read before it (JSON-compatible). */
  getState(): SimState {
    this.views();
    return this.read();
  }

  loadState(s: SimState): void {
    this.views();
    if (!s || typeof s !== 'object' || typeof s.time !== 'number' || !s.fields || typeof s.fields !== 'object') throw new Error('MuJoCo state must be { time, fields }');
    this.write(s);
  }
}

export interface SimState {
  time: number;
  fields: Record<string, number[]>;
}

/** A standard normal draw (Box–Muller) from our generator; NumPy's `standard_normal` in distribution. */
export function standardNormal(rng: Rng): number {
  const u1 = rng.random();
  const u2 = rng.random();
  return Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
}

export interface TaskStep {
  reward: number;
  terminated: boolean;
  info: Info;
}

export abstract class MujocoEnv implements Env<Float64Array, Float64Array>, ReplayRecordable {
  /** The `info` keys a stored trajectory keeps per step (the reward terms); the rest follows from qpos. */
  abstract readonly rewardTerms: readonly string[];
  readonly observationSpace: Box;
  readonly actionSpace: Box;
  /** Seconds of simulated time per step: `timestep × frame_skip`. */
  readonly dt: number;
  protected readonly rng = new Rng(0);
  private simulation: Simulation | undefined;
  private readonly replay = new MujocoReplay(this);
  protected readonly obs: Float64Array;
  private readonly result: StepResult<Float64Array>;

  constructor(readonly info: ModelInfo, readonly frameSkip: number, observationSize: number) {
    this.observationSpace = new Box(-Infinity, Infinity, [observationSize], 'float64');
    this.actionSpace = new Box(-info.ctrlLimit, info.ctrlLimit, [info.nu], 'float32');
    this.dt = info.timestep * frameSkip;
    this.obs = new Float64Array(observationSize);
    this.result = { observation: this.obs, reward: 0, terminated: false, truncated: false, info: EMPTY_INFO };
  }

  /** The simulator, created at first use (the engine must be loaded by then) and claimed for this environment. */
  get sim(): Simulation {
    if (!this.simulation) {
      this.simulation = new Simulation(this.info.file);
      this.bind(this.simulation);
    }
    return this.simulation.views();
  }

  /** Looks up body ids and the like once the simulator exists. */
  protected bind(_sim: Simulation): void {}

  /** Sets qpos/qvel from the generator (Gymnasium's `reset_model`). */
  protected abstract resetModel(sim: Simulation): void;
  /** Writes the observation into `out`. */
  protected abstract observe(sim: Simulation, out: Float64Array): void;
  /** Simulates one step and returns its reward, termination and info. */
  protected abstract advance(sim: Simulation, action: ArrayLike<number>): TaskStep;
  protected resetInfo(_sim: Simulation): Info {
    return EMPTY_INFO;
  }

  reset(opts?: ResetOptions): ResetResult<Float64Array> {
    if (opts?.seed !== undefined) this.rng.reseed(opts.seed);
    const sim = this.sim;
    sim.resetData();
    this.resetModel(sim);
    this.observe(sim.views(), this.obs);
    this.replay.episodeStarted();
    return { observation: this.obs, info: this.resetInfo(sim) };
  }

  step(action: Float64Array): StepResult<Float64Array> {
    const sim = this.sim;
    const r = this.advance(sim, action);
    this.observe(sim.views(), this.obs);
    const result = this.result;
    result.reward = r.reward;
    result.terminated = r.terminated;
    result.truncated = false;
    result.info = r.info;
    return result;
  }

  /** Uniform noise in [-scale, scale) added to `base`, one draw per entry (NumPy's `uniform(size=n)`). */
  protected uniformAround(base: ArrayLike<number>, scale: number): Float64Array {
    const out = new Float64Array(base.length);
    for (let i = 0; i < out.length; i++) out[i] = (base[i] as number) + this.rng.uniform(-scale, scale);
    return out;
  }

  protected normalAround(base: ArrayLike<number>, scale: number): Float64Array {
    const out = new Float64Array(base.length);
    for (let i = 0; i < out.length; i++) out[i] = (base[i] as number) + scale * standardNormal(this.rng);
    return out;
  }

  getState(): EnvState {
    return { sim: this.sim.getState(), rng: this.rng.getState(), task: this.taskState() };
  }

  setState(state: EnvState): void {
    const s = state as { sim?: SimState; rng?: [number, number, number, number]; task?: unknown } | null;
    if (!s || typeof s !== 'object' || !s.sim || !Array.isArray(s.rng)) throw new Error('MuJoCo state must be { sim, rng, task } from getState()');
    this.sim.loadState(s.sim);
    this.rng.setState(s.rng);
    this.loadTaskState(s.task);
    this.observe(this.sim.views(), this.obs);
  }

  /** Task variables outside the simulator (a sampled goal, say). */
  protected taskState(): unknown {
    return null;
  }
  protected loadTaskState(_s: unknown): void {}

  /** qpos of this step in thousandths; an episode's first snapshot also carries the scene (trajectoryDelta.ts). */
  snapshot(): unknown {
    return this.replay.snapshot();
  }

  /** Stored trajectories: the scene once, then per step the action, reward, terms and qpos. */
  deltaRecorder(): MujocoDeltaRecorder {
    return this.replay.deltaRecorder();
  }

  replayQposSource(): Float64Array {
    return this.sim.views().qpos;
  }

  replayScene(): MujocoScene {
    return { ...modelScene(this.info.file, this.info.view), markers: this.sceneMarkers() };
  }

  /** Fixed spheres the replay draws (a sampled goal, say). */
  protected sceneMarkers(): SceneMarker[] {
    return [];
  }
}

export const clip = (v: number, lo: number, hi: number): number => (v < lo ? lo : v > hi ? hi : v);

/** Copies `src[from..]` into `out` from index `at`; returns the index after the last written. */
export function copyInto(out: Float64Array, at: number, src: ArrayLike<number>, from = 0): number {
  for (let i = from; i < src.length; i++) out[at++] = src[i] as number;
  return at;
}

export function sumSquares(a: ArrayLike<number>, from = 0, to = a.length): number {
  let s = 0;
  for (let i = from; i < to; i++) s += (a[i] as number) * (a[i] as number);
  return s;
}
