/**
 * The physics interface on box2d-wasm (Box2D 2.4 compiled to WebAssembly, float32), used only
 * by the engine comparison. Covers what LunarLander needs; ray casts are not wired.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BodySpec, BodyState, ContactHandler, PhysBody, PhysicsEngine, PhysJoint, PhysWorld, RevoluteSpec, Vec } from '../src/envs/box2d/physics';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type B2 = any;

export async function loadBox2dWasm(): Promise<PhysicsEngine> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const factory = require('box2d-wasm') as (opts?: unknown) => Promise<B2>;
  // Node's fetch cannot read the .wasm from a file path, so hand the binary over directly.
  const dist = path.dirname(require.resolve('box2d-wasm'));
  const simd = WebAssembly.validate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]));
  const b2: B2 = await factory({ wasmBinary: fs.readFileSync(path.join(dist, simd ? 'Box2D.simd.wasm' : 'Box2D.wasm')) });
  const tmp = new b2.b2Vec2(0, 0);
  const tmp2 = new b2.b2Vec2(0, 0);
  const vec = (x: number, y: number): B2 => {
    tmp.Set(x, y);
    return tmp;
  };

  class WasmBody implements PhysBody {
    constructor(readonly body: B2, readonly tag: unknown) {}
    x(): number { return this.body.GetPosition().get_x(); }
    y(): number { return this.body.GetPosition().get_y(); }
    angle(): number { return this.body.GetAngle(); }
    vx(): number { return this.body.GetLinearVelocity().get_x(); }
    vy(): number { return this.body.GetLinearVelocity().get_y(); }
    angularVelocity(): number { return this.body.GetAngularVelocity(); }
    awake(): boolean { return this.body.IsAwake(); }
    mass(): number { return this.body.GetMass(); }
    worldPoint(local: Vec, out: Vec): Vec {
      const p = this.body.GetWorldPoint(vec(local.x, local.y));
      out.x = p.get_x();
      out.y = p.get_y();
      return out;
    }
    applyForceToCenter(fx: number, fy: number): void { this.body.ApplyForceToCenter(vec(fx, fy), true); }
    applyLinearImpulse(ix: number, iy: number, px: number, py: number): void {
      tmp2.Set(px, py);
      this.body.ApplyLinearImpulse(vec(ix, iy), tmp2, true);
    }
    applyForce(fx: number, fy: number, px: number, py: number): void {
      tmp2.Set(px, py);
      this.body.ApplyForce(vec(fx, fy), tmp2, true);
    }
    applyTorque(t: number): void { this.body.ApplyTorque(t, true); }
    setState(s: BodyState): void {
      this.body.SetTransform(vec(s.x, s.y), s.angle);
      this.body.SetLinearVelocity(vec(s.vx, s.vy));
      this.body.SetAngularVelocity(s.w);
      this.body.SetAwake(s.awake);
    }
    setLinearVelocity(vx: number, vy: number): void { this.body.SetLinearVelocity(vec(vx, vy)); }
    setAngularVelocity(w: number): void { this.body.SetAngularVelocity(w); }
    polygons(): number[][] { return []; }
    localPolygons(): number[][] { return []; }
  }

  class WasmJoint implements PhysJoint {
    constructor(private readonly j: B2) {}
    angle(): number { return this.j.GetJointAngle(); }
    speed(): number { return this.j.GetJointSpeed(); }
    setMotorSpeed(v: number): void { this.j.SetMotorSpeed(v); }
    setMaxMotorTorque(t: number): void { this.j.SetMaxMotorTorque(t); }
  }

  class WasmWorld implements PhysWorld {
    readonly world: B2;
    private readonly byPtr = new Map<number, WasmBody>();
    constructor(gx: number, gy: number) {
      this.world = new b2.b2World(new b2.b2Vec2(gx, gy));
    }
    createBody(spec: BodySpec): PhysBody {
      const def = new b2.b2BodyDef();
      def.set_type(spec.type === 'static' ? b2.b2_staticBody : b2.b2_dynamicBody);
      def.set_position(new b2.b2Vec2(spec.x, spec.y));
      def.set_angle(spec.angle ?? 0);
      const body = this.world.CreateBody(def);
      for (const fx of spec.fixtures) {
        let shape: B2;
        if (fx.shape.kind === 'edge') {
          shape = new b2.b2EdgeShape();
          shape.SetTwoSided(new b2.b2Vec2(fx.shape.a.x, fx.shape.a.y), new b2.b2Vec2(fx.shape.b.x, fx.shape.b.y));
        } else if (fx.shape.kind === 'box') {
          shape = new b2.b2PolygonShape();
          shape.SetAsBox(fx.shape.hx, fx.shape.hy);
        } else {
          const n = fx.shape.vertices.length;
          const ptr = b2._malloc(8 * n);
          fx.shape.vertices.forEach((v, i) => {
            b2.HEAPF32[(ptr >> 2) + 2 * i] = v.x;
            b2.HEAPF32[(ptr >> 2) + 2 * i + 1] = v.y;
          });
          shape = new b2.b2PolygonShape();
          shape.Set(b2.wrapPointer(ptr, b2.b2Vec2), n);
          b2._free(ptr);
        }
        const fd = new b2.b2FixtureDef();
        fd.set_shape(shape);
        fd.set_density(fx.density ?? 0);
        fd.set_friction(fx.friction ?? 0.2);
        fd.set_restitution(fx.restitution ?? 0);
        fd.set_isSensor(fx.isSensor ?? false);
        const filter = new b2.b2Filter();
        filter.set_categoryBits(fx.categoryBits ?? 1);
        filter.set_maskBits(fx.maskBits ?? 0xffff);
        filter.set_groupIndex(0);
        fd.set_filter(filter);
        body.CreateFixture(fd);
      }
      const wrapped = new WasmBody(body, spec.tag);
      this.byPtr.set(b2.getPointer(body), wrapped);
      return wrapped;
    }
    destroyBody(body: PhysBody): void {
      this.world.DestroyBody((body as WasmBody).body);
    }
    createRevolute(spec: RevoluteSpec): PhysJoint {
      const jd = new b2.b2RevoluteJointDef();
      jd.set_bodyA((spec.bodyA as WasmBody).body);
      jd.set_bodyB((spec.bodyB as WasmBody).body);
      jd.set_localAnchorA(new b2.b2Vec2(spec.localAnchorA.x, spec.localAnchorA.y));
      jd.set_localAnchorB(new b2.b2Vec2(spec.localAnchorB.x, spec.localAnchorB.y));
      jd.set_enableMotor(spec.enableMotor ?? false);
      jd.set_enableLimit(spec.enableLimit ?? false);
      jd.set_maxMotorTorque(spec.maxMotorTorque ?? 0);
      jd.set_motorSpeed(spec.motorSpeed ?? 0);
      jd.set_lowerAngle(spec.lowerAngle ?? 0);
      jd.set_upperAngle(spec.upperAngle ?? 0);
      return new WasmJoint(b2.castObject(this.world.CreateJoint(jd), b2.b2RevoluteJoint));
    }
    onContact(begin: ContactHandler, end: ContactHandler): void {
      const listener = new b2.JSContactListener();
      const tags = (cp: number): [unknown, unknown] => {
        const c = b2.wrapPointer(cp, b2.b2Contact);
        const a = this.byPtr.get(b2.getPointer(c.GetFixtureA().GetBody()));
        const b = this.byPtr.get(b2.getPointer(c.GetFixtureB().GetBody()));
        return [a?.tag, b?.tag];
      };
      listener.BeginContact = (cp: number) => begin(...tags(cp));
      listener.EndContact = (cp: number) => end(...tags(cp));
      listener.PreSolve = () => {};
      listener.PostSolve = () => {};
      this.world.SetContactListener(listener);
    }
    step(dt: number, vi: number, pi: number): void {
      this.world.Step(dt, vi, pi);
    }
    rayCast(): number {
      throw new Error('box2d-wasm adapter: ray casts are not wired (the comparison runs LunarLander only)');
    }
  }

  return { name: 'box2d-wasm', createWorld: (gx, gy) => new WasmWorld(gx, gy) };
}
