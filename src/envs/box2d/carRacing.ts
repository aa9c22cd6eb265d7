/**
 * CarRacing-v3 following Gymnasium 1.4: a random closed track of sensor tiles, a four-wheeled
 * car whose tyres push it with a friction-limited force (Gymnasium's own car model on top of
 * Box2D), +1000/N per new tile, −0.1 per frame, and the 96×96×3 top-down frame as observation.
 */
import { Box, Discrete, type Space } from '../core/spaces';
import { EMPTY_INFO, type Env, type Info, type ResetOptions, type ResetResult, type StepResult } from '../core/env';
import { carSnapshot, type CarPose, type CarTrackPolygon } from '../../protocol/carTrajectory';
import { CarDeltaRecorder } from './carDelta';
import { renderCarFrame, type CarFrameState } from './carRender';
import { createTrack, PLAYFIELD, type Track } from './carTrack';
import { RngDraws, type Draws } from './draws';
import { readBody } from './lunarLander';
import type { BodyState, PhysBody, PhysicsEngine, PhysJoint, PhysWorld } from './physics';
import { planckEngine } from './planckEngine';

const f = Math.fround;
const FPS = 50;
const SIZE = 0.02;
const ENGINE_POWER = 100000000 * SIZE * SIZE;
const WHEEL_MOMENT_OF_INERTIA = 4000 * SIZE * SIZE;
const FRICTION_LIMIT = 1000000 * SIZE * SIZE;
export const WHEEL_R = 27;
export const WHEEL_W = 14;
const WHEELPOS: ReadonlyArray<readonly [number, number]> = [[-55, 80], [55, 80], [-55, -82], [55, -82]];
export const HULL_POLYS: ReadonlyArray<ReadonlyArray<readonly [number, number]>> = [
  [[-60, 130], [60, 130], [60, 110], [-60, 110]],
  [[-15, 120], [15, 120], [20, 20], [-20, 20]],
  [[25, 20], [50, -10], [50, -40], [20, -90], [-20, -90], [-50, -40], [-50, -10], [-25, 20]],
  [[-50, -120], [50, -120], [50, -90], [-50, -90]],
];
export const CAR_SIZE = SIZE;

export interface CarRacingOptions {
  continuous: boolean;
  domainRandomize: boolean;
  lapCompletePercent: number;
  /** The most the track's heading turns per point (Gymnasium's TRACK_TURN_RATE when absent): lower bends more gently. */
  trackTurnRate?: number;
  /** Skip drawing the frame (the observation stays blank): for measurements of policies that ignore it. */
  skipFrames?: boolean;
  engine?: PhysicsEngine;
  draws?: Draws;
}

interface Wheel {
  body: PhysBody;
  joint: PhysJoint;
  gas: number;
  brake: number;
  steer: number;
  phase: number;
  omega: number;
  tiles: Set<number>;
}

export interface CarColors {
  road: number[];
  bg: number[];
  grass: number[];
}

type CarAction = number | ArrayLike<number>;

export class CarRacingEnv implements Env<Uint8Array, CarAction> {
  readonly observationSpace = new Box<Uint8Array>(0, 255, [96, 96, 3], 'uint8');
  /** A frame is ~100 KB of JSON: trajectories keep the car and the track (`deltaRecorder`) and the replay redraws the scene. */
  readonly recordsObservations = false;
  readonly actionSpace: Space<CarAction>;
  /** Replaceable so a golden replay can feed recorded draws. */
  draws: Draws;
  private readonly engine: PhysicsEngine;
  private world: PhysWorld | null = null;
  private hull: PhysBody | null = null;
  private wheels: Wheel[] = [];
  private track: Track | null = null;
  /** The track as snapshots and trajectories describe it (full-precision corners, tile, kerb colour). */
  private snapshotTrack: CarTrackPolygon[] = [];
  /** Current colour of every track polygon: a tile goes back to the plain road colour once touched. */
  private polygonColors: [number, number, number][] = [];
  private tilePolygon: number[] = [];
  private visited: boolean[] = [];
  private colors: CarColors = { road: [102, 102, 102], bg: [102, 204, 102], grass: [102, 230, 102] };
  private reward = 0;
  private prevReward = 0;
  private tileVisitedCount = 0;
  private t = 0;
  private newLap = false;
  private fuelSpent = 0;
  private readonly frame = new Uint8Array(96 * 96 * 3);
  private readonly result: StepResult<Uint8Array> = { observation: this.frame, reward: 0, terminated: false, truncated: false, info: EMPTY_INFO };

  constructor(private readonly opts: CarRacingOptions) {
    this.engine = opts.engine ?? planckEngine;
    this.draws = opts.draws ?? new RngDraws();
    this.actionSpace = (opts.continuous ? new Box([-1, 0, 0], [1, 1, 1], [3], 'float32') : new Discrete(5)) as Space<CarAction>;
  }

  reset(o: ResetOptions = {}): ResetResult<Uint8Array> {
    if (o.seed !== undefined) this.draws.reseed(o.seed);
    if (this.opts.domainRandomize) {
      const randomize = typeof o.options?.['randomize'] === 'boolean' ? (o.options['randomize'] as boolean) : true;
      if (randomize || this.colors.road[0] === 102) this.randomizeColors();
    }
    this.reward = 0;
    this.prevReward = 0;
    this.tileVisitedCount = 0;
    this.t = 0;
    this.newLap = false;
    this.fuelSpent = 0;
    let track: Track | null = null;
    while (!track) track = createTrack(this.draws, this.colors.road, this.opts.trackTurnRate);
    this.track = track;
    this.snapshotTrack = track.polygons.map((p) => ({ points: p.points.flatMap(([x, y]) => [x, y]), tile: p.tile, kerb: p.tile < 0 ? (p.color[1] === 0 ? 'red' : 'white') : null }));
    const world = this.engine.createWorld(0, 0);
    this.world = world;
    world.onContact(
      (a, b) => this.contact(a, b, true),
      (a, b) => this.contact(a, b, false),
    );
    this.polygonColors = track.polygons.map((p) => [Math.trunc(p.color[0]), Math.trunc(p.color[1]), Math.trunc(p.color[2])]);
    this.tilePolygon = [];
    track.polygons.forEach((p, i) => {
      if (p.tile < 0) return;
      this.tilePolygon[p.tile] = i;
      world.createBody({ type: 'static', x: 0, y: 0, fixtures: [{ shape: { kind: 'polygon', vertices: p.points.map(([x, y]) => ({ x: f(x), y: f(y) })) }, isSensor: true, friction: f(0.2) }], tag: { tile: p.tile } });
    });
    this.visited = new Array<boolean>(track.points.length).fill(false);
    const [, angle, x, y] = track.points[0] as [number, number, number, number];
    this.createCar(world, angle, x, y);
    this.advance(null);
    return { observation: this.frame, info: EMPTY_INFO };
  }

  private randomizeColors(): void {
    const road = [0, 1, 2].map(() => this.draws.uniform(0, 210));
    const bg = [0, 1, 2].map(() => this.draws.uniform(0, 210));
    const grass = [...bg];
    grass[this.draws.integers(0, 3)]! += 20;
    this.colors = { road, bg, grass };
  }

  private createCar(world: PhysWorld, angle: number, x: number, y: number): void {
    this.hull = world.createBody({
      type: 'dynamic',
      x: f(x),
      y: f(y),
      angle: f(angle),
      fixtures: HULL_POLYS.map((poly) => ({ shape: { kind: 'polygon' as const, vertices: poly.map(([px, py]) => ({ x: f(px * SIZE), y: f(py * SIZE) })) }, density: 1, friction: f(0.2) })),
      tag: 'hull',
    });
    this.wheels = WHEELPOS.map(([wx, wy], k) => {
      const body = world.createBody({
        type: 'dynamic',
        x: f(x + wx * SIZE),
        y: f(y + wy * SIZE),
        angle: f(angle),
        fixtures: [{ shape: { kind: 'box', hx: f(WHEEL_W * SIZE), hy: f(WHEEL_R * SIZE) }, density: f(0.1), friction: f(0.2), categoryBits: 0x20, maskBits: 0x1, restitution: 0 }],
        tag: k,
      });
      const joint = world.createRevolute({
        bodyA: this.hull as PhysBody,
        bodyB: body,
        localAnchorA: { x: f(wx * SIZE), y: f(wy * SIZE) },
        localAnchorB: { x: 0, y: 0 },
        enableMotor: true,
        enableLimit: true,
        maxMotorTorque: f(180 * 900 * SIZE * SIZE),
        motorSpeed: 0,
        lowerAngle: f(-0.4),
        upperAngle: f(0.4),
      });
      return { body, joint, gas: 0, brake: 0, steer: 0, phase: 0, omega: 0, tiles: new Set<number>() };
    });
  }

  private contact(a: unknown, b: unknown, begin: boolean): void {
    const tileOf = (u: unknown): number | null => (typeof u === 'object' && u !== null && 'tile' in u ? (u as { tile: number }).tile : null);
    let tile = tileOf(a);
    let other = b;
    if (tile === null) {
      tile = tileOf(b);
      other = a;
    }
    if (tile === null) return;
    const road = this.colors.road;
    this.polygonColors[this.tilePolygon[tile] as number] = [Math.trunc(road[0]!), Math.trunc(road[1]!), Math.trunc(road[2]!)];
    if (typeof other !== 'number') return;
    const wheel = this.wheels[other] as Wheel;
    if (begin) {
      wheel.tiles.add(tile);
      if (!this.visited[tile]) {
        this.visited[tile] = true;
        const n = this.visited.length;
        this.reward += 1000.0 / n;
        this.tileVisitedCount++;
        if (tile === 0 && this.tileVisitedCount / n > this.opts.lapCompletePercent) this.newLap = true;
      }
    } else {
      wheel.tiles.delete(tile);
    }
  }

  step(action: CarAction): StepResult<Uint8Array> {
    if (!this.hull) throw new Error('CarRacing: step() before reset()');
    if (this.opts.continuous) {
      const a = action as ArrayLike<number>;
      if (typeof a !== 'object' || a === null || a.length !== 3) throw new TypeError(`CarRacing (continuous) expects [steer, gas, brake], got ${JSON.stringify(action)}`);
      this.advance([f(a[0] as number), f(a[1] as number), f(a[2] as number)]);
    } else {
      if (!this.actionSpace.contains(action)) throw new TypeError(`CarRacing (discrete) expects an action in 0..4, got ${JSON.stringify(action)}`);
      const k = action as number;
      this.advance([(k === 1 ? 0.6 : 0) - (k === 2 ? 0.6 : 0), k === 3 ? 0.2 : 0, k === 4 ? 0.8 : 0]);
    }
    return this.result;
  }

  /** One frame: controls, the car's tyre model, the Box2D step, the frame; `null` is reset's idle step. */
  private advance(controls: [number, number, number] | null): void {
    const world = this.world as PhysWorld;
    if (controls) {
      const [steer, gas, brake] = controls;
      // Gymnasium steers the front wheels with the negated first action component.
      this.wheels[0]!.steer = -steer;
      this.wheels[1]!.steer = -steer;
      const g = clip(gas, 0, 1);
      for (const w of this.wheels.slice(2)) {
        let diff = g - w.gas;
        if (diff > 0.1) diff = 0.1;
        w.gas += diff;
      }
      for (const w of this.wheels) w.brake = brake;
    }
    this.carStep(1.0 / FPS);
    world.step(f(1.0 / FPS), 6 * 30, 2 * 30);
    this.t += 1.0 / FPS;
    this.renderFrame();

    let stepReward = 0;
    let terminated = false;
    let info: Info = EMPTY_INFO;
    if (controls) {
      this.reward -= 0.1;
      this.fuelSpent = 0;
      stepReward = this.reward - this.prevReward;
      this.prevReward = this.reward;
      if (this.tileVisitedCount === this.visited.length || this.newLap) {
        terminated = true;
        info = { lap_finished: true };
      }
      const hull = this.hull as PhysBody;
      if (Math.abs(hull.x()) > PLAYFIELD || Math.abs(hull.y()) > PLAYFIELD) {
        terminated = true;
        info = { lap_finished: false };
        stepReward = -100;
      }
    }
    const r = this.result;
    r.reward = stepReward;
    r.terminated = terminated;
    r.truncated = false;
    r.info = info;
  }

  private carStep(dt: number): void {
    for (const w of this.wheels) {
      const jointAngle = w.joint.angle();
      const dir = Math.sign(w.steer - jointAngle);
      const val = Math.abs(w.steer - jointAngle);
      w.joint.setMotorSpeed(f(dir * Math.min(50.0 * val, 3.0)));
      let frictionLimit = FRICTION_LIMIT * 0.6;
      for (const _tile of w.tiles) frictionLimit = Math.max(frictionLimit, FRICTION_LIMIT * 1.0);
      const angle = w.body.angle();
      const forwX = f(-Math.sin(angle));
      const forwY = f(Math.cos(angle));
      const sideX = f(Math.cos(angle));
      const sideY = f(Math.sin(angle));
      const vx = w.body.vx();
      const vy = w.body.vy();
      const vf = forwX * vx + forwY * vy;
      const vs = sideX * vx + sideY * vy;
      w.omega += (dt * ENGINE_POWER * w.gas) / WHEEL_MOMENT_OF_INERTIA / (Math.abs(w.omega) + 5.0);
      this.fuelSpent += dt * ENGINE_POWER * w.gas;
      if (w.brake >= 0.9) {
        w.omega = 0;
      } else if (w.brake > 0) {
        const brakeForce = 15;
        const bdir = -Math.sign(w.omega);
        let bval = brakeForce * w.brake;
        if (Math.abs(bval) > Math.abs(w.omega)) bval = Math.abs(w.omega);
        w.omega += bdir * bval;
      }
      w.phase += w.omega * dt;
      const vr = w.omega * WHEEL_R * SIZE;
      let fForce = (-vf + vr) * 205000 * SIZE * SIZE;
      let pForce = -vs * 205000 * SIZE * SIZE;
      let force = Math.sqrt(fForce * fForce + pForce * pForce);
      if (Math.abs(force) > frictionLimit) {
        fForce /= force;
        pForce /= force;
        force = frictionLimit;
        fForce *= force;
        pForce *= force;
      }
      w.omega -= (dt * fForce * WHEEL_R * SIZE) / WHEEL_MOMENT_OF_INERTIA;
      w.body.applyForceToCenter(f(pForce * sideX + fForce * forwX), f(pForce * sideY + fForce * forwY));
    }
  }

  /** The car, wheels and counters: what a replay needs to redraw a frame. */
  frameState(): CarFrameState {
    const hull = this.hull as PhysBody;
    return {
      t: this.t,
      hull: { x: hull.x(), y: hull.y(), angle: hull.angle(), vx: hull.vx(), vy: hull.vy(), w: hull.angularVelocity() },
      wheels: this.wheels.map((w) => ({ x: w.body.x(), y: w.body.y(), angle: w.body.angle(), omega: w.omega, phase: w.phase, jointAngle: w.joint.angle() })),
      polygonColors: this.polygonColors,
    };
  }

  private renderFrame(): void {
    if (!this.track || this.opts.skipFrames) return;
    renderCarFrame(this.frame, this.track, this.colors, this.frameState());
  }

  bodies(): { hull: BodyState; wheels: (BodyState & { omega: number; phase: number; tiles: number[] })[] } {
    if (!this.hull) throw new Error('CarRacing: no world before reset()');
    return { hull: readBody(this.hull), wheels: this.wheels.map((w) => ({ ...readBody(w.body), omega: w.omega, phase: w.phase, tiles: [...w.tiles].sort((a, b) => a - b) })) };
  }

  trackInfo(): Track | null {
    return this.track;
  }

  getState(): unknown {
    return {
      ...this.bodies(),
      controls: this.wheels.map((w) => [w.gas, w.brake, w.steer]),
      reward: this.reward,
      tileVisitedCount: this.tileVisitedCount,
      t: this.t,
      visited: [...this.visited],
      newLap: this.newLap,
      fuelSpent: this.fuelSpent,
    };
  }

  /**
   * Restores a `getState()` of the same track (same seed). The visited tiles come back too, so a
   * restored episode does not pay for a tile twice; the tiles' colours follow them.
   */
  setState(state: unknown): void {
    const s = state as {
      hull?: BodyState;
      wheels?: (BodyState & { omega?: number; phase?: number; tiles?: number[] })[];
      controls?: [number, number, number][];
      reward?: number;
      t?: number;
      visited?: boolean[];
      tileVisitedCount?: number;
      newLap?: boolean;
      fuelSpent?: number;
    };
    if (!this.hull || !this.track || !s?.hull || !Array.isArray(s.wheels) || s.wheels.length !== 4) throw new TypeError('CarRacing state must be { hull, wheels: [4], … } after reset()');
    const n = this.visited.length;
    if (s.visited !== undefined && (!Array.isArray(s.visited) || s.visited.length !== n)) {
      throw new TypeError(`CarRacing state has ${Array.isArray(s.visited) ? s.visited.length : 'no'} visited flags but this track has ${n} tiles (restore after reset() with the same seed)`);
    }
    this.hull.setState(s.hull);
    s.wheels.forEach((w, i) => {
      const wheel = this.wheels[i] as Wheel;
      wheel.body.setState(w);
      wheel.omega = w.omega ?? wheel.omega;
      wheel.phase = w.phase ?? wheel.phase;
      if (Array.isArray(w.tiles)) wheel.tiles = new Set(w.tiles);
      const c = s.controls?.[i];
      if (c) [wheel.gas, wheel.brake, wheel.steer] = c;
    });
    // The step reward is the change since the last step, so both start from the saved total.
    if (typeof s.reward === 'number') this.reward = this.prevReward = s.reward;
    if (typeof s.t === 'number') this.t = s.t;
    if (s.visited) {
      this.visited = s.visited.map((v) => v === true);
      this.tileVisitedCount = typeof s.tileVisitedCount === 'number' ? s.tileVisitedCount : this.visited.filter(Boolean).length;
      const road = this.colors.road;
      this.track.polygons.forEach((p, i) => {
        if (p.tile < 0) return;
        this.polygonColors[i] = (this.visited[p.tile] ? road : p.color).map(Math.trunc) as [number, number, number];
      });
    }
    if (typeof s.newLap === 'boolean') this.newLap = s.newLap;
    if (typeof s.fuelSpent === 'number') this.fuelSpent = s.fuelSpent;
    this.renderFrame();
  }

  /**
   * Per step: the car state and the track polygons near it (`carSnapshot`), with each tile's
   * visited flag. No pixels: the replay draws the scene from this.
   */
  snapshot(): unknown {
    const pose = this.pose();
    if (!pose) return null;
    return carSnapshot(this.snapshotTrack, this.visited.length, pose, (tile) => this.visited[tile] === true, this.tileVisitedCount);
  }

  /** The car after the last step or reset, as trajectories store it; null before reset. */
  pose(): CarPose | null {
    if (!this.hull || !this.track) return null;
    const { t, hull, wheels } = this.frameState();
    return { t, hull, wheels };
  }

  /** The whole track and its tile count; null before reset. */
  trackPolygons(): { track: readonly CarTrackPolygon[]; tileCount: number } | null {
    return this.track ? { track: this.snapshotTrack, tileCount: this.visited.length } : null;
  }

  /** Per tile, whether a wheel has touched it in this episode. */
  visitedTiles(): readonly boolean[] {
    return this.visited;
  }

  deltaRecorder(): CarDeltaRecorder {
    return new CarDeltaRecorder(this);
  }
}

function clip(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}
