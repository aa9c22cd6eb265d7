/**
 * The replay's scene: the first snapshot of an episode carries it once, later snapshots are only
 * qpos, and the replay's forward kinematics put every body and geom where the engine does.
 */
import { strict as assert } from 'node:assert';
import { resolveParams } from '../../../src/envs/core/params';
import { mujocoEnvironments } from '../../../src/envs/mujoco';
import { loadMujoco } from '../../../src/envs/mujoco/engine';
import type { Env } from '../../../src/envs/core/env';
import type { Box } from '../../../src/envs/core/spaces';
import type { Simulation } from '../../../src/envs/mujoco/mujocoEnv';
import { GEOM, type MujocoScene } from '../../../src/envs/mujoco/scene';
import { Kinematics } from '../../../webview-ui/replay/renderers/mujocoKinematics';

const ids = mujocoEnvironments.map((d) => d.id);

/** A Gymnasium task or a Fetch task: both expose their simulator. */
type AnyMujocoEnv = Env<unknown, Float64Array> & { sim: Simulation; snapshot(): unknown };

function make(id: string): AnyMujocoEnv {
  const def = mujocoEnvironments.find((d) => d.id === id);
  if (!def) throw new Error(`no ${id}`);
  return def.create(resolveParams(id, def.params)) as unknown as AnyMujocoEnv;
}

/** Rotation matrix (row-major, as MuJoCo's xmat) of a (w, x, y, z) quaternion. */
function mat(q: ArrayLike<number>, i: number): number[] {
  const w = q[i] as number, x = q[i + 1] as number, y = q[i + 2] as number, z = q[i + 3] as number;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

function close(actual: number, expected: number, tol: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} vs ${expected}`);
}

describe('mujoco: replay scene', function () {
  this.timeout(120_000);
  before(async () => {
    await loadMujoco();
    for (const d of mujocoEnvironments) await d.load?.();
  });

  it('the first snapshot after reset carries the scene, later ones only qpos', () => {
    const env = make('HalfCheetah-v5');
    env.reset({ seed: 1 });
    const first = env.snapshot() as { qpos: number[]; scene: MujocoScene };
    assert.equal(first.scene.nq, 9);
    assert.equal(first.scene.bodies.length, 8);
    assert.ok(first.scene.geoms.some((g) => g.type === GEOM.plane) && first.scene.geoms.some((g) => g.type === GEOM.capsule));
    assert.equal(first.scene.track, 1, 'follows the torso');
    env.step(new Float64Array(6));
    assert.deepEqual(Object.keys(env.snapshot() as object), ['qpos']);
    env.reset({ seed: 2 });
    assert.ok('scene' in (env.snapshot() as object), 'a new episode carries the scene again');
  });

  it('the scene JSON stays small: a 1000-step HalfCheetah replay costs qpos per step', () => {
    const env = make('HalfCheetah-v5');
    env.reset({ seed: 1 });
    const first = JSON.stringify(env.snapshot());
    assert.ok(first.length < 8_000, `scene ${first.length} bytes`);
    env.step(new Float64Array(6));
    assert.ok(JSON.stringify(env.snapshot()).length < 120);
  });

  it('a Fetch scene (meshes simplified) stays under 40 kB and draws the goal', () => {
    const env = make('FetchPush-v4');
    const obs = env.reset({ seed: 4 }).observation as { desired_goal: Float64Array };
    const snap = env.snapshot() as { scene: MujocoScene };
    const size = JSON.stringify(snap).length;
    assert.ok(size < 40_000, `scene ${size} bytes`);
    assert.ok(snap.scene.meshes.length >= 10 && snap.scene.geoms.some((g) => g.type === GEOM.mesh));
    assert.equal(snap.scene.markers.length, 1);
    for (let k = 0; k < 3; k++) close(snap.scene.markers[0]?.pos[k] as number, obs.desired_goal[k] as number, 1e-4, `goal marker ${k}`);
    assert.equal(snap.scene.bodies.filter((b) => b.mocap).length, 1, 'the mocap body is marked (and not drawn)');
  });

  for (const id of ids) {
    it(`${id}: the replay's kinematics equal the engine's body and geom poses`, () => {
      const env = make(id);
      env.reset({ seed: 3 });
      const scene = (env.snapshot() as { scene: MujocoScene }).scene;
      const kin = new Kinematics(scene);
      const high = (env.actionSpace as Box).high;
      const a = new Float64Array(high.length);
      for (let step = 0; step < 20; step++) {
        for (let i = 0; i < a.length; i++) a[i] = (high[i] as number) * Math.sin(step + i);
        env.step(a);
      }
      const sim = env.sim;
      // mj_step leaves the poses of the state before its integration: recompute them for this qpos.
      sim.mj.mj_kinematics(sim.model, sim.data);
      kin.update(sim.qpos);
      const xquat = sim.data.xquat as Float64Array;
      const gxpos = sim.data.geom_xpos as Float64Array;
      const gxmat = sim.data.geom_xmat as Float64Array;
      // Scene numbers are rounded to 1e-5 (offsets) and 1e-6 (rotations).
      const tol = 2e-4;
      for (let b = 0; b < scene.bodies.length; b++) {
        if (scene.bodies[b]?.mocap) continue;
        for (let k = 0; k < 3; k++) close(kin.xpos[3 * b + k] as number, sim.xpos[3 * b + k] as number, tol, `${id} body ${b} xpos[${k}]`);
        const m1 = mat(kin.xquat, 4 * b);
        const m2 = mat(xquat, 4 * b);
        for (let k = 0; k < 9; k++) close(m1[k] as number, m2[k] as number, tol, `${id} body ${b} xmat[${k}]`);
      }
      const model = sim.model;
      const visible = scene.geoms;
      // Scene geoms are a subset of the model's: match them by body, type and size in order.
      let g = 0;
      for (let mg = 0; mg < model.ngeom && g < visible.length; mg++) {
        const sg = visible[g] as (typeof visible)[number];
        if ((model.geom_bodyid[mg] as number) !== sg.body || (model.geom_type[mg] as number) !== sg.type) continue;
        for (let k = 0; k < 3; k++) close(kin.gpos[3 * g + k] as number, gxpos[3 * mg + k] as number, tol, `${id} geom ${mg} pos[${k}]`);
        const m1 = mat(kin.gquat, 4 * g);
        for (let k = 0; k < 9; k++) close(m1[k] as number, gxmat[9 * mg + k] as number, tol, `${id} geom ${mg} xmat[${k}]`);
        g++;
      }
      assert.equal(g, visible.length, `${id}: every scene geom matched a model geom`);
    });
  }
});
