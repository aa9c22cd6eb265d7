/**
 * BipedalWalker-v3 (and its hardcore variant) following Gymnasium 1.4's rules: 200-step
 * terrain with grass noise (plus stumps, stairs and pits in hardcore), a hull on two
 * two-segment legs driven by torque-limited motors, ten lidar rays, and a reward for forward
 * progress minus motor effort.
 */
import { Box } from '../core/spaces';
import { EMPTY_INFO, type Env, type ResetOptions, type ResetResult, type StepResult } from '../core/env';
import { RngDraws, type Draws } from './draws';
import { readBody } from './lunarLander';
import type { BodyState, FixtureSpec, PhysBody, PhysicsEngine, PhysJoint, PhysWorld } from './physics';
import { planckEngine } from './planckEngine';
import { walkerSnapshot, type WalkerGround, type WalkerPose } from '../../protocol/walkerTrajectory';
import { WalkerDeltaRecorder } from './walkerDelta';

const f = Math.fround;
const FPS = 50;
const SCALE = 30.0;
const MOTORS_TORQUE = 80;
const SPEED_HIP = 4;
const SPEED_KNEE = 6;
export const LIDAR_RANGE = 160 / SCALE;
const INITIAL_RANDOM = 5;
const HULL_POLY: ReadonlyArray<readonly [number, number]> = [[-30, 9], [6, 9], [34, 1], [34, -8], [-30, -8]];
const LEG_DOWN = -8 / SCALE;
const LEG_W = 8 / SCALE;
const LEG_H = 34 / SCALE;
const VIEWPORT_W = 600;
const VIEWPORT_H = 400;
export const TERRAIN_STEP = 14 / SCALE;
export const TERRAIN_LENGTH = 200;
const TERRAIN_HEIGHT = VIEWPORT_H / SCALE / 4;
const TERRAIN_GRASS = 10;
const TERRAIN_STARTPAD = 20;
const FRICTION = 2.5;
/** Gymnasium's reward charges 0.00035·MOTORS_TORQUE per unit of |action|, in float32 (NumPy ≥ 2 promotion). */
const EFFORT = f(0.00035 * MOTORS_TORQUE);

const GRASS = 0;
const STUMP = 1;
const STAIRS = 2;
const PIT = 3;

type Pt = [number, number];

/** The generated world a renderer needs: terrain outline, obstacle polygons and clouds. */
export interface WalkerWorld {
  terrainX: number[];
  terrainY: number[];
  /** Stumps, stairs and pit walls (hardcore). */
  obstacles: Pt[][];
  clouds: Pt[][];
}

export interface WalkerOptions {
  hardcore: boolean;
  /** Scale of the grass's random slope changes (1, Gymnasium's, when absent; 0 is flat). */
  terrainRoughness?: number;
  /** Multiplies the grass stretch between hardcore obstacles (1, Gymnasium's, when absent). */
  obstacleSpacing?: number;
  engine?: PhysicsEngine;
  draws?: Draws;
}

export class BipedalWalkerEnv implements Env<Float64Array, ArrayLike<number>> {
  readonly observationSpace = new Box(
    [-Math.PI, -5, -5, -5, -Math.PI, -5, -Math.PI, -5, -0, -Math.PI, -5, -Math.PI, -5, -0, ...Array<number>(10).fill(-1)],
    [Math.PI, 5, 5, 5, Math.PI, 5, Math.PI, 5, 5, Math.PI, 5, Math.PI, 5, 5, ...Array<number>(10).fill(1)],
    [24],
    'float32',
  );
  readonly actionSpace = new Box(-1, 1, [4], 'float32');
  /** Replaceable so a golden replay can feed recorded draws. */
  draws: Draws;
  private readonly engine: PhysicsEngine;
  private world: PhysWorld | null = null;
  private hull: PhysBody | null = null;
  /** Left upper, left lower, right upper, right lower. */
  private legs: PhysBody[] = [];
  private joints: PhysJoint[] = [];
  private readonly groundContact = [false, false, false, false];
  private gameOver = false;
  private prevShaping: number | null = null;
  private terrain: WalkerWorld = { terrainX: [], terrainY: [], obstacles: [], clouds: [] };
  private readonly lidar = new Float64Array(10);
  private readonly obs = new Float64Array(24);
  private readonly result: StepResult<Float64Array> = { observation: this.obs, reward: 0, terminated: false, truncated: false, info: EMPTY_INFO };

  constructor(private readonly opts: WalkerOptions) {
    this.engine = opts.engine ?? planckEngine;
    this.draws = opts.draws ?? new RngDraws();
  }

  reset(o: ResetOptions = {}): ResetResult<Float64Array> {
    if (o.seed !== undefined) this.draws.reseed(o.seed);
    const world = this.engine.createWorld(0, -10);
    this.world = world;
    world.onContact(
      (a, b) => this.contact(a, b, true),
      (a, b) => this.contact(a, b, false),
    );
    this.gameOver = false;
    this.prevShaping = null;
    this.groundContact.fill(false);
    this.generateTerrain(world, this.opts.hardcore);
    this.terrain.clouds = this.generateClouds();

    const initX = (TERRAIN_STEP * TERRAIN_STARTPAD) / 2;
    const initY = TERRAIN_HEIGHT + 2 * LEG_H;
    const hullFixture: FixtureSpec = { shape: { kind: 'polygon', vertices: HULL_POLY.map(([x, y]) => ({ x: f(x / SCALE), y: f(y / SCALE) })) }, density: 5, friction: f(0.1), categoryBits: 0x20, maskBits: 0x1, restitution: 0 };
    this.hull = world.createBody({ type: 'dynamic', x: f(initX), y: f(initY), fixtures: [hullFixture], tag: 'hull' });
    this.hull.applyForceToCenter(f(this.draws.uniform(-INITIAL_RANDOM, INITIAL_RANDOM)), 0);
    this.legs = [];
    this.joints = [];
    for (const i of [-1, 1]) {
      const side = i === -1 ? 0 : 2;
      const leg = world.createBody({
        type: 'dynamic',
        x: f(initX),
        y: f(initY - LEG_H / 2 - LEG_DOWN),
        angle: f(i * 0.05),
        fixtures: [{ shape: { kind: 'box', hx: f(LEG_W / 2), hy: f(LEG_H / 2) }, density: 1, friction: f(0.2), restitution: 0, categoryBits: 0x20, maskBits: 0x1 }],
        tag: side,
      });
      this.joints.push(
        world.createRevolute({ bodyA: this.hull, bodyB: leg, localAnchorA: { x: 0, y: f(LEG_DOWN) }, localAnchorB: { x: 0, y: f(LEG_H / 2) }, enableMotor: true, enableLimit: true, maxMotorTorque: MOTORS_TORQUE, motorSpeed: i, lowerAngle: f(-0.8), upperAngle: f(1.1) }),
      );
      this.legs.push(leg);
      const lower = world.createBody({
        type: 'dynamic',
        x: f(initX),
        y: f(initY - (LEG_H * 3) / 2 - LEG_DOWN),
        angle: f(i * 0.05),
        fixtures: [{ shape: { kind: 'box', hx: f((0.8 * LEG_W) / 2), hy: f(LEG_H / 2) }, density: 1, friction: f(0.2), restitution: 0, categoryBits: 0x20, maskBits: 0x1 }],
        tag: side + 1,
      });
      this.joints.push(
        world.createRevolute({ bodyA: leg, bodyB: lower, localAnchorA: { x: 0, y: f(-LEG_H / 2) }, localAnchorB: { x: 0, y: f(LEG_H / 2) }, enableMotor: true, enableLimit: true, maxMotorTorque: MOTORS_TORQUE, motorSpeed: 1, lowerAngle: f(-1.6), upperAngle: f(-0.1) }),
      );
      this.legs.push(lower);
    }
    this.step([0, 0, 0, 0]);
    return { observation: this.obs, info: EMPTY_INFO };
  }

  private contact(a: unknown, b: unknown, begin: boolean): void {
    if (begin && (a === 'hull' || b === 'hull')) this.gameOver = true;
    // Gymnasium tracks ground contact of the lower legs only.
    for (const k of [1, 3]) if (a === k || b === k) this.groundContact[k] = begin;
  }

  private generateTerrain(world: PhysWorld, hardcore: boolean): void {
    const d = this.draws;
    const roughness = this.opts.terrainRoughness ?? 1;
    const spacing = this.opts.obstacleSpacing ?? 1;
    let state = GRASS;
    let velocity = 0;
    let y = TERRAIN_HEIGHT;
    let counter = TERRAIN_STARTPAD;
    let oneshot = false;
    const xs: number[] = [];
    const ys: number[] = [];
    const obstacles: Pt[][] = [];
    let stairSteps = 0;
    let stairWidth = 0;
    let stairHeight = 0;
    let originalY = 0;
    const addPolygon = (poly: Pt[]): void => {
      world.createBody({ type: 'static', x: 0, y: 0, fixtures: [{ shape: { kind: 'polygon', vertices: poly.map(([px, py]) => ({ x: f(px), y: f(py) })) }, friction: FRICTION }], tag: 'terrain' });
      obstacles.push(poly);
    };
    for (let i = 0; i < TERRAIN_LENGTH; i++) {
      const x = i * TERRAIN_STEP;
      xs.push(x);
      if (state === GRASS && !oneshot) {
        velocity = 0.8 * velocity + 0.01 * Math.sign(TERRAIN_HEIGHT - y);
        if (i > TERRAIN_STARTPAD) velocity += (roughness * d.uniform(-1, 1)) / SCALE;
        y += velocity;
      } else if (state === PIT && oneshot) {
        counter = d.integers(3, 5);
        const poly: Pt[] = [[x, y], [x + TERRAIN_STEP, y], [x + TERRAIN_STEP, y - 4 * TERRAIN_STEP], [x, y - 4 * TERRAIN_STEP]];
        addPolygon(poly);
        addPolygon(poly.map(([px, py]) => [px + TERRAIN_STEP * counter, py]));
        counter += 2;
        originalY = y;
      } else if (state === PIT && !oneshot) {
        y = originalY;
        if (counter > 1) y -= 4 * TERRAIN_STEP;
      } else if (state === STUMP && oneshot) {
        counter = d.integers(1, 3);
        addPolygon([[x, y], [x + counter * TERRAIN_STEP, y], [x + counter * TERRAIN_STEP, y + counter * TERRAIN_STEP], [x, y + counter * TERRAIN_STEP]]);
      } else if (state === STAIRS && oneshot) {
        stairHeight = d.random() > 0.5 ? 1 : -1;
        stairWidth = d.integers(4, 5);
        stairSteps = d.integers(3, 5);
        originalY = y;
        for (let s = 0; s < stairSteps; s++) {
          addPolygon([
            [x + s * stairWidth * TERRAIN_STEP, y + s * stairHeight * TERRAIN_STEP],
            [x + (1 + s) * stairWidth * TERRAIN_STEP, y + s * stairHeight * TERRAIN_STEP],
            [x + (1 + s) * stairWidth * TERRAIN_STEP, y + (-1 + s * stairHeight) * TERRAIN_STEP],
            [x + s * stairWidth * TERRAIN_STEP, y + (-1 + s * stairHeight) * TERRAIN_STEP],
          ]);
        }
        counter = stairSteps * stairWidth;
      } else if (state === STAIRS && !oneshot) {
        const s = stairSteps * stairWidth - counter - stairHeight;
        const n = s / stairWidth;
        y = originalY + n * stairHeight * TERRAIN_STEP;
      }
      oneshot = false;
      ys.push(y);
      counter -= 1;
      if (counter === 0) {
        counter = d.integers((spacing * TERRAIN_GRASS) / 2, spacing * TERRAIN_GRASS);
        if (state === GRASS && hardcore) state = d.integers(1, 5);
        else state = GRASS;
        oneshot = true;
      }
    }
    for (let i = 0; i < TERRAIN_LENGTH - 1; i++) {
      world.createBody({
        type: 'static',
        x: 0,
        y: 0,
        fixtures: [{ shape: { kind: 'edge', a: { x: f(xs[i] as number), y: f(ys[i] as number) }, b: { x: f(xs[i + 1] as number), y: f(ys[i + 1] as number) } }, friction: FRICTION, categoryBits: 1 }],
        tag: 'terrain',
      });
    }
    this.terrain = { terrainX: xs, terrainY: ys, obstacles, clouds: [] };
  }

  /** Clouds only decorate, but they draw from the generator, so they come in Gymnasium's order. */
  private generateClouds(): Pt[][] {
    const clouds: Pt[][] = [];
    for (let c = 0; c < TERRAIN_LENGTH / 20; c++) {
      const x = this.draws.uniform(0, TERRAIN_LENGTH) * TERRAIN_STEP;
      const y = ((VIEWPORT_H / SCALE) * 3) / 4;
      const poly: Pt[] = [];
      for (let a = 0; a < 5; a++) {
        const px = x + 15 * TERRAIN_STEP * Math.sin((3.14 * 2 * a) / 5) + this.draws.uniform(0, 5 * TERRAIN_STEP);
        const py = y + 5 * TERRAIN_STEP * Math.cos((3.14 * 2 * a) / 5) + this.draws.uniform(0, 5 * TERRAIN_STEP);
        poly.push([px, py]);
      }
      clouds.push(poly);
    }
    return clouds;
  }

  step(action: ArrayLike<number>): StepResult<Float64Array> {
    const hull = this.hull;
    const world = this.world;
    if (!hull || !world) throw new Error('BipedalWalker: step() before reset()');
    if (typeof action !== 'object' || action === null || action.length !== 4) throw new TypeError(`BipedalWalker expects 4 motor commands, got ${JSON.stringify(action)}`);
    let effort = 0;
    const a32 = [0, 0, 0, 0];
    for (let j = 0; j < 4; j++) {
      const a = f(action[j] as number);
      if (Number.isNaN(a)) throw new TypeError(`BipedalWalker action[${j}] is NaN`);
      a32[j] = a;
      const joint = this.joints[j] as PhysJoint;
      joint.setMotorSpeed((j % 2 === 0 ? SPEED_HIP : SPEED_KNEE) * Math.sign(a));
      joint.setMaxMotorTorque(f(MOTORS_TORQUE * clip(Math.abs(a), 0, 1)));
    }
    world.step(f(1.0 / FPS), 6 * 30, 2 * 30);

    const px = hull.x();
    const py = hull.y();
    for (let i = 0; i < 10; i++) {
      const p2 = { x: f(px + Math.sin((1.5 * i) / 10.0) * LIDAR_RANGE), y: f(py - Math.cos((1.5 * i) / 10.0) * LIDAR_RANGE) };
      this.lidar[i] = world.rayCast({ x: px, y: py }, p2, 1);
    }
    const j = this.joints as [PhysJoint, PhysJoint, PhysJoint, PhysJoint];
    const state = [
      hull.angle(),
      (2.0 * hull.angularVelocity()) / FPS,
      (0.3 * hull.vx() * (VIEWPORT_W / SCALE)) / FPS,
      (0.3 * hull.vy() * (VIEWPORT_H / SCALE)) / FPS,
      j[0].angle(),
      j[0].speed() / SPEED_HIP,
      j[1].angle() + 1.0,
      j[1].speed() / SPEED_KNEE,
      this.groundContact[1] ? 1 : 0,
      j[2].angle(),
      j[2].speed() / SPEED_HIP,
      j[3].angle() + 1.0,
      j[3].speed() / SPEED_KNEE,
      this.groundContact[3] ? 1 : 0,
    ];
    for (let i = 0; i < 14; i++) this.obs[i] = f(state[i] as number);
    for (let i = 0; i < 10; i++) this.obs[14 + i] = f(this.lidar[i] as number);

    let shaping = (130 * px) / SCALE;
    shaping -= 5.0 * Math.abs(state[0] as number);
    let reward = this.prevShaping === null ? 0 : shaping - this.prevShaping;
    this.prevShaping = shaping;
    // Under NumPy ≥ 2 the float32 effort terms turn the reward into a float32 from here on.
    for (const a of a32) {
      effort = f(EFFORT * f(clip(Math.abs(a), 0, 1)));
      reward = f(f(reward) - effort);
    }
    let terminated = false;
    if (this.gameOver || px < 0) {
      reward = -100;
      terminated = true;
    }
    if (px > (TERRAIN_LENGTH - TERRAIN_GRASS) * TERRAIN_STEP) terminated = true;
    const r = this.result;
    r.reward = reward;
    r.terminated = terminated;
    r.truncated = false;
    return r;
  }

  /** Hull, then left upper, left lower, right upper, right lower leg, as Box2D holds them. */
  bodies(): BodyState[] {
    if (!this.hull) throw new Error('BipedalWalker: no world before reset()');
    return [readBody(this.hull), ...this.legs.map(readBody)];
  }

  getState(): unknown {
    return { bodies: this.bodies(), groundContact: [...this.groundContact], gameOver: this.gameOver, prevShaping: this.prevShaping };
  }

  /** Moves the bodies to a recorded state (contact impulses kept by Box2D are not part of it). */
  setState(state: unknown): void {
    const s = state as { bodies?: BodyState[]; groundContact?: boolean[]; gameOver?: boolean; prevShaping?: number | null };
    if (!this.hull || !s || !Array.isArray(s.bodies) || s.bodies.length !== 5) throw new TypeError('BipedalWalker state must be { bodies: [hull, 4 legs], … } after reset()');
    [this.hull, ...this.legs].forEach((b, i) => b.setState(s.bodies![i] as BodyState));
    if (s.groundContact) s.groundContact.forEach((c, i) => (this.groundContact[i] = c));
    this.gameOver = s.gameOver ?? false;
    this.prevShaping = s.prevShaping ?? null;
  }

  /** The generated terrain and clouds (drawn once per episode). */
  worldInfo(): WalkerWorld {
    return this.terrain;
  }

  /** What moves, after the last step (null before reset). */
  pose(): WalkerPose | null {
    if (!this.hull) return null;
    return {
      bodies: [this.hull, ...this.legs].map((b) => [b.x(), b.y(), b.angle()]),
      groundContact: [this.groundContact[1] as boolean, this.groundContact[3] as boolean],
      lidar: Array.from(this.lidar),
    };
  }

  /** The ground as generated and the body shapes, for a trajectory header (null before reset). */
  ground(): WalkerGround | null {
    if (!this.hull) return null;
    const shapes = [this.hull, ...this.legs].map((b) => b.localPolygons()[0] ?? []);
    return { terrainX: this.terrain.terrainX, terrainY: this.terrain.terrainY, obstacles: this.terrain.obstacles, lidarRange: LIDAR_RANGE, shapes };
  }

  /** The observation the policy sees now. */
  currentObservation(): Float64Array {
    return this.obs;
  }

  /** The walker, its lidar, and the terrain within ±12 m (the replay draws this window around the hull). */
  snapshot(): unknown {
    const pose = this.pose();
    const ground = this.ground();
    return pose === null || ground === null ? null : walkerSnapshot(ground, pose);
  }

  /** Trajectories record the ground once and per step the pose (src/protocol/walkerTrajectory.ts). */
  deltaRecorder(): WalkerDeltaRecorder {
    return new WalkerDeltaRecorder(this);
  }
}

function clip(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}
