/**
 * Gymnasium-Robotics' Fetch v4 tasks against what can be checked without recorded traces: the
 * vendored files, model sizes, the observation layout read back from the simulator, the sparse
 * reward recomputed (also by the workspace's `computeReward`), mocap control, the blocked
 * gripper, goal and object sampling ranges, substeps, the 50-step limit and determinism.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRegistry } from '../../../src/envs';
import { resolveParams } from '../../../src/envs/core/params';
import { MODEL_FILES } from '../../../src/envs/mujoco/assets/models.generated';
import { compiledModel, loadMujoco } from '../../../src/envs/mujoco/engine';
import { FETCH_MODELS, FETCH_TASKS, fetchEnvironments } from '../../../src/envs/mujoco/fetch';
import { FetchEnv, N_SUBSTEPS, observationLayout, type FetchObservation } from '../../../src/envs/mujoco/fetch/fetchEnv';

const assets = path.resolve(__dirname, '../../../src/envs/mujoco/assets/robotics');

function make(id: string): FetchEnv {
  const def = fetchEnvironments.find((d) => d.id === id);
  if (!def) throw new Error(`no ${id}`);
  return def.create(resolveParams(id, def.params)) as FetchEnv;
}

function actions(seed: number, n: number): Float64Array[] {
  let s = seed >>> 0;
  const out: Float64Array[] = [];
  for (let t = 0; t < n; t++) {
    out.push(Float64Array.from({ length: 4 }, () => {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      return (s / 4294967296) * 2.4 - 1.2;
    }));
  }
  return out;
}

const site = (env: FetchEnv, name: string): number[] => {
  const sim = env.sim;
  const id = sim.mj.mj_name2id(sim.model, sim.mj.mjtObj.mjOBJ_SITE.value, name);
  const xpos = sim.data.site_xpos as Float64Array;
  return [xpos[3 * id] as number, xpos[3 * id + 1] as number, xpos[3 * id + 2] as number];
};

describe('mujoco: Fetch v4', function () {
  this.timeout(180_000);
  before(async () => {
    await loadMujoco();
    for (const d of fetchEnvironments) await d.load?.();
  });

  it('embeds the vendored Gymnasium-Robotics files unchanged, with their license and source', () => {
    const walk = (dir: string): string[] => readdirSync(path.join(assets, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(`${dir}/${e.name}`) : [`${dir}/${e.name}`]));
    const xml = walk('fetch');
    assert.equal(xml.length, 6);
    for (const f of xml) assert.equal(MODEL_FILES[`robotics/${f}`], readFileSync(path.join(assets, f), 'utf8'), `${f}: run node src/envs/mujoco/assets/embed.mjs`);
    const binary = [...walk('stls'), ...walk('textures')];
    assert.equal(binary.length, 19);
    assert.match(readFileSync(path.join(assets, 'LICENSE'), 'utf8'), /MIT License/);
    assert.match(readFileSync(path.join(assets, 'SOURCE'), 'utf8'), /Gymnasium-Robotics\nCommit: [0-9a-f]{40}/);
  });

  it('the static model sizes equal the compiled models', () => {
    for (const info of Object.values(FETCH_MODELS)) {
      const m = compiledModel(info.file);
      assert.deepEqual([m.nq, m.nv, m.nu, m.nbody, m.opt.timestep, m.nmocap], [info.nq, info.nv, info.nu, info.nbody, info.timestep, 1], info.file);
    }
  });

  it('lays the observation out as Gymnasium-Robotics does, read back from the simulator', () => {
    for (const task of FETCH_TASKS) {
      const env = make(task.id);
      const size = Object.values(observationLayout(task.hasObject)).reduce((a, b) => a + b, 0);
      assert.equal(size, task.hasObject ? 25 : 10);
      env.reset({ seed: 7 });
      let o: FetchObservation = env.step(new Float64Array([0.3, -0.2, 0.1, 0.5])).observation;
      o = env.step(new Float64Array([0.3, -0.2, 0.1, 0.5])).observation;
      assert.deepEqual(Object.keys(env.observationSpace.describe() as { spaces: object }), ['type', 'spaces']);
      assert.equal(o.observation.length, size, task.id);
      const grip = site(env, 'robot0:grip');
      assert.deepEqual(Array.from(o.observation.subarray(0, 3)), grip, `${task.id} grip_pos`);
      const qpos = env.sim.qpos;
      // The last two robot joints, after the 3 base slides, torso, head (2) and arm (7): the fingers.
      const fingers = [qpos[13] as number, qpos[14] as number];
      if (task.hasObject) {
        const obj = site(env, 'object0');
        assert.deepEqual(Array.from(o.observation.subarray(3, 6)), obj, `${task.id} object_pos`);
        for (let k = 0; k < 3; k++) assert.equal(o.observation[6 + k], (obj[k] as number) - (grip[k] as number));
        assert.deepEqual(Array.from(o.observation.subarray(9, 11)), fingers, `${task.id} gripper_state`);
        assert.deepEqual(Array.from(o.achieved_goal), obj);
        // The block rests flat: its Euler angles are small; velocities are per step (× dt), so small.
        for (let k = 11; k < 25; k++) assert.ok(Math.abs(o.observation[k] as number) < 0.5, `${task.id} [${k}] = ${o.observation[k]}`);
      } else {
        assert.deepEqual(Array.from(o.observation.subarray(3, 5)), fingers, `${task.id} gripper_state`);
        assert.deepEqual(Array.from(o.achieved_goal), grip);
      }
      // grip_velp is the grip site's velocity × dt: close to the displacement over the next step.
      const before = site(env, 'robot0:grip');
      const velp = Array.from(o.observation.subarray(task.hasObject ? 20 : 5, task.hasObject ? 23 : 8));
      env.step(new Float64Array([0.3, -0.2, 0.1, 0.5]));
      const after = site(env, 'robot0:grip');
      for (let k = 0; k < 3; k++) assert.ok(Math.abs((after[k] as number) - (before[k] as number) - (velp[k] as number)) < 0.01, `${task.id} grip_velp[${k}]`);
    }
  });

  it('the reward is the sparse goal test, recomputed by the env and by the workspace\'s computeReward', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-fetch-'));
    try {
      for (const task of FETCH_TASKS) {
        const def = fetchEnvironments.find((d) => d.id === task.id);
        const file = path.join(dir, `${task.id}.ts`);
        writeFileSync(file, def?.workspaceFiles?.['policy/fetch.ts'] ?? '');
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const helper = require(file) as { computeReward(a: ArrayLike<number>, d: ArrayLike<number>): number };
        const env = make(task.id);
        const first = env.reset({ seed: 11 }).observation;
        let goal = Array.from(first.desired_goal);
        let successes = 0;
        for (const a of actions(3, 40)) {
          const r = env.step(a);
          const d = Math.hypot(...[0, 1, 2].map((k) => (r.observation.achieved_goal[k] as number) - (goal[k] as number)));
          assert.equal(r.reward, d > 0.05 ? -1 : 0);
          assert.equal(helper.computeReward(r.observation.achieved_goal, r.observation.desired_goal), r.reward);
          assert.equal(env.computeReward(r.observation.achieved_goal, r.observation.desired_goal), r.reward);
          assert.deepEqual(r.info, { is_success: d < 0.05 ? 1 : 0 });
          assert.equal(r.terminated, false);
          successes += r.info['is_success'] as number;
          goal = Array.from(r.observation.desired_goal);
        }
        // Relabelled with the achieved goal as the desired one, every step succeeds.
        assert.equal(helper.computeReward(first.achieved_goal, first.achieved_goal), 0);
        assert.ok(successes >= 0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('moves the gripper by mocap: 5 cm per unit action and step at most, and holds it at rest', () => {
    const env = make('FetchReach-v4');
    const start = Array.from(env.reset({ seed: 1 }).observation.observation.subarray(0, 3));
    let at = start;
    for (let t = 0; t < 5; t++) {
      const next = Array.from(env.step(new Float64Array([1, 0, 0, 0])).observation.observation.subarray(0, 3));
      const dx = (next[0] as number) - (at[0] as number);
      assert.ok(dx > 0.005 && dx <= 0.0501, `step ${t}: moved ${dx}`);
      assert.ok(Math.abs((next[1] as number) - (at[1] as number)) < 0.01);
      at = next;
    }
    // Out-of-range actions are clipped to [-1, 1].
    const clipped = make('FetchReach-v4');
    clipped.reset({ seed: 1 });
    const a = clipped.step(new Float64Array([5, 0, 0, 0])).observation.observation[0];
    const b = make('FetchReach-v4');
    b.reset({ seed: 1 });
    assert.equal(b.step(new Float64Array([1, 0, 0, 0])).observation.observation[0], a);
    const still = make('FetchReach-v4');
    const s0 = Array.from(still.reset({ seed: 2 }).observation.observation.subarray(0, 3));
    for (let t = 0; t < 5; t++) still.step(new Float64Array(4));
    const s1 = Array.from(still.step(new Float64Array(4)).observation.observation.subarray(0, 3));
    for (let k = 0; k < 3; k++) assert.ok(Math.abs((s1[k] as number) - (s0[k] as number)) < 0.01, `rest ${k}`);
  });

  it('blocks the fingers closed in Push and Slide, and opens and closes them in PickAndPlace', () => {
    for (const id of ['FetchPush-v4', 'FetchSlide-v4']) {
      const env = make(id);
      env.reset({ seed: 3 });
      for (let t = 0; t < 5; t++) {
        const o = env.step(new Float64Array([0, 0, 0, 1])).observation.observation;
        assert.deepEqual([o[9], o[10]], [0, 0], id);
      }
    }
    const pick = make('FetchPickAndPlace-v4');
    let o = pick.reset({ seed: 3 }).observation.observation;
    for (let t = 0; t < 8; t++) o = pick.step(new Float64Array([0, 0, 0, 1])).observation.observation;
    const open = (o[9] as number) + (o[10] as number);
    for (let t = 0; t < 8; t++) o = pick.step(new Float64Array([0, 0, 0, -1])).observation.observation;
    const closed = (o[9] as number) + (o[10] as number);
    assert.ok(open > 0.05 && closed < open - 0.03, `open ${open}, closed ${closed}`);
  });

  it('samples objects and goals as Gymnasium-Robotics defines them', () => {
    for (const task of FETCH_TASKS) {
      const env = make(task.id);
      let lifted = 0;
      let grip0: number[] | undefined;
      for (let seed = 0; seed < 200; seed++) {
        const o = env.reset({ seed }).observation;
        const grip = Array.from(o.observation.subarray(0, 3));
        grip0 ??= grip;
        assert.deepEqual(grip, grip0, `${task.id}: every episode starts from the same set-up`);
        const g = o.desired_goal;
        for (let k = 0; k < 2; k++) {
          const off = (g[k] as number) - (grip[k] as number) - (task.targetOffset[k] as number);
          assert.ok(Math.abs(off) <= task.targetRange + 1e-9, `${task.id} seed ${seed} goal ${k} off ${off}`);
        }
        if (task.hasObject) {
          const obj = o.observation.subarray(3, 6);
          const dxy = Math.hypot((obj[0] as number) - (grip[0] as number), (obj[1] as number) - (grip[1] as number));
          assert.ok(dxy >= 0.1, `${task.id} object ${dxy} from the gripper`);
          for (let k = 0; k < 2; k++) assert.ok(Math.abs((obj[k] as number) - (grip[k] as number)) <= task.objRange + 1e-9);
          const lift = (g[2] as number) - (obj[2] as number);
          assert.ok(lift > -0.002 && lift <= 0.45 + 0.002, `${task.id} goal height ${lift}`);
          if (lift > 0.002) lifted++;
        } else {
          assert.ok(Math.abs((g[2] as number) - (grip[2] as number)) <= task.targetRange + 1e-9);
        }
      }
      if (task.targetInTheAir && task.hasObject) assert.ok(lifted > 70 && lifted < 130, `${task.id}: ${lifted} of 200 goals in the air`);
      else if (task.hasObject) assert.equal(lifted, 0, task.id);
    }
  });

  it('a step is 20 substeps of 2 ms; the registry truncates episodes at 50 steps', () => {
    const env = make('FetchPush-v4');
    env.reset({ seed: 1 });
    const t0 = env.sim.data.time;
    env.step(new Float64Array(4));
    assert.ok(Math.abs(env.sim.data.time - t0 - N_SUBSTEPS * 0.002) < 1e-12);
    const registry = createRegistry();
    for (const task of FETCH_TASKS) {
      const { env: limited } = registry.make(task.id);
      // Two episodes on the same environment: the second is as long as the first.
      for (let episode = 0; episode < 2; episode++) {
        limited.reset({ seed: episode });
        let steps = 0;
        let r;
        do {
          r = limited.step(new Float64Array(4));
          steps++;
        } while (!r.truncated && !r.terminated);
        assert.equal(steps, 50, `${task.id} episode ${episode}`);
        assert.equal(r.truncated, true);
      }
    }
  });

  it('same seed and actions give bit-identical trajectories; getState/setState resumes exactly', () => {
    for (const task of FETCH_TASKS) {
      const run = (): number[] => {
        const env = make(task.id);
        const out = Array.from(env.reset({ seed: 5 }).observation.observation);
        for (const a of actions(9, 12)) out.push(...env.step(a).observation.observation, env.step(a).reward);
        return out;
      };
      assert.deepEqual(run(), run(), task.id);
      const a = make(task.id);
      a.reset({ seed: 8 });
      for (const act of actions(1, 5)) a.step(act);
      const state = JSON.parse(JSON.stringify(a.getState())) as unknown;
      // Another episode of the same model runs in between (it borrows the shared simulator data).
      const other = make(task.id);
      other.reset({ seed: 99 });
      other.step(new Float64Array([1, 1, 1, 1]));
      const b = make(task.id);
      b.setState(state);
      for (const act of actions(2, 6)) {
        const ra = a.step(act);
        const oa = Array.from(ra.observation.observation);
        const rb = b.step(act);
        assert.deepEqual(Array.from(rb.observation.observation), oa, `${task.id} resumed`);
        assert.equal(rb.reward, ra.reward);
      }
    }
  });
});
