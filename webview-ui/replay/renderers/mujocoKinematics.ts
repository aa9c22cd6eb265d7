/**
 * MuJoCo's forward kinematics (mj_kinematics) for a replay scene: body and geom poses from qpos,
 * with the same composition rules as the engine (free joints set the pose absolutely, ball joints
 * rotate, hinges rotate about their anchor, slides translate, all relative to qpos0). Pure and
 * allocation-free per call after construction; a unit test compares it with the engine's xpos,
 * xquat, geom_xpos and geom_xmat.
 */
import { JOINT, type MujocoScene } from '../../../src/protocol/mujocoScene';


type Vec = Float64Array;

/** out = a ⊗ b (w, x, y, z) at offsets. */
function quatMul(a: Vec, ai: number, b: ArrayLike<number>, bi: number, out: Vec, oi: number): void {
  const aw = a[ai] as number, ax = a[ai + 1] as number, ay = a[ai + 2] as number, az = a[ai + 3] as number;
  const bw = b[bi] as number, bx = b[bi + 1] as number, by = b[bi + 2] as number, bz = b[bi + 3] as number;
  out[oi] = aw * bw - ax * bx - ay * by - az * bz;
  out[oi + 1] = aw * bx + ax * bw + ay * bz - az * by;
  out[oi + 2] = aw * by - ax * bz + ay * bw + az * bx;
  out[oi + 3] = aw * bz + ax * by - ay * bx + az * bw;
}

/** out = rotate v by q. */
function rotate(q: Vec, qi: number, v: ArrayLike<number>, vi: number, out: Vec, oi: number): void {
  const w = q[qi] as number, x = q[qi + 1] as number, y = q[qi + 2] as number, z = q[qi + 3] as number;
  const vx = v[vi] as number, vy = v[vi + 1] as number, vz = v[vi + 2] as number;
  // t = 2 (q.xyz × v); v' = v + w t + q.xyz × t
  const tx = 2 * (y * vz - z * vy);
  const ty = 2 * (z * vx - x * vz);
  const tz = 2 * (x * vy - y * vx);
  out[oi] = vx + w * tx + (y * tz - z * ty);
  out[oi + 1] = vy + w * ty + (z * tx - x * tz);
  out[oi + 2] = vz + w * tz + (x * ty - y * tx);
}

function normalize(q: Vec, i: number): void {
  const n = Math.hypot(q[i] as number, q[i + 1] as number, q[i + 2] as number, q[i + 3] as number);
  if (n < 1e-12) {
    q[i] = 1;
    q[i + 1] = q[i + 2] = q[i + 3] = 0;
    return;
  }
  for (let k = 0; k < 4; k++) q[i + k] = (q[i + k] as number) / n;
}

export class Kinematics {
  /** World position (3 per body) and orientation (w, x, y, z per body). */
  readonly xpos: Float64Array;
  readonly xquat: Float64Array;
  /** World position and orientation per scene geom. */
  readonly gpos: Float64Array;
  readonly gquat: Float64Array;
  private readonly tmp = new Float64Array(8);
  private readonly turned = new Float64Array(4);

  constructor(readonly scene: MujocoScene) {
    this.xpos = new Float64Array(3 * scene.bodies.length);
    this.xquat = new Float64Array(4 * scene.bodies.length);
    this.gpos = new Float64Array(3 * scene.geoms.length);
    this.gquat = new Float64Array(4 * scene.geoms.length);
  }

  /** Poses for `qpos` (its length must be the scene's nq). */
  update(qpos: ArrayLike<number>): void {
    const { bodies, qpos0 } = this.scene;
    const { xpos, xquat, tmp } = this;
    xpos.fill(0, 0, 3);
    xquat.set([1, 0, 0, 0], 0);
    for (let b = 1; b < bodies.length; b++) {
      const body = bodies[b];
      if (body === undefined) continue;
      const p = 3 * body.parent;
      const pq = 4 * body.parent;
      rotate(xquat, pq, body.pos, 0, tmp, 0);
      for (let k = 0; k < 3; k++) xpos[3 * b + k] = (xpos[p + k] as number) + (tmp[k] as number);
      quatMul(xquat, pq, body.quat, 0, xquat, 4 * b);
      for (const j of body.joints) {
        const a = j.qposadr;
        if (j.type === JOINT.free) {
          for (let k = 0; k < 3; k++) xpos[3 * b + k] = qpos[a + k] as number;
          for (let k = 0; k < 4; k++) xquat[4 * b + k] = qpos[a + 3 + k] as number;
          normalize(xquat, 4 * b);
        } else if (j.type === JOINT.ball) {
          for (let k = 0; k < 4; k++) tmp[4 + k] = qpos[a + k] as number;
          normalize(tmp, 4);
          this.rotateBodyAboutAnchor(b, j.pos, tmp, 4);
        } else if (j.type === JOINT.hinge) {
          const angle = (qpos[a] as number) - (qpos0[a] as number);
          const s = Math.sin(angle / 2);
          tmp[4] = Math.cos(angle / 2);
          tmp[5] = (j.axis[0] as number) * s;
          tmp[6] = (j.axis[1] as number) * s;
          tmp[7] = (j.axis[2] as number) * s;
          this.rotateBodyAboutAnchor(b, j.pos, tmp, 4);
        } else if (j.type === JOINT.slide) {
          rotate(xquat, 4 * b, j.axis, 0, tmp, 0);
          const d = (qpos[a] as number) - (qpos0[a] as number);
          for (let k = 0; k < 3; k++) xpos[3 * b + k] = (xpos[3 * b + k] as number) + (tmp[k] as number) * d;
        }
      }
      normalize(xquat, 4 * b);
    }
    const { geoms } = this.scene;
    for (let g = 0; g < geoms.length; g++) {
      const geom = geoms[g];
      if (geom === undefined) continue;
      rotate(xquat, 4 * geom.body, geom.pos, 0, tmp, 0);
      for (let k = 0; k < 3; k++) this.gpos[3 * g + k] = (xpos[3 * geom.body + k] as number) + (tmp[k] as number);
      quatMul(xquat, 4 * geom.body, geom.quat, 0, this.gquat, 4 * g);
    }
  }

  /** The body turns by the local rotation tmp[at..at+3] about its joint anchor, which stays put. */
  private rotateBodyAboutAnchor(b: number, jointPos: number[], local: Vec, at: number): void {
    const { xpos, xquat, tmp } = this;
    // anchor = xpos + R·jpos, before and after the rotation.
    rotate(xquat, 4 * b, jointPos, 0, tmp, 0);
    const ax = (xpos[3 * b] as number) + (tmp[0] as number);
    const ay = (xpos[3 * b + 1] as number) + (tmp[1] as number);
    const az = (xpos[3 * b + 2] as number) + (tmp[2] as number);
    quatMul(xquat, 4 * b, local, at, this.turned, 0);
    xquat.set(this.turned, 4 * b);
    rotate(xquat, 4 * b, jointPos, 0, tmp, 0);
    xpos[3 * b] = ax - (tmp[0] as number);
    xpos[3 * b + 1] = ay - (tmp[1] as number);
    xpos[3 * b + 2] = az - (tmp[2] as number);
  }
}
