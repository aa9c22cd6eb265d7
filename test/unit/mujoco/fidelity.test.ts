/**
 * The MuJoCo family against what can be checked without recorded traces: model sizes, observation
 * layouts (Gymnasium's observation_structure), reward terms recomputed from the simulator,
 * termination at the healthy bounds, reset noise ranges, frame skip, and determinism.
 */
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { createRegistry } from '../../../src/envs';
import { MODEL_FILES } from '../../../src/envs/mujoco/assets/models.generated';
import { compiledModel, loadMujoco, mujoco } from '../../../src/envs/mujoco/engine';
import { MODELS } from '../../../src/envs/mujoco/models';
import type { AntEnv } from '../../../src/envs/mujoco/ant';
import { massCenter } from '../../../src/envs/mujoco/humanoid';
import type { HopperEnv, Walker2dEnv } from '../../../src/envs/mujoco/planar';
import type { MujocoEnv } from '../../../src/envs/mujoco/mujocoEnv';
import type { ReacherEnv } from '../../../src/envs/mujoco/arms';

const assets = path.resolve(__dirname, '../../../src/envs/mujoco/assets');
const registry = createRegistry();
const allIds = registry.list().filter((d) => d.family === 'mujoco').map((d) => d.id);
/** Gymnasium's v5 tasks (the Fetch tasks have their own test file). */
const ids = allIds.filter((id) => !id.startsWith('Fetch'));

function make(id: string, params: Record<string, unknown> = {}): MujocoEnv & { structure: Record<string, number> } {
  return registry.make(id, params).env.inner as unknown as MujocoEnv & { structure: Record<string, number> };
}

function randomAction(env: MujocoEnv, seed: number): Float64Array {
  const a = new Float64Array(env.info.nu);
  let s = seed;
  for (let i = 0; i < a.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    a[i] = ((s / 4294967296) * 2 - 1) * env.info.ctrlLimit;
  }
  return a;
}

describe('mujoco: fidelity', function () {
  this.timeout(120_000);
  before(async () => {
    await loadMujoco();
  });

  it('registers the eleven Gymnasium MuJoCo v5 tasks and the four Fetch v4 tasks', () => {
    assert.deepEqual([...ids].sort(), ['Ant-v5', 'HalfCheetah-v5', 'Hopper-v5', 'Humanoid-v5', 'HumanoidStandup-v5', 'InvertedDoublePendulum-v5', 'InvertedPendulum-v5', 'Pusher-v5', 'Reacher-v5', 'Swimmer-v5', 'Walker2d-v5']);
    assert.deepEqual(allIds.filter((id) => id.startsWith('Fetch')).sort(), ['FetchPickAndPlace-v4', 'FetchPush-v4', 'FetchReach-v4', 'FetchSlide-v4']);
    assert.equal(allIds.length, 15);
  });

  it('embeds the vendored model files unchanged, with their license and source', () => {
    const dir = path.join(assets, 'gymnasium');
    const xml = readdirSync(dir).filter((f) => f.endsWith('.xml'));
    assert.equal(xml.length, 11);
    for (const f of xml) assert.equal(MODEL_FILES[`gymnasium/${f}`], readFileSync(path.join(dir, f), 'utf8'), `${f}: run node src/envs/mujoco/assets/embed.mjs`);
    assert.match(readFileSync(path.join(dir, 'LICENSE'), 'utf8'), /MIT License/);
    assert.match(readFileSync(path.join(dir, 'SOURCE'), 'utf8'), /Commit: [0-9a-f]{40}/);
  });

  it('the static model sizes equal the compiled models', () => {
    for (const info of Object.values(MODELS)) {
      const m = compiledModel(info.file);
      assert.deepEqual([m.nq, m.nv, m.nu, m.nbody, m.opt.timestep], [info.nq, info.nv, info.nu, info.nbody, info.timestep], info.file);
      const range = m.actuator_ctrlrange as Float64Array;
      for (let i = 0; i < m.nu; i++) assert.deepEqual([range[2 * i], range[2 * i + 1]], [-info.ctrlLimit, info.ctrlLimit], `${info.file} actuator ${i}`);
    }
  });

  it('observation sizes match Gymnasium v5 and the observation structure', () => {
    const expected: Record<string, number> = {
      'Ant-v5': 105, 'HalfCheetah-v5': 17, 'Hopper-v5': 11, 'Humanoid-v5': 348, 'HumanoidStandup-v5': 348, 'InvertedDoublePendulum-v5': 9,
      'InvertedPendulum-v5': 4, 'Pusher-v5': 23, 'Reacher-v5': 10, 'Swimmer-v5': 8, 'Walker2d-v5': 17,
    };
    for (const id of ids) {
      const env = make(id);
      assert.equal((env.observationSpace.describe() as { shape: number[] }).shape[0], expected[id], id);
      const sum = Object.entries(env.structure).filter(([k]) => k !== 'skipped_qpos').reduce((a, [, v]) => a + v, 0);
      assert.equal(sum, expected[id], `${id} structure`);
      assert.equal(env.reset({ seed: 1 }).observation.length, expected[id]);
    }
    assert.equal(make('Ant-v5', { include_cfrc_ext_in_observation: false }).reset({ seed: 1 }).observation.length, 27);
    assert.equal(make('Ant-v5', { exclude_current_positions_from_observation: false, include_cfrc_ext_in_observation: false }).reset({ seed: 1 }).observation.length, 29);
    const bare = { include_cinert_in_observation: false, include_cvel_in_observation: false, include_qfrc_actuator_in_observation: false, include_cfrc_ext_in_observation: false };
    assert.equal(make('Humanoid-v5', bare).reset({ seed: 1 }).observation.length, 45);
    assert.equal(make('HalfCheetah-v5', { exclude_current_positions_from_observation: false }).reset({ seed: 1 }).observation.length, 18);
  });

  it('the observation layout is the simulator state in Gymnasium\'s order', () => {
    const ant = make('Ant-v5') as unknown as AntEnv;
    const o = ant.reset({ seed: 3 }).observation;
    ant.step(randomAction(ant, 1));
    const s = ant.sim.views();
    const obs = ant.step(randomAction(ant, 2)).observation;
    assert.deepEqual([...obs.subarray(0, 13)], [...s.qpos.subarray(2)]);
    assert.deepEqual([...obs.subarray(13, 27)], [...s.qvel]);
    assert.deepEqual([...obs.subarray(27)], [...s.cfrcExt.subarray(6)].map((v) => Math.min(1, Math.max(-1, v))));
    assert.equal(o.length, 105);
  });

  it('a step is frame_skip calls of mj_step on the same state', () => {
    const mj = mujoco();
    for (const [id, skip] of [['HalfCheetah-v5', 5], ['Hopper-v5', 4], ['Reacher-v5', 2], ['Humanoid-v5', 3]] as const) {
      const env = make(id, { frame_skip: skip });
      env.reset({ seed: 11 });
      const start = env.sim.getState();
      const t0 = env.sim.time;
      const action = randomAction(env, 5);
      env.step(action);
      const after = [...env.sim.views().qpos];
      assert.ok(Math.abs(env.sim.time - t0 - skip * env.info.timestep) < 1e-12, `${id} time`);
      // The same start state stepped by hand, in a simulation of its own.
      const model = compiledModel(env.info.file);
      const data = new mj.MjData(model);
      try {
        const d = data as unknown as Record<string, Float64Array>;
        for (const f of ['qpos', 'qvel', 'qacc_warmstart']) d[f]!.set(start.fields[f]!);
        data.time = start.time;
        mj.mj_forward(model, data);
        for (let i = 0; i < env.info.nu; i++) d['ctrl']![i] = action[i]!;
        for (let i = 0; i < skip; i++) mj.mj_step(model, data);
        assert.deepEqual([...(data as unknown as Record<string, Float64Array>)['qpos']!], after, id);
      } finally {
        data.delete();
      }
    }
  });

  it('the reward is the sum of its info terms, each recomputed from the simulator', () => {
    for (const id of ids) {
      const env = make(id);
      env.reset({ seed: 5 });
      for (let t = 0; t < 20; t++) {
        const before = [...env.sim.views().qpos];
        const beforeMass = massCenter(env.sim);
        const a = randomAction(env, t + 1);
        const r = env.step(a);
        const info = r.info as Record<string, number>;
        const terms = Object.entries(info).filter(([k]) => k.startsWith('reward_') || k.endsWith('_penalty')).reduce((s, [, v]) => s + v, 0);
        const constant = id === 'HumanoidStandup-v5' ? 1 : 0;
        assert.ok(Math.abs(r.reward - terms - constant) < 1e-9, `${id} step ${t}: ${r.reward} vs ${terms}`);
        const s = env.sim.views();
        const ctrl = a.reduce((x, v) => x + v * v, 0);
        switch (id) {
          case 'HalfCheetah-v5':
            assert.equal(info['reward_forward'], (s.qpos[0]! - before[0]!) / env.dt);
            assert.ok(Math.abs(info['reward_ctrl']! + 0.1 * ctrl) < 1e-12);
            break;
          case 'Reacher-v5': {
            const [dx, dy, dz] = (env as unknown as ReacherEnv).offset(env.sim);
            assert.equal(info['reward_dist'], -Math.hypot(dx, dy, dz));
            assert.ok(Math.abs(info['reward_ctrl']! + ctrl) < 1e-12);
            break;
          }
          case 'Ant-v5': {
            const clipSq = [...s.cfrcExt].reduce((x, v) => x + Math.min(1, Math.max(-1, v)) ** 2, 0);
            assert.ok(Math.abs(info['reward_contact']! + 5e-4 * clipSq) < 1e-12);
            assert.equal(info['reward_survive'], s.qpos[2]! >= 0.2 && s.qpos[2]! <= 1 ? 1 : 0);
            break;
          }
          case 'Humanoid-v5': {
            const [x1] = massCenter(env.sim);
            assert.ok(Math.abs(info['reward_forward']! - (1.25 * (x1 - beforeMass[0])) / env.dt) < 1e-9);
            break;
          }
          case 'HumanoidStandup-v5':
            assert.equal(info['reward_linup'], s.qpos[2]! / 0.003);
            break;
        }
        if (r.terminated) break;
      }
    }
  });

  it('terminates exactly at the healthy bounds', () => {
    const hopper = make('Hopper-v5') as unknown as HopperEnv;
    hopper.reset({ seed: 1 });
    const q = hopper.sim.views().qpos;
    q[2] = 0;
    q[1] = 0.7;
    assert.equal(hopper.isHealthy(hopper.sim), false, 'z = 0.7 is outside (0.7, inf)');
    q[1] = 0.7 + 1e-12;
    assert.equal(hopper.isHealthy(hopper.sim), true);
    q[2] = 0.2;
    assert.equal(hopper.isHealthy(hopper.sim), false, 'angle = 0.2 is outside (-0.2, 0.2)');
    q[2] = 0.2 - 1e-12;
    assert.equal(hopper.isHealthy(hopper.sim), true);
    const walker = make('Walker2d-v5') as unknown as Walker2dEnv;
    walker.reset({ seed: 1 });
    const w = walker.sim.views().qpos;
    w[1] = 2;
    assert.equal(walker.isHealthy(walker.sim), false);
    w[1] = 2 - 1e-12;
    assert.equal(walker.isHealthy(walker.sim), true);
    const ant = make('Ant-v5') as unknown as AntEnv;
    ant.reset({ seed: 1 });
    const aq = ant.sim.views().qpos;
    aq[2] = 0.2;
    assert.equal(ant.isHealthy(ant.sim), true, 'Ant bounds are inclusive');
    aq[2] = 0.2 - 1e-12;
    assert.equal(ant.isHealthy(ant.sim), false);
    aq[2] = 1;
    assert.equal(ant.isHealthy(ant.sim), true);
    // An episode with no control falls and ends on the step that leaves the range.
    const h = make('Hopper-v5');
    h.reset({ seed: 2 });
    let end = -1;
    for (let t = 0; t < 1000 && end < 0; t++) if (h.step(new Float64Array([1, -1, 1])).terminated) end = t;
    assert.ok(end > 0);
    assert.equal((h as unknown as HopperEnv).isHealthy(h.sim), false);
    // With terminate_when_unhealthy off, the same fall continues without the survival reward.
    const h2 = make('Hopper-v5', { terminate_when_unhealthy: false });
    h2.reset({ seed: 2 });
    let r = h2.step(new Float64Array([1, -1, 1]));
    for (let t = 0; t < end; t++) r = h2.step(new Float64Array([1, -1, 1]));
    assert.equal(r.terminated, false);
    assert.equal((r.info as Record<string, number>)['reward_survive'], 0);
  });

  it('reset noise stays inside its documented ranges', () => {
    for (let seed = 0; seed < 50; seed++) {
      const hc = make('HalfCheetah-v5');
      hc.reset({ seed });
      const q = hc.sim.views().qpos;
      for (let i = 0; i < q.length; i++) assert.ok(Math.abs(q[i]! - hc.sim.initQpos[i]!) <= 0.1);
      const reacher = make('Reacher-v5');
      const o = reacher.reset({ seed }).observation;
      assert.ok(Math.hypot(o[4]!, o[5]!) < 0.2, 'goal inside the 0.2 m disc');
      const rq = reacher.sim.views().qpos;
      for (let i = 0; i < 2; i++) assert.ok(Math.abs(rq[i]! - reacher.sim.initQpos[i]!) <= 0.1);
      for (let i = 0; i < 2; i++) assert.ok(Math.abs(reacher.sim.qvel[i]!) <= 0.005);
      assert.deepEqual([reacher.sim.qvel[2], reacher.sim.qvel[3]], [0, 0]);
      const pusher = make('Pusher-v5');
      const p = pusher.reset({ seed }).observation;
      const pq = pusher.sim.views().qpos;
      assert.ok(pq[7]! >= -0.3 && pq[7]! < 0 && Math.abs(pq[8]!) <= 0.2 && Math.hypot(pq[7]!, pq[8]!) > 0.17);
      assert.deepEqual([pq[9], pq[10]], [0, 0]);
      assert.equal(p.length, 23);
      const walker = make('Walker2d-v5');
      walker.reset({ seed });
      const wq = walker.sim.views().qpos;
      for (let i = 0; i < wq.length; i++) assert.ok(Math.abs(wq[i]! - walker.sim.initQpos[i]!) <= 0.005);
      for (const v of walker.sim.qvel) assert.ok(Math.abs(v) <= 0.005);
    }
  });

  it('same seed and actions give bit-identical trajectories; getState/setState resumes exactly', () => {
    for (const id of ['Ant-v5', 'Humanoid-v5', 'Reacher-v5']) {
      const run = (): number[] => {
        const env = make(id);
        const out = [...env.reset({ seed: 42 }).observation];
        for (let t = 0; t < 30; t++) {
          const r = env.step(randomAction(env, t));
          out.push(r.reward, ...r.observation);
        }
        return out;
      };
      assert.deepEqual(run(), run(), id);
      const a = make(id);
      a.reset({ seed: 9 });
      for (let t = 0; t < 10; t++) a.step(randomAction(a, t));
      const state = JSON.parse(JSON.stringify(a.getState())) as unknown;
      const b = make(id);
      b.setState(state);
      for (let t = 10; t < 20; t++) {
        const ra = a.step(randomAction(a, t));
        const rb = b.step(randomAction(b, t));
        assert.equal(rb.reward, ra.reward, `${id} resumed step ${t}`);
        assert.deepEqual([...rb.observation], [...ra.observation]);
      }
    }
  });

  it('an episode whose model was freed meanwhile (other models compiled) continues bit-exactly', () => {
    const run = (interrupt: boolean): number[] => {
      const env = make('Hopper-v5');
      const out = Array.from(env.reset({ seed: 3 }).observation as Float64Array);
      for (let t = 0; t < 30; t++) {
        if (interrupt && t % 10 === 5) {
          // Three other models in a row: the process keeps two compiled, so Hopper's is freed.
          for (const other of ['Swimmer-v5', 'Reacher-v5', 'InvertedPendulum-v5']) {
            const e = make(other);
            e.reset({ seed: t });
            e.step(randomAction(e, t));
          }
        }
        const r = env.step(randomAction(env, t));
        out.push(...(r.observation as Float64Array), r.reward);
      }
      return out;
    };
    assert.deepEqual(run(true), run(false));
  });

  it('snapshots after an episode\'s first carry the rounded qpos only', () => {
    const env = make('HalfCheetah-v5');
    env.reset({ seed: 1 });
    env.snapshot();
    env.step(randomAction(env, 1));
    const snap = env.snapshot() as { qpos: number[] };
    assert.deepEqual(Object.keys(snap), ['qpos']);
    assert.equal(snap.qpos.length, 9);
    assert.ok(JSON.stringify(snap).length < 120);
  });

  it('spaces and types need no engine: every id makes, with Gymnasium\'s action bounds', () => {
    for (const id of ids) {
      const d = registry.make(id).env.actionSpace.describe() as { low: number[]; high: number[] };
      assert.ok(d.low.every((v) => v < 0) && d.high.every((v) => v > 0), id);
    }
  });
});
