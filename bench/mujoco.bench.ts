/**
 * MuJoCo family costs. Per environment: uniform-random-policy episodes through `env.reset` and
 * `env.step`, against the same start states and controls fed to a bare loop of `frame_skip` ×
 * `mj_step` (and the same `mj_rnePostConstraint`) on the same model with its own MjData, in the
 * same run (goal: at most 1.3×); for Fetch the bare loop makes the simulator calls the task
 * requires: the mocap and finger controls, 20 × `mj_step`, and the blocked fingers' `mj_forward`. Then each starter
 * through the sandbox on two fresh workers (as a run on that environment has them): a 128-episode
 * batch, timed after a first one that warms the workers, against the same episodes in-process, and
 * those workers' peak resident memory with MuJoCo loaded over both batches, against a bare node
 * start (goal: at most 150 MB; Linux only).
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRegistry } from '../src/envs';
import { Rng } from '../src/envs/core/rng';
import { compiledModel, loadMujoco, mujoco } from '../src/envs/mujoco/engine';
import type { MujocoEnv } from '../src/envs/mujoco/mujocoEnv';
import { FetchEnv, N_SUBSTEPS } from '../src/envs/mujoco/fetch/fetchEnv';
import { childProcesses, peakResidentMb } from '../src/sandbox/pool/residentMemory';
import { buildBundle, SandboxPool, type EpisodeSpec } from '../src/sandbox';
import type { BenchModule } from './harness';
import { bareNodeMb, MUJOCO_WORKER_GOAL_MIB } from './processMemory';

const registry = createRegistry();
const IDS = registry.list().filter((d) => d.family === 'mujoco').map((d) => d.id);

interface Recorded {
  seed: number;
  start: Record<string, number[]>;
  actions: Float64Array[];
}

/** Random-policy episodes of the environment: seeds, start states and actions, `steps` in all. */
function record(id: string, steps: number): Recorded[] {
  const { env } = registry.make(id);
  const inner = env.inner as unknown as MujocoEnv | FetchEnv;
  const rng = new Rng(7);
  const out: Recorded[] = [];
  for (let seed = 1, total = 0; total < steps; seed++) {
    env.reset({ seed });
    const ep: Recorded = { seed, start: inner.sim.getState().fields, actions: [] };
    out.push(ep);
    for (;;) {
      const a = env.actionSpace.sample(rng) as Float64Array;
      ep.actions.push(a);
      total++;
      const r = env.step(a);
      if (r.terminated || r.truncated || total >= steps) break;
    }
  }
  return out;
}

interface Timed {
  steps: number;
  ms: number;
}

type Made = ReturnType<typeof registry.make>['env'];

/** The recorded episodes through `env.reset`/`env.step`. */
function timeEnv(env: Made, episodes: readonly Recorded[]): Timed {
  let n = 0;
  const t0 = performance.now();
  for (const ep of episodes) {
    env.reset({ seed: ep.seed });
    for (const a of ep.actions) env.step(a);
    n += ep.actions.length;
  }
  return { steps: n, ms: performance.now() - t0 };
}

/** The same states and controls with nothing but frame_skip × mj_step and mj_rnePostConstraint. */
function timeBare(id: string, episodes: readonly Recorded[]): Timed {
  const inner = registry.make(id).env.inner as unknown as MujocoEnv | FetchEnv;
  if (inner instanceof FetchEnv) return timeBareFetch(inner, episodes);
  const mj = mujoco();
  const model = compiledModel(inner.info.file);
  const data = new mj.MjData(model);
  const fields = data as unknown as Record<string, Float64Array>;
  const skip = inner.frameSkip;
  let n = 0;
  try {
    const t0 = performance.now();
    for (const ep of episodes) {
      mj.mj_resetData(model, data);
      fields['qpos']!.set(ep.start['qpos']!);
      fields['qvel']!.set(ep.start['qvel']!);
      mj.mj_forward(model, data);
      const ctrl = fields['ctrl']!;
      for (const a of ep.actions) {
        ctrl.set(a);
        for (let k = 0; k < skip; k++) mj.mj_step(model, data);
        mj.mj_rnePostConstraint(model, data);
      }
      n += ep.actions.length;
    }
    return { steps: n, ms: performance.now() - t0 };
  } finally {
    data.delete();
  }
}

/**
 * Fetch's bare loop: the mocap moved from the gripper's pose by the action, position actuators
 * set from their joints, 20 × mj_step, and the blocked fingers' reset with its mj_forward.
 */
function timeBareFetch(env: FetchEnv, episodes: readonly Recorded[]): Timed {
  const mj = mujoco();
  const model = compiledModel(env.task.model.file);
  const data = new mj.MjData(model);
  const fields = data as unknown as Record<string, Float64Array>;
  const gripper = mj.mj_name2id(model, mj.mjtObj.mjOBJ_BODY.value, 'robot0:gripper_link');
  const joint = (name: string): number => model.jnt_qposadr[mj.mj_name2id(model, mj.mjtObj.mjOBJ_JOINT.value, name)] as number;
  const fingers = [joint('robot0:r_gripper_finger_joint'), joint('robot0:l_gripper_finger_joint')];
  const actuated = Array.from({ length: model.nu }, (_, i) => model.jnt_qposadr[model.actuator_trnid[2 * i] as number] as number);
  const blocked = env.task.blockGripper;
  let n = 0;
  try {
    const t0 = performance.now();
    for (const ep of episodes) {
      mj.mj_resetData(model, data);
      fields['qpos']!.set(ep.start['qpos']!);
      fields['qvel']!.set(ep.start['qvel']!);
      mj.mj_forward(model, data);
      for (const a of ep.actions) {
        const xpos = fields['xpos']!;
        const xquat = fields['xquat']!;
        const mocap = fields['mocap_pos']!;
        const quat = fields['mocap_quat']!;
        for (let k = 0; k < 3; k++) mocap[k] = (xpos[3 * gripper + k] as number) + 0.05 * Math.max(-1, Math.min(1, a[k] as number));
        for (let k = 0; k < 4; k++) quat[k] = (xquat[4 * gripper + k] as number) + (k % 2 === 0 ? 1 : 0);
        const qpos = fields['qpos']!;
        const ctrl = fields['ctrl']!;
        for (let i = 0; i < actuated.length; i++) ctrl[i] = (qpos[actuated[i] as number] as number) + Math.max(-1, Math.min(1, a[3] as number));
        for (let k = 0; k < N_SUBSTEPS; k++) mj.mj_step(model, data);
        if (blocked) {
          const q = fields['qpos']!;
          q[fingers[0] as number] = 0;
          q[fingers[1] as number] = 0;
          mj.mj_forward(model, data);
        }
      }
      n += ep.actions.length;
    }
    return { steps: n, ms: performance.now() - t0 };
  } finally {
    data.delete();
  }
}

async function sandboxed(pool: SandboxPool, id: string, parent: string): Promise<{ sandbox: number; direct: number; memory: number[] }> {
  const def = registry.get(id);
  const dir = path.join(parent, id);
  mkdirSync(path.join(dir, 'policy'), { recursive: true });
  writeFileSync(path.join(dir, 'policy/policy.ts'), def.starterPolicy);
  for (const [rel, content] of Object.entries(def.workspaceFiles ?? {})) writeFileSync(path.join(dir, rel), content);
  const built = await buildBundle(dir, { typeCheck: false });
  if (!built.ok) throw new Error(`${id} starter does not build: ${built.diagnostics.map((d) => d.message).join('; ')}`);
  const specs: EpisodeSpec[] = Array.from({ length: 128 }, (_, i) => ({ caseIndex: i, envSeed: 100 + i, policySeed: i }));
  const request = { bundle: built.bundle, envId: id, params: {}, episodes: specs, limits: { maxTrajectorySteps: 0 } };
  // Fresh workers: the first batch loads the engine and the model and lets the WebAssembly code
  // reach its optimizing tier; the second is the one timed.
  await pool.runBatch(request);
  const t0 = performance.now();
  const records = await pool.runBatch(request);
  const failed = records.find((r) => r.status !== 'ok');
  if (failed) throw new Error(`${id} starter, case ${failed.caseIndex}: ${failed.status} (${failed.error?.message ?? ''})`);
  const steps = records.reduce((a, r) => a + r.length, 0);
  const sandbox = (steps / (performance.now() - t0)) * 1000;
  // The pool's workers' peaks (VmHWM, MiB); nothing where /proc cannot say.
  const memory = childProcesses(process.pid, 'sandboxWorker').map((p) => peakResidentMb(p) ?? 0);
  const { buildSync } = await import('esbuild');
  const mod: { exports: { Policy?: new (ctx: unknown) => { act(o: unknown): ArrayLike<number>; reset?(o: unknown): void } } } = { exports: {} };
  // Bundled: Fetch starters import their policy/fetch.ts.
  const code = buildSync({ entryPoints: [path.join(dir, 'policy/policy.ts')], bundle: true, format: 'cjs', write: false, logLevel: 'silent' }).outputFiles[0]!.text;
  new Function('module', 'exports', code)(mod, mod.exports);
  const Policy = mod.exports.Policy!;
  const t1 = performance.now();
  for (const spec of specs) {
    const { env } = registry.make(id);
    const policy = new Policy({});
    let obs = env.reset({ seed: spec.envSeed }).observation;
    policy.reset?.(obs);
    for (;;) {
      const r = env.step(Float64Array.from(policy.act(obs)));
      obs = r.observation;
      if (r.terminated || r.truncated) break;
    }
  }
  const direct = (steps / (performance.now() - t1)) * 1000;
  return { sandbox, direct, memory };
}

/** The median of a non-empty list. */
function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** Steps per timed round (whole episodes: a round may hold more). */
const ROUND_STEPS = 100;

/** Consecutive episodes of at least `steps` steps each (the last slice may be shorter). */
function slicesOf(episodes: readonly Recorded[], steps: number): Recorded[][] {
  const slices: Recorded[][] = [];
  for (let i = 0, at = 0; i < episodes.length; i++) {
    if (at === 0) slices.push([]);
    slices.at(-1)!.push(episodes[i]!);
    at += episodes[i]!.actions.length;
    if (at >= steps) at = 0;
  }
  return slices;
}

/** Optional comma-separated ids to bench (all of the family otherwise): MUJOCO_BENCH_IDS=Reacher-v5,FetchPush-v4. */
function selectedIds(): string[] {
  const only = process.env['MUJOCO_BENCH_IDS']?.split(',').filter(Boolean);
  return only && only.length > 0 ? IDS.filter((id) => only.includes(id)) : IDS;
}

/**
 * env.step against the bare loop: rounds of about ROUND_STEPS steps, each timed on both sides back to
 * back (which side goes first alternates), the ratio taken per round; the row reports the median
 * round ratio, so a burst of load from other processes moves a few rounds and not the result.
 * The environment is made once, as a worker's episode loop keeps one per episode and not per step.
 */
function envAgainstBare(id: string): { envRate: number; ratio: number; rounds: number } {
  // Slow steps get fewer of them, but enough rounds for a median (1000-step episodes are one round each).
  const episodes = record(id, id === 'HumanoidStandup-v5' ? 3000 : id.startsWith('Humanoid') || id.startsWith('Fetch') ? 1000 : 4000);
  const slices = slicesOf(episodes, ROUND_STEPS);
  const env = registry.make(id).env;
  const ratios: number[] = [];
  const rates: number[] = [];
  for (let pass = 0; pass < 3; pass++) {
    slices.forEach((slice, i) => {
      const envFirst = (i + pass) % 2 === 0;
      const b0 = envFirst ? undefined : timeBare(id, slice);
      const e = timeEnv(env, slice);
      const b = b0 ?? timeBare(id, slice);
      ratios.push(e.ms / e.steps / (b.ms / b.steps));
      rates.push((e.steps / e.ms) * 1000);
    });
  }
  return { envRate: median(rates), ratio: median(ratios), rounds: ratios.length };
}

export const mujocoBench: BenchModule = {
  name: 'mujoco (MuJoCo WebAssembly, steps/s, one core)',
  async run(table) {
    await loadMujoco();
    const ids = selectedIds();
    for (const id of ids) {
      await registry.prepare(id);
      const { envRate, ratio, rounds } = envAgainstBare(id);
      // The baseline shown is the env's median rate × the median round ratio, so the row's ratio is that median.
      table.throughput(`${id} env.step`, envRate, 'steps/s', `bare frame_skip × mj_step (median of ${rounds} rounds)`, envRate * ratio, '≤ 1.3×');
    }
    const parent = mkdtempSync(path.join(os.tmpdir(), 'pf-bench-mujoco-'));
    const peaks: [string, number][] = [];
    try {
      for (const id of ids) {
        const pool = new SandboxPool({ workers: 2 });
        try {
          const r = await sandboxed(pool, id, parent);
          if (r.memory.length > 0) peaks.push([id, Math.max(...r.memory)]);
          table.throughput(`${id} starter, 128 episodes sandboxed (2 workers)`, r.sandbox, 'steps/s', 'same episodes in-process (1 core)', r.direct);
        } finally {
          await pool.close();
        }
      }
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
    const bare = peaks.length > 0 ? bareNodeMb() : 0;
    for (const [id, mb] of peaks) {
      table.duration(`${id} sandbox worker peak RSS`, mb, 'MiB', 'bare node', bare, `≤ ${MUJOCO_WORKER_GOAL_MIB.toFixed(0)} MiB (150 MB)`);
    }
  },
};
