/**
 * Box2D family throughput. Per environment: `env.step` with a uniform random policy through the
 * full contract, against the bare engine steps inside that same run: every `world.step` call is
 * timed, so the baseline is planck stepping exactly the worlds and states the episodes produced
 * with Gymnasium's iteration counts (the cost floor of the physics). Then the LunarLander
 * starter through the sandbox against the same episodes run in-process. Gymnasium itself is
 * measured in the same run when `python3 -c "import gymnasium, Box2D"` works; otherwise that
 * side is skipped with a note.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRegistry } from '../src/envs';
import { BipedalWalkerEnv } from '../src/envs/box2d/bipedalWalker';
import { CarRacingEnv } from '../src/envs/box2d/carRacing';
import { LunarLanderEnv } from '../src/envs/box2d/lunarLander';
import type { PhysicsEngine } from '../src/envs/box2d/physics';
import { planckEngine } from '../src/envs/box2d/planckEngine';
import { EpisodeLimits, type Env } from '../src/envs/core/env';
import { Rng } from '../src/envs/core/rng';
import { buildBundle, SandboxPool, type EpisodeSpec } from '../src/sandbox';
import { gymnasiumRates } from './gymnasiumRates';
import { opsPerSecond, type BenchModule } from './harness';

const IDS = ['LunarLander-v3', 'BipedalWalker-v3', 'CarRacing-v3'];

/** planck with every world.step timed. */
function timedEngine(): { engine: PhysicsEngine; stepMs: () => number } {
  let ms = 0;
  const engine: PhysicsEngine = {
    name: 'planck (timed)',
    createWorld(gx, gy) {
      const world = planckEngine.createWorld(gx, gy);
      const step = world.step.bind(world);
      world.step = (dt, vi, pi) => {
        const t0 = performance.now();
        step(dt, vi, pi);
        ms += performance.now() - t0;
      };
      return world;
    },
  };
  return { engine, stepMs: () => ms };
}

function makeEnv(id: string, engine: PhysicsEngine): EpisodeLimits<unknown, unknown> {
  const inner: Env<unknown, unknown> =
    id === 'LunarLander-v3'
      ? (new LunarLanderEnv({ continuous: false, gravity: -10, enableWind: false, windPower: 15, turbulencePower: 1.5, engine }) as Env<unknown, unknown>)
      : id === 'BipedalWalker-v3'
        ? (new BipedalWalkerEnv({ hardcore: false, engine }) as Env<unknown, unknown>)
        : (new CarRacingEnv({ continuous: true, domainRandomize: false, lapCompletePercent: 0.95, engine }) as Env<unknown, unknown>);
  return new EpisodeLimits(inner, createRegistry().get(id).maxEpisodeSteps);
}

/** Random-policy steps/s through the contract, and the rate of the world.step calls alone in the same run. */
function measure(id: string, ms: number): { env: number; bare: number } {
  const { engine, stepMs } = timedEngine();
  const env = makeEnv(id, engine);
  const rng = new Rng(7);
  let episode = 1;
  env.reset({ seed: episode });
  const run = (n: number): void => {
    for (let i = 0; i < n; i++) {
      const r = env.step(env.actionSpace.sample(rng));
      if (r.terminated || r.truncated) env.reset({ seed: ++episode });
    }
  };
  run(50);
  const physics0 = stepMs();
  const t0 = performance.now();
  let steps = 0;
  while (performance.now() - t0 < ms) {
    run(25);
    steps += 25;
  }
  const total = performance.now() - t0;
  return { env: (steps / total) * 1000, bare: (steps / (stepMs() - physics0)) * 1000 };
}

function randomPolicyLoop(id: string): (n: number) => number {
  const { env } = createRegistry().make(id);
  const rng = new Rng(7);
  let episode = 1;
  env.reset({ seed: episode });
  return (n) => {
    for (let i = 0; i < n; i++) {
      const r = env.step(env.actionSpace.sample(rng));
      if (r.terminated || r.truncated) env.reset({ seed: ++episode });
    }
    return n;
  };
}

/** The LunarLander starter: sandboxed episodes against the same episodes in-process. */
async function sandboxedLander(): Promise<{ sandbox: number; direct: number }> {
  const registry = createRegistry();
  const def = registry.get('LunarLander-v3');
  const specs: EpisodeSpec[] = Array.from({ length: 16 }, (_, i) => ({ caseIndex: i, envSeed: 100 + i, policySeed: i }));
  const parent = mkdtempSync(path.join(os.tmpdir(), 'pf-bench-box2d-'));
  try {
    mkdirSync(path.join(parent, 'policy'), { recursive: true });
    writeFileSync(path.join(parent, 'policy/policy.ts'), def.starterPolicy);
    const built = await buildBundle(parent, { typeCheck: false });
    if (!built.ok) throw new Error(`starter does not build: ${built.diagnostics.map((d) => d.message).join('; ')}`);
    const pool = new SandboxPool({ workers: 1 });
    try {
      const request = { bundle: built.bundle, envId: 'LunarLander-v3', params: {}, episodes: specs, limits: { maxTrajectorySteps: 0 } };
      await pool.runBatch(request);
      const t0 = performance.now();
      const steps = (await pool.runBatch(request)).reduce((a, r) => a + r.length, 0);
      const sandbox = (steps / (performance.now() - t0)) * 1000;
      // In-process: the same seeds, the starter compiled into this process.
      const { transformSync } = await import('esbuild');
      const mod: { exports: { Policy?: new (ctx: unknown) => { act(o: unknown): unknown } } } = { exports: {} };
      new Function('module', 'exports', transformSync(def.starterPolicy, { loader: 'ts', format: 'cjs' }).code)(mod, mod.exports);
      const Policy = mod.exports.Policy!;
      const runDirect = (): number => {
        let n = 0;
        for (const spec of specs) {
          const { env } = registry.make('LunarLander-v3');
          const policy = new Policy({ actionSpace: env.actionSpace.describe() });
          let obs = env.reset({ seed: spec.envSeed }).observation;
          for (;;) {
            const r = env.step(policy.act(obs));
            n++;
            obs = r.observation;
            if (r.terminated || r.truncated) break;
          }
        }
        return n;
      };
      // Warmed once like the sandbox side (its first batch), so both sides are timed with compiled code.
      runDirect();
      const t1 = performance.now();
      const directSteps = runDirect();
      const direct = (directSteps / (performance.now() - t1)) * 1000;
      if (directSteps !== steps) process.stdout.write(`note: sandbox ran ${steps} steps, in-process ${directSteps}\n`);
      return { sandbox, direct };
    } finally {
      await pool.close();
    }
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

export const box2dBench: BenchModule = {
  name: 'box2d (planck engine, random policy, steps/s, one core)',
  async run(table) {
    for (const id of IDS) {
      const m = measure(id, 2000);
      table.throughput(`${id} env.step`, m.env, 'steps/s', 'its world.step calls alone', m.bare);
    }
    const lander = await sandboxedLander();
    table.throughput('LunarLander-v3 starter, sandboxed (1 worker)', lander.sandbox, 'steps/s', 'same episodes in-process', lander.direct);
    const python = gymnasiumRates(['Box2D'], IDS, 'Gymnasium');
    if (typeof python === 'string') process.stdout.write(`Gymnasium side skipped: ${python}\n`);
    else for (const id of IDS) table.throughput(`Gymnasium 1.4 ${id} (same run)`, python[id] ?? NaN, 'steps/s', 'ours', opsPerSecond(randomPolicyLoop(id), 200, 1500));
  },
};
