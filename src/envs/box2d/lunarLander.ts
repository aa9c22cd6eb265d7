/**
 * LunarLander-v3 (discrete and continuous) following Gymnasium 1.4's rules: the moon from 12
 * random heights smoothed into 11 edges, a random initial push, engines as impulses at
 * dispersed points, shaping reward, and the lander's sleep as the landing signal.
 */
import { Box, Discrete, type Space } from '../core/spaces';
import { EMPTY_INFO, type Env, type ResetOptions, type ResetResult, type StepResult } from '../core/env';
import { RngDraws, type Draws } from './draws';
import type { BodyState, PhysBody, PhysicsEngine, PhysWorld } from './physics';
import { planckEngine } from './planckEngine';
import { landerSnapshot, type LanderPose, type LanderShapes } from '../../protocol/landerTrajectory';
import { LanderDeltaRecorder } from './landerDelta';

const f = Math.fround;
export const FPS = 50;
export const SCALE = 30.0;
const MAIN_ENGINE_POWER = 13.0;
const SIDE_ENGINE_POWER = 0.6;
const INITIAL_RANDOM = 1000.0;
export const LANDER_POLY: ReadonlyArray<readonly [number, number]> = [[-14, 17], [-17, 0], [-17, -10], [17, -10], [17, 0], [14, 17]];
const LEG_AWAY = 20;
export const LEG_DOWN = 18;
const LEG_W = 2;
const LEG_H = 8;
const LEG_SPRING_TORQUE = 40;
const SIDE_ENGINE_HEIGHT = 14;
const SIDE_ENGINE_AWAY = 12;
const MAIN_ENGINE_Y_LOCATION = 4;
export const VIEWPORT_W = 600;
export const VIEWPORT_H = 400;
const W = VIEWPORT_W / SCALE;
const H = VIEWPORT_H / SCALE;
const CHUNKS = 11;

export interface LunarLanderOptions {
  continuous: boolean;
  gravity: number;
  enableWind: boolean;
  windPower: number;
  turbulencePower: number;
  /** Largest component of the random push at reset (Gymnasium's INITIAL_RANDOM when absent). */
  initialRandom?: number;
  engine?: PhysicsEngine;
  draws?: Draws;
}

/** What the replay renderer needs to redraw the moon once per episode. */
export interface LanderWorld {
  /** The 11 smoothed terrain points (x, y) in metres. */
  terrain: [number, number][];
  helipadX1: number;
  helipadX2: number;
  helipadY: number;
}

export interface LunarLanderState {
  world: LanderWorld;
  bodies: { lander: BodyState; legs: [BodyState, BodyState] };
  groundContact: [boolean, boolean];
  gameOver: boolean;
  prevShaping: number | null;
  windIdx: number;
  torqueIdx: number;
}

type LanderAction = number | ArrayLike<number>;

export class LunarLanderEnv implements Env<Float64Array, LanderAction> {
  readonly observationSpace = new Box([-2.5, -2.5, -10, -10, -2 * Math.PI, -10, -0, -0], [2.5, 2.5, 10, 10, 2 * Math.PI, 10, 1, 1], [8], 'float32');
  readonly actionSpace: Space<LanderAction>;
  /** Replaceable so a golden replay can feed recorded draws. */
  draws: Draws;
  private readonly engine: PhysicsEngine;
  private world: PhysWorld | null = null;
  private lander: PhysBody | null = null;
  private legs: PhysBody[] = [];
  private moonInfo: LanderWorld = { terrain: [], helipadX1: 0, helipadX2: 0, helipadY: 0 };
  private readonly groundContact: [boolean, boolean] = [false, false];
  private gameOver = false;
  private prevShaping: number | null = null;
  private windIdx = 0;
  private torqueIdx = 0;
  private lastPower: [number, number] = [0, 0];
  private readonly obs = new Float64Array(8);
  private readonly result: StepResult<Float64Array> = { observation: this.obs, reward: 0, terminated: false, truncated: false, info: EMPTY_INFO };

  constructor(private readonly opts: LunarLanderOptions) {
    if (!(opts.gravity > -12 && opts.gravity < 0)) throw new RangeError(`gravity (${opts.gravity}) must be between -12 and 0`);
    this.engine = opts.engine ?? planckEngine;
    this.draws = opts.draws ?? new RngDraws();
    this.actionSpace = (opts.continuous ? new Box(-1, 1, [2], 'float32') : new Discrete(4)) as Space<LanderAction>;
  }

  reset(o: ResetOptions = {}): ResetResult<Float64Array> {
    if (o.seed !== undefined) this.draws.reseed(o.seed);
    const world = this.engine.createWorld(0, this.opts.gravity);
    this.world = world;
    world.onContact(
      (a, b) => this.contact(a, b, true),
      (a, b) => this.contact(a, b, false),
    );
    this.gameOver = false;
    this.prevShaping = null;
    this.groundContact[0] = this.groundContact[1] = false;

    const height: number[] = [];
    for (let i = 0; i <= CHUNKS; i++) height.push(this.draws.uniform(0, H / 2));
    const chunkX = Array.from({ length: CHUNKS }, (_, i) => (W / (CHUNKS - 1)) * i);
    const helipadY = H / 4;
    for (let k = -2; k <= 2; k++) height[Math.floor(CHUNKS / 2) + k] = helipadY;
    const smoothY = chunkX.map((_, i) => 0.33 * ((height.at(i - 1) as number) + (height[i] as number) + (height[i + 1] as number)));
    const edges = [{ shape: { kind: 'edge' as const, a: { x: 0, y: 0 }, b: { x: f(W), y: 0 } } }];
    const fixtures = [...edges];
    for (let i = 0; i < CHUNKS - 1; i++) {
      fixtures.push({
        shape: { kind: 'edge', a: { x: f(chunkX[i] as number), y: f(smoothY[i] as number) }, b: { x: f(chunkX[i + 1] as number), y: f(smoothY[i + 1] as number) } },
        density: 0,
        friction: f(0.1),
      } as (typeof edges)[number]);
    }
    world.createBody({ type: 'static', x: 0, y: 0, fixtures: fixtures.map((fx, i) => (i === 0 ? { ...fx, friction: f(0.2) } : fx)), tag: 'moon' });
    this.moonInfo = {
      terrain: chunkX.map((x, i) => [x, smoothY[i] as number]),
      helipadX1: chunkX[Math.floor(CHUNKS / 2) - 1] as number,
      helipadX2: chunkX[Math.floor(CHUNKS / 2) + 1] as number,
      helipadY,
    };

    const initialY = VIEWPORT_H / SCALE;
    const initialX = VIEWPORT_W / SCALE / 2;
    this.lander = world.createBody({
      type: 'dynamic',
      x: f(initialX),
      y: f(initialY),
      fixtures: [{ shape: { kind: 'polygon', vertices: LANDER_POLY.map(([x, y]) => ({ x: f(x / SCALE), y: f(y / SCALE) })) }, density: 5, friction: f(0.1), categoryBits: 0x10, maskBits: 0x1, restitution: 0 }],
      tag: 'lander',
    });
    const push = this.opts.initialRandom ?? INITIAL_RANDOM;
    this.lander.applyForceToCenter(f(this.draws.uniform(-push, push)), f(this.draws.uniform(-push, push)));
    if (this.opts.enableWind) {
      this.windIdx = this.draws.integers(-9999, 9999);
      this.torqueIdx = this.draws.integers(-9999, 9999);
    }
    this.legs = [];
    for (const i of [-1, 1]) {
      const leg = world.createBody({
        type: 'dynamic',
        x: f(initialX - (i * LEG_AWAY) / SCALE),
        y: f(initialY),
        angle: f(i * 0.05),
        fixtures: [{ shape: { kind: 'box', hx: f(LEG_W / SCALE), hy: f(LEG_H / SCALE) }, density: 1, restitution: 0, friction: f(0.2), categoryBits: 0x20, maskBits: 0x1 }],
        tag: i === -1 ? 'leg0' : 'leg1',
      });
      world.createRevolute({
        bodyA: this.lander,
        bodyB: leg,
        localAnchorA: { x: 0, y: 0 },
        localAnchorB: { x: f((i * LEG_AWAY) / SCALE), y: f(LEG_DOWN / SCALE) },
        enableMotor: true,
        enableLimit: true,
        maxMotorTorque: LEG_SPRING_TORQUE,
        motorSpeed: f(0.3 * i),
        lowerAngle: i === -1 ? f(0.9 - 0.5) : f(-0.9),
        upperAngle: i === -1 ? f(0.9) : f(-0.9 + 0.5),
      });
      this.legs.push(leg);
    }
    // Gymnasium ends reset with one idle step: the push and the first dispersion draws happen there.
    this.step(this.opts.continuous ? [0, 0] : 0);
    return { observation: this.obs, info: EMPTY_INFO };
  }

  private contact(a: unknown, b: unknown, begin: boolean): void {
    if (begin && (a === 'lander' || b === 'lander')) this.gameOver = true;
    if (a === 'leg0' || b === 'leg0') this.groundContact[0] = begin;
    if (a === 'leg1' || b === 'leg1') this.groundContact[1] = begin;
  }

  step(action: LanderAction): StepResult<Float64Array> {
    const lander = this.lander;
    const world = this.world;
    if (!lander || !world) throw new Error('LunarLander: step() before reset()');
    let main = 0;
    let lateral = 0;
    let discrete = -1;
    if (this.opts.continuous) {
      const a = action as ArrayLike<number>;
      if (typeof a !== 'object' || a === null || a.length !== 2) throw new TypeError(`LunarLander (continuous) expects [main, lateral], got ${JSON.stringify(action)}`);
      // Gymnasium clips the float32 action, then widens it to float64.
      main = clip(f(a[0] as number), -1, 1);
      lateral = clip(f(a[1] as number), -1, 1);
    } else {
      if (!this.actionSpace.contains(action)) throw new TypeError(`LunarLander expects an action in 0..3, got ${JSON.stringify(action)}`);
      discrete = action as number;
    }
    if (this.opts.enableWind && !(this.groundContact[0] || this.groundContact[1])) {
      const windMag = Math.tanh(Math.sin(0.02 * this.windIdx) + Math.sin(Math.PI * 0.01 * this.windIdx)) * this.opts.windPower;
      this.windIdx++;
      lander.applyForceToCenter(f(windMag), 0);
      const torqueMag = Math.tanh(Math.sin(0.02 * this.torqueIdx) + Math.sin(Math.PI * 0.01 * this.torqueIdx)) * this.opts.turbulencePower;
      this.torqueIdx++;
      lander.applyTorque(f(torqueMag));
    }
    const angle = lander.angle();
    const tip0 = Math.sin(angle);
    const tip1 = Math.cos(angle);
    const side0 = -tip1;
    const side1 = tip0;
    const d0 = this.draws.uniform(-1, 1) / SCALE;
    const d1 = this.draws.uniform(-1, 1) / SCALE;

    let mPower = 0;
    if (this.opts.continuous ? main > 0 : discrete === 2) {
      mPower = this.opts.continuous ? (clip(main, 0, 1) + 1) * 0.5 : 1;
      const ox = tip0 * (MAIN_ENGINE_Y_LOCATION / SCALE + 2 * d0) + side0 * d1;
      const oy = -tip1 * (MAIN_ENGINE_Y_LOCATION / SCALE + 2 * d0) - side1 * d1;
      const px = lander.x() + ox;
      const py = lander.y() + oy;
      lander.applyLinearImpulse(f(-ox * MAIN_ENGINE_POWER * mPower), f(-oy * MAIN_ENGINE_POWER * mPower), f(px), f(py));
    }
    let sPower = 0;
    if (this.opts.continuous ? Math.abs(lateral) > 0.5 : discrete === 1 || discrete === 3) {
      let direction: number;
      if (this.opts.continuous) {
        direction = Math.sign(lateral);
        sPower = clip(Math.abs(lateral), 0.5, 1);
      } else {
        direction = discrete - 2;
        sPower = 1;
      }
      const ox = tip0 * d0 + side0 * (3 * d1 + (direction * SIDE_ENGINE_AWAY) / SCALE);
      const oy = -tip1 * d0 - side1 * (3 * d1 + (direction * SIDE_ENGINE_AWAY) / SCALE);
      const px = lander.x() + ox - (tip0 * 17) / SCALE;
      const py = lander.y() + oy + (tip1 * SIDE_ENGINE_HEIGHT) / SCALE;
      lander.applyLinearImpulse(f(-ox * SIDE_ENGINE_POWER * sPower), f(-oy * SIDE_ENGINE_POWER * sPower), f(px), f(py));
    }
    this.lastPower = [mPower, sPower];

    // pybox2d hands the time step to Box2D as a float32.
    world.step(f(1.0 / FPS), 6 * 30, 2 * 30);

    const s0 = (lander.x() - VIEWPORT_W / SCALE / 2) / (VIEWPORT_W / SCALE / 2);
    const s1 = (lander.y() - (this.moonInfo.helipadY + LEG_DOWN / SCALE)) / (VIEWPORT_H / SCALE / 2);
    const s2 = (lander.vx() * (VIEWPORT_W / SCALE / 2)) / FPS;
    const s3 = (lander.vy() * (VIEWPORT_H / SCALE / 2)) / FPS;
    const s4 = lander.angle();
    const s5 = (20.0 * lander.angularVelocity()) / FPS;
    const s6 = this.groundContact[0] ? 1 : 0;
    const s7 = this.groundContact[1] ? 1 : 0;
    const o = this.obs;
    o[0] = f(s0);
    o[1] = f(s1);
    o[2] = f(s2);
    o[3] = f(s3);
    o[4] = f(s4);
    o[5] = f(s5);
    o[6] = s6;
    o[7] = s7;

    const shaping = -100 * Math.sqrt(s0 * s0 + s1 * s1) - 100 * Math.sqrt(s2 * s2 + s3 * s3) - 100 * Math.abs(s4) + 10 * s6 + 10 * s7;
    let reward = this.prevShaping === null ? 0 : shaping - this.prevShaping;
    this.prevShaping = shaping;
    reward -= mPower * 0.3;
    reward -= sPower * 0.03;
    let terminated = false;
    if (this.gameOver || Math.abs(s0) >= 1) {
      terminated = true;
      reward = -100;
    }
    if (!lander.awake()) {
      terminated = true;
      reward = 100;
    }
    const r = this.result;
    r.reward = reward;
    r.terminated = terminated;
    r.truncated = false;
    return r;
  }

  /** The lander and legs as Box2D holds them. */
  bodies(): { lander: BodyState; legs: BodyState[] } {
    if (!this.lander) throw new Error('LunarLander: no world before reset()');
    return { lander: readBody(this.lander), legs: this.legs.map(readBody) };
  }

  getState(): LunarLanderState {
    const b = this.bodies();
    return {
      world: this.moonInfo,
      bodies: { lander: b.lander, legs: [b.legs[0] as BodyState, b.legs[1] as BodyState] },
      groundContact: [this.groundContact[0], this.groundContact[1]],
      gameOver: this.gameOver,
      prevShaping: this.prevShaping,
      windIdx: this.windIdx,
      torqueIdx: this.torqueIdx,
    };
  }

  /**
   * Moves the bodies of the current world to a recorded state. Contact impulses that Box2D
   * keeps between steps are not part of the state, so a step from a loaded state in contact
   * can differ slightly from the original run.
   */
  setState(state: unknown): void {
    const s = state as Partial<LunarLanderState>;
    if (!this.lander || !s || typeof s !== 'object' || !s.bodies?.lander || !Array.isArray(s.bodies.legs)) {
      throw new TypeError('LunarLander state must be { bodies: { lander, legs: [2] }, … } after reset()');
    }
    this.lander.setState(s.bodies.lander);
    s.bodies.legs.forEach((leg, i) => this.legs[i]?.setState(leg));
    if (s.groundContact) [this.groundContact[0], this.groundContact[1]] = s.groundContact;
    this.gameOver = s.gameOver ?? false;
    this.prevShaping = s.prevShaping ?? null;
    this.windIdx = s.windIdx ?? this.windIdx;
    this.torqueIdx = s.torqueIdx ?? this.torqueIdx;
  }

  /** What moves, after the last step (null before reset). */
  pose(): LanderPose | null {
    if (!this.lander) return null;
    return { bodies: [this.lander, ...this.legs].map((b) => [b.x(), b.y(), b.angle()]), groundContact: [...this.groundContact], enginePower: [...this.lastPower] };
  }

  /** Body-local polygons of the lander and its legs (null before reset). */
  shapes(): LanderShapes | null {
    if (!this.lander) return null;
    return { lander: this.lander.localPolygons(), legs: this.legs.map((l) => l.localPolygons()[0] ?? []) };
  }

  /** The moon of this episode. */
  moon(): LanderWorld {
    return this.moonInfo;
  }

  /** The observation the policy sees now. */
  currentObservation(): Float64Array {
    return this.obs;
  }

  snapshot(): unknown {
    const pose = this.pose();
    const shapes = this.shapes();
    return pose === null || shapes === null ? null : landerSnapshot(this.moonInfo, shapes, pose);
  }

  /** Trajectories record the moon once and per step the poses (src/protocol/landerTrajectory.ts). */
  deltaRecorder(): LanderDeltaRecorder {
    return new LanderDeltaRecorder(this);
  }
}

function clip(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

export function readBody(b: PhysBody): BodyState {
  return { x: b.x(), y: b.y(), angle: b.angle(), vx: b.vx(), vy: b.vy(), w: b.angularVelocity(), awake: b.awake() };
}
