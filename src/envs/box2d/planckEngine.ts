/** The physics interface on planck (Box2D 2.3 ported to JavaScript, float64 arithmetic). */
import { Box, Edge, Polygon, RevoluteJoint, Vec2, World, type Body, type Contact, type Fixture, type FixtureProxy } from 'planck';
import type { BodySpec, BodyState, ContactHandler, FixtureSpec, PhysBody, PhysicsEngine, PhysJoint, PhysWorld, RevoluteSpec, Vec } from './physics';

class PlanckBody implements PhysBody {
  private readonly scratch = Vec2.zero();
  private readonly scratch2 = Vec2.zero();
  constructor(readonly body: Body, readonly tag: unknown) {}
  x(): number {
    return this.body.getPosition().x;
  }
  y(): number {
    return this.body.getPosition().y;
  }
  angle(): number {
    return this.body.getAngle();
  }
  vx(): number {
    return this.body.getLinearVelocity().x;
  }
  vy(): number {
    return this.body.getLinearVelocity().y;
  }
  angularVelocity(): number {
    return this.body.getAngularVelocity();
  }
  awake(): boolean {
    return this.body.isAwake();
  }
  mass(): number {
    return this.body.getMass();
  }
  worldPoint(local: Vec, out: Vec): Vec {
    const p = this.body.getWorldPoint(local);
    out.x = p.x;
    out.y = p.y;
    return out;
  }
  applyForceToCenter(fx: number, fy: number): void {
    this.scratch.x = fx;
    this.scratch.y = fy;
    this.body.applyForceToCenter(this.scratch, true);
  }
  applyLinearImpulse(ix: number, iy: number, px: number, py: number): void {
    this.scratch.x = ix;
    this.scratch.y = iy;
    this.scratch2.x = px;
    this.scratch2.y = py;
    this.body.applyLinearImpulse(this.scratch, this.scratch2, true);
  }
  applyForce(fx: number, fy: number, px: number, py: number): void {
    this.scratch.x = fx;
    this.scratch.y = fy;
    this.scratch2.x = px;
    this.scratch2.y = py;
    this.body.applyForce(this.scratch, this.scratch2, true);
  }
  applyTorque(t: number): void {
    this.body.applyTorque(t, true);
  }
  setState(s: BodyState): void {
    this.body.setTransform(Vec2(s.x, s.y), s.angle);
    this.body.setLinearVelocity(Vec2(s.vx, s.vy));
    this.body.setAngularVelocity(s.w);
    this.body.setAwake(s.awake);
  }
  setLinearVelocity(vx: number, vy: number): void {
    this.body.setLinearVelocity(Vec2(vx, vy));
  }
  setAngularVelocity(w: number): void {
    this.body.setAngularVelocity(w);
  }
  localPolygons(): number[][] {
    const out: number[][] = [];
    for (let f: Fixture | null = this.body.getFixtureList(); f; f = f.getNext()) {
      const shape = f.getShape();
      if (shape instanceof Polygon) out.push(shape.m_vertices.flatMap((v) => [v.x, v.y]));
    }
    return out;
  }
  polygons(): number[][] {
    const out: number[][] = [];
    for (let f: Fixture | null = this.body.getFixtureList(); f; f = f.getNext()) {
      const shape = f.getShape();
      if (shape instanceof Polygon) {
        const pts: number[] = [];
        for (const v of shape.m_vertices) {
          const w = this.body.getWorldPoint(v);
          pts.push(w.x, w.y);
        }
        out.push(pts);
      }
    }
    return out;
  }
}

function toShape(s: FixtureSpec['shape']): Polygon | Edge | Box {
  switch (s.kind) {
    case 'polygon':
      return new Polygon(s.vertices.map((v) => Vec2(v.x, v.y)));
    case 'edge':
      return new Edge(Vec2(s.a.x, s.a.y), Vec2(s.b.x, s.b.y));
    case 'box':
      return new Box(s.hx, s.hy);
  }
}

class PlanckJoint implements PhysJoint {
  constructor(private readonly joint: RevoluteJoint) {}
  angle(): number {
    return this.joint.getJointAngle();
  }
  speed(): number {
    return this.joint.getJointSpeed();
  }
  setMotorSpeed(v: number): void {
    this.joint.setMotorSpeed(v);
  }
  setMaxMotorTorque(t: number): void {
    this.joint.setMaxMotorTorque(t);
  }
}

class PlanckWorld implements PhysWorld {
  readonly world: World;
  private rayMask = 0;
  private rayFraction = 1;
  private readonly rayCallback = (fixture: Fixture, _point: Vec2, _normal: Vec2, fraction: number): number => {
    if ((fixture.getFilterCategoryBits() & this.rayMask) === 0) return -1;
    this.rayFraction = fraction;
    return fraction;
  };

  constructor(gx: number, gy: number) {
    this.world = new World({ gravity: Vec2(gx, gy) });
    createContactsInBox2dOrder(this.world);
  }

  createBody(spec: BodySpec): PhysBody {
    const body = this.world.createBody({ type: spec.type, position: Vec2(spec.x, spec.y), angle: spec.angle ?? 0 });
    for (const f of spec.fixtures) {
      body.createFixture({
        shape: toShape(f.shape),
        density: f.density ?? 0,
        friction: f.friction ?? 0.2,
        restitution: f.restitution ?? 0,
        filterCategoryBits: f.categoryBits ?? 1,
        filterMaskBits: f.maskBits ?? 0xffff,
        isSensor: f.isSensor ?? false,
      });
    }
    const wrapped = new PlanckBody(body, spec.tag);
    body.setUserData(wrapped);
    return wrapped;
  }

  destroyBody(body: PhysBody): void {
    this.world.destroyBody((body as PlanckBody).body);
  }

  createRevolute(spec: RevoluteSpec): PhysJoint {
    const joint = new RevoluteJoint(
      {
        bodyA: (spec.bodyA as PlanckBody).body,
        bodyB: (spec.bodyB as PlanckBody).body,
        localAnchorA: Vec2(spec.localAnchorA.x, spec.localAnchorA.y),
        localAnchorB: Vec2(spec.localAnchorB.x, spec.localAnchorB.y),
        enableMotor: spec.enableMotor ?? false,
        enableLimit: spec.enableLimit ?? false,
        maxMotorTorque: spec.maxMotorTorque ?? 0,
        motorSpeed: spec.motorSpeed ?? 0,
        lowerAngle: spec.lowerAngle ?? 0,
        upperAngle: spec.upperAngle ?? 0,
      },
    );
    this.world.createJoint(joint);
    return new PlanckJoint(joint);
  }

  onContact(begin: ContactHandler, end: ContactHandler): void {
    const tags = (c: Contact): [unknown, unknown] => [
      (c.getFixtureA().getBody().getUserData() as PlanckBody).tag,
      (c.getFixtureB().getBody().getUserData() as PlanckBody).tag,
    ];
    this.world.on('begin-contact', (c) => begin(...tags(c)));
    this.world.on('end-contact', (c) => end(...tags(c)));
  }

  step(dt: number, vi: number, pi: number): void {
    this.world.step(dt, vi, pi);
  }

  rayCast(p1: Vec, p2: Vec, maskBits: number): number {
    this.rayMask = maskBits;
    this.rayFraction = 1;
    this.world.rayCast(Vec2(p1.x, p1.y), Vec2(p2.x, p2.y), this.rayCallback);
    return this.rayFraction;
  }
}

/** The planck internals the contact order below replaces (planck 1.x `World`, `BroadPhase`). */
interface PlanckWorldInternals {
  findNewContacts(): void;
  createContact(a: FixtureProxy, b: FixtureProxy): void;
  m_broadPhase: { updatePairs(addPair: (a: FixtureProxy, b: FixtureProxy) => void): void };
}

/**
 * Box2D 2.3 collects the new broad-phase pairs of a step, sorts them by (lower proxy id, higher
 * proxy id) and creates their contacts in that order; planck creates each contact the moment
 * its tree query finds it. The order matters: each body's contact list is built from it, the
 * island solver visits contacts in that order, and its position iterations stop as soon as
 * every error is within slop, so two orders settle on positions up to ~1e-2 apart. With
 * planck's order BipedalWalker left pybox2d's traces from the first motor step; with Box2D's
 * it follows them as far as float64 allows (see README). planck's leaf proxy ids grow in
 * creation order, as Box2D's do in a fresh world, so they sort the same.
 */
function createContactsInBox2dOrder(world: World): void {
  const w = world as unknown as PlanckWorldInternals;
  const pairs: FixtureProxy[] = [];
  const order: number[] = [];
  w.findNewContacts = () => {
    pairs.length = 0;
    w.m_broadPhase.updatePairs((a, b) => {
      pairs.push(a, b);
    });
    order.length = 0;
    for (let i = 0; i < pairs.length; i += 2) order.push(i);
    const id = (k: number): number => (pairs[k] as FixtureProxy).proxyId;
    order.sort((i, j) => id(i) - id(j) || id(i + 1) - id(j + 1));
    let lastA = -1;
    let lastB = -1;
    for (const i of order) {
      // A pair found from both of its moved proxies comes twice: Box2D creates it once.
      if (id(i) === lastA && id(i + 1) === lastB) continue;
      lastA = id(i);
      lastB = id(i + 1);
      w.createContact(pairs[i] as FixtureProxy, pairs[i + 1] as FixtureProxy);
    }
  };
}

export const planckEngine: PhysicsEngine = {
  name: 'planck',
  createWorld: (gx, gy) => new PlanckWorld(gx, gy),
};
