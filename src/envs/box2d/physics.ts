/**
 * The slice of a Box2D world the environments use, behind one small interface so the engine
 * is a swappable part (the engine comparison in bench/box2dEngines.ts drives more than one
 * implementation through it). Everything runs on the worker's trusted side.
 */

export interface Vec {
  x: number;
  y: number;
}

export interface FixtureSpec {
  /** A convex polygon (counter-clockwise, body-local) or a two-point edge. */
  shape: { kind: 'polygon'; vertices: readonly Vec[] } | { kind: 'edge'; a: Vec; b: Vec } | { kind: 'box'; hx: number; hy: number };
  density?: number;
  friction?: number;
  restitution?: number;
  categoryBits?: number;
  maskBits?: number;
  isSensor?: boolean;
}

export interface BodySpec {
  type: 'static' | 'dynamic';
  x: number;
  y: number;
  angle?: number;
  fixtures: readonly FixtureSpec[];
  /** Any value; contact callbacks hand it back. */
  tag?: unknown;
}

export interface RevoluteSpec {
  bodyA: PhysBody;
  bodyB: PhysBody;
  localAnchorA: Vec;
  localAnchorB: Vec;
  enableMotor?: boolean;
  enableLimit?: boolean;
  maxMotorTorque?: number;
  motorSpeed?: number;
  lowerAngle?: number;
  upperAngle?: number;
}

/** Position, angle, velocities and awake flag of one body. */
export interface BodyState {
  x: number;
  y: number;
  angle: number;
  vx: number;
  vy: number;
  w: number;
  awake: boolean;
}

export interface PhysBody {
  readonly tag: unknown;
  x(): number;
  y(): number;
  angle(): number;
  vx(): number;
  vy(): number;
  angularVelocity(): number;
  awake(): boolean;
  mass(): number;
  /** World point of a body-local point. */
  worldPoint(local: Vec, out: Vec): Vec;
  applyForceToCenter(fx: number, fy: number): void;
  applyLinearImpulse(ix: number, iy: number, px: number, py: number): void;
  applyForce(fx: number, fy: number, px: number, py: number): void;
  applyTorque(t: number): void;
  setState(s: BodyState): void;
  setLinearVelocity(vx: number, vy: number): void;
  setAngularVelocity(w: number): void;
  /** World-space vertices of every polygon fixture, for renderers. */
  polygons(): number[][];
  /** Body-local vertices of every polygon fixture, as the engine holds them (its order). */
  localPolygons(): number[][];
}

export interface PhysJoint {
  angle(): number;
  speed(): number;
  setMotorSpeed(v: number): void;
  setMaxMotorTorque(t: number): void;
}

export type ContactHandler = (tagA: unknown, tagB: unknown) => void;

export interface PhysWorld {
  createBody(spec: BodySpec): PhysBody;
  destroyBody(body: PhysBody): void;
  createRevolute(spec: RevoluteSpec): PhysJoint;
  onContact(begin: ContactHandler, end: ContactHandler): void;
  step(dt: number, velocityIterations: number, positionIterations: number): void;
  /**
   * Box2D's closest-hit ray cast over fixtures whose category intersects `maskBits`: the
   * fraction along p1→p2 of the nearest hit, or 1 when nothing is hit.
   */
  rayCast(p1: Vec, p2: Vec, maskBits: number): number;
}

export interface PhysicsEngine {
  readonly name: string;
  createWorld(gravityX: number, gravityY: number): PhysWorld;
}
