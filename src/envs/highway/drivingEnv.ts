/**
 * What every driving task shares: HighwayEnv's reset/step loop. A policy step advances time by
 * 1/policy_frequency and runs ⌊simulation_frequency / policy_frequency⌋ simulation steps; the
 * action is applied to the ego vehicle on the first of them (every vehicle then decides and
 * moves each simulation step). Then come observation, reward, termination, truncation and info.
 */
import { EMPTY_INFO, type Env, type Info, type ResetOptions, type ResetResult, type StepResult } from '../core/env';
import { Rng } from '../core/rng';
import type { Space } from '../core/spaces';
import { ContinuousAction, DiscreteMetaAction } from './actions';
import type { FeatureRanges, KinematicsObservation } from './observation';
import type { RoadNetwork } from './network';
import { Road } from './road';
import { ScriptedRandom, SeededRandom, type HighwayRandom, type RecordedDraw } from './random';
import { restoreVehicle, SceneStateError, vehicleState, type VehicleState } from './sceneState';
import { HighwayDeltaRecorder } from './trajectoryDelta';
import type { Vehicle } from './vehicle';

export interface TimingConfig {
  simulationFrequency: number;
  policyFrequency: number;
}

/** The scene in the golden traces' layout, plus what a resumed episode needs. */
export interface SceneState {
  time: number;
  sim_steps: number;
  ego_index: number[];
  vehicles: VehicleState[];
  [extra: string]: unknown;
}

/** Longest duration (1000 s) at the highest policy frequency (100 Hz): beyond it, no truncation. */
const MAX_TRUNCATION_STEPS = 100_000;

export abstract class DrivingEnv<O> implements Env<O, unknown> {
  abstract readonly observationSpace: Space<O>;
  readonly actionSpace: Space<unknown>;
  road!: Road;
  ego!: Vehicle;
  time = 0;
  steps = 0;
  protected readonly rng = new Rng(0);
  protected readonly seeded: HighwayRandom = new SeededRandom(this.rng);
  private scripted: ScriptedRandom | null = null;
  /** The Kinematics observation, when the task uses one (its default ranges are episode state). */
  protected kinematics: KinematicsObservation | null = null;
  private restoredRanges: FeatureRanges | null = null;

  constructor(
    readonly timing: TimingConfig,
    readonly actionType: DiscreteMetaAction | ContinuousAction,
  ) {
    this.actionSpace = actionType.space as Space<unknown>;
  }

  /** The source of every random draw the scene makes. */
  get random(): HighwayRandom {
    return this.scripted ?? this.seeded;
  }

  /** Golden replays: from now on, draws come from the recorded list (`null` goes back to the seed). */
  useScriptedDraws(draws: readonly RecordedDraw[] | null): ScriptedRandom | null {
    if (draws === null) {
      this.scripted = null;
      return null;
    }
    this.scripted ??= new ScriptedRandom();
    this.scripted.load(draws);
    if (this.road) this.road.rng = this.scripted;
    return this.scripted;
  }

  /** Recorded draws not made yet (0 when drawing from the seed). */
  get pendingDraws(): number {
    return this.scripted?.pending ?? 0;
  }

  protected newRoad(network: RoadNetwork): Road {
    return new Road(network, this.random);
  }

  /** Builds the network, the vehicles and the ego vehicle (drawing from `this.random`). */
  protected abstract buildScene(): void;
  /** Rebuilds the fixed network and objects before a recorded scene is loaded. */
  protected abstract buildNetwork(state: SceneState): void;
  /** Per-scene vehicle settings that are not part of the recorded state. */
  protected configureVehicle(_v: Vehicle, _isEgo: boolean): void {}
  abstract observe(): O;
  /** Reward terms, in HighwayEnv's order (info.rewards). */
  /** Reward terms in HighwayEnv's order (info.rewards), or null for tasks that report none. */
  protected abstract rewardTerms(action: unknown): Record<string, number> | null;
  protected abstract reward(action: unknown, terms: Record<string, number> | null): number;
  protected abstract isTerminated(): boolean;
  protected abstract isTruncated(): boolean;

  /**
   * Steps until isTruncated() holds, with time summed the way step() sums it (so float rounding
   * lands on the same step); null for a scene that is never truncated (merge).
   */
  stepLimit(): number | null {
    if (this.stepLimitCache !== undefined) return this.stepLimitCache;
    const saved = this.time;
    let limit: number | null = null;
    try {
      this.time = 0;
      for (let n = 0; n <= MAX_TRUNCATION_STEPS; n++) {
        if (this.isTruncated()) {
          limit = n;
          break;
        }
        this.time += 1 / this.timing.policyFrequency;
      }
    } finally {
      this.time = saved;
    }
    this.stepLimitCache = limit;
    return limit;
  }
  private stepLimitCache: number | null | undefined;
  protected extraInfo(_info: Record<string, unknown>): void {}
  /** Fixes per-episode observation settings after a reset or a loaded scene. */
  protected afterSceneReady(): void {
    const k = this.kinematics;
    if (!k) return;
    k.featureRanges = this.restoredRanges ?? k.config.featuresRange;
    this.restoredRanges = null;
    k.ensureRanges(this.road, this.ego);
  }

  reset(opts: ResetOptions = {}): ResetResult<O> {
    if (opts.seed !== undefined) this.rng.reseed(opts.seed);
    this.time = 0;
    this.steps = 0;
    this.buildScene();
    this.resendRoad();
    this.afterSceneReady();
    const observation = this.observe();
    return { observation, info: this.info(null) };
  }

  step(action: unknown): StepResult<O> {
    // Validate before anything moves, so a bad action leaves the episode as it was.
    if (this.actionType instanceof DiscreteMetaAction) this.actionType.label(action);
    else this.actionType.command(action);
    this.time += 1 / this.timing.policyFrequency;
    this.simulate(action);
    return this.finishStep(action);
  }

  protected finishStep(action: unknown): StepResult<O> {
    const observation = this.observe();
    const terms = this.rewardTerms(action);
    const reward = this.reward(action, terms);
    const terminated = this.isTerminated();
    const truncated = this.isTruncated();
    return { observation, reward, terminated, truncated, info: this.info(action, terms) };
  }

  protected simulate(action: unknown): void {
    const frames = Math.floor(this.timing.simulationFrequency / this.timing.policyFrequency);
    const dt = 1 / this.timing.simulationFrequency;
    for (let frame = 0; frame < frames; frame++) {
      if (action !== null && action !== undefined && this.steps % frames === 0) this.actionType.act(this.ego, action);
      this.road.act();
      this.road.step(dt);
      this.steps++;
    }
  }

  protected info(action: unknown, terms: Record<string, number> | null = this.rewardTerms(action)): Info {
    const info: Record<string, unknown> = { speed: this.ego.speed, crashed: this.ego.crashed, action: action ?? null };
    if (terms) info['rewards'] = terms;
    this.extraInfo(info);
    return info;
  }

  getState(): SceneState {
    return {
      time: this.time,
      sim_steps: this.steps,
      ego_index: [this.road.vehicles.indexOf(this.ego)],
      vehicles: this.road.vehicles.map(vehicleState),
      // Later draws (intersection spawns, shuffled observations) continue the same stream.
      rng: this.rng.getState(),
      ...this.extraState(),
    };
  }

  protected extraState(): Record<string, unknown> {
    return this.kinematics ? { features_range: this.kinematics.featureRanges } : {};
  }

  protected restoreExtraState(state: SceneState): void {
    const r = state['features_range'];
    this.restoredRanges = r && typeof r === 'object' ? (r as FeatureRanges) : null;
  }

  setState(raw: unknown): void {
    const state = raw as SceneState;
    if (!state || typeof state !== 'object' || !Array.isArray(state.vehicles) || !Array.isArray(state.ego_index)) {
      throw new SceneStateError('a driving scene state needs vehicles and ego_index');
    }
    this.buildNetwork(state);
    const egoIndex = state.ego_index[0];
    if (typeof egoIndex !== 'number' || !state.vehicles[egoIndex]) throw new SceneStateError(`ego_index ${JSON.stringify(state.ego_index)} names no vehicle`);
    this.road.vehicles = state.vehicles.map((s, i) => {
      const v = restoreVehicle(this.road, s);
      this.configureVehicle(v, i === egoIndex);
      return v;
    });
    this.ego = this.road.vehicles[egoIndex] as Vehicle;
    this.time = typeof state.time === 'number' ? state.time : 0;
    this.steps = typeof state.sim_steps === 'number' ? state.sim_steps : 0;
    const rng = state['rng'];
    if (Array.isArray(rng) && rng.length === 4 && rng.every((x) => typeof x === 'number')) this.rng.setState(rng as [number, number, number, number]);
    this.restoreExtraState(state);
    this.resendRoad();
    this.afterSceneReady();
  }

  /** How wide a view (metres) the replay shows around the ego vehicle; null shows the whole scene centred. */
  protected readonly viewWidth: number | null = 100;
  private roadSent = false;
  private roadKey: string | null = null;

  /**
   * What the replay draws: every vehicle's pose and size, the ego index, and, in the first
   * snapshot after a reset or a loaded state only, the lane shapes and static obstacles under a
   * `road` key that later snapshots repeat (trajectories store what changes).
   */
  snapshot(): unknown {
    // The replay shows `view` metres around the ego vehicle: farther vehicles are never drawn (the
    // observation's default range is the same ±100 m), and highway-v0 spreads 50 over a kilometre.
    const view = this.viewWidth;
    const [ex, ey] = this.ego.position;
    const shown = view === null ? this.road.vehicles : this.road.vehicles.filter((v) => v === this.ego || Math.hypot(v.position[0] - ex, v.position[1] - ey) <= view);
    // Millimetres and milliradians are plenty for drawing and halve the trajectory files.
    const vehicles = shown.map((v) => ({ x: r3(v.position[0]), y: r3(v.position[1]), h: r3(v.heading), l: v.length, w: v.width, v: r3(v.speed), c: v.crashed }));
    const out: Record<string, unknown> = { time: this.time, ego: shown.indexOf(this.ego), vehicles, view };
    if (!this.roadSent || this.roadKey === null) {
      const lanes = this.road.network.lanes().map((l) => l.lane.shape());
      const obstacles = this.road.objects.filter((o) => o.kind === 'obstacle').map((o) => ({ x: o.position[0], y: o.position[1], h: o.heading, l: o.length, w: o.width }));
      this.roadKey ??= roadKey(JSON.stringify([lanes, obstacles]));
      if (!this.roadSent) {
        out['lanes'] = lanes;
        out['obstacles'] = obstacles;
        this.roadSent = true;
      }
    }
    out['road'] = this.roadKey;
    this.extraSnapshot(out);
    return out;
  }

  protected extraSnapshot(_out: Record<string, unknown>): void {}

  /** Stored trajectories: the road once, then per step vehicle rows and what else changed (trajectoryDelta.ts). */
  deltaRecorder(): HighwayDeltaRecorder {
    return new HighwayDeltaRecorder(() => this.snapshot());
  }

  /** Marks the road as not yet sent (after a reset or a loaded state). */
  protected resendRoad(): void {
    this.roadSent = false;
  }
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

/** A short content hash naming a road layout (FNV-1a). */
function roadKey(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16);
}

export { EMPTY_INFO };
