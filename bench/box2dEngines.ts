/**
 * Engine comparison for the Box2D family: replays every LunarLander golden trace (recorded
 * from Gymnasium on pybox2d, Box2D 2.3 float32) through each candidate engine from the same
 * scripted random draws, and reports how many steps each stays on the recorded trajectory,
 * plus its speed. Run: `npx tsx bench/box2dEngines.ts`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ScriptedDraws } from '../src/envs/box2d/draws';
import type { Box2dTrace } from '../src/envs/box2d/goldenTrace';
import { LunarLanderEnv } from '../src/envs/box2d/lunarLander';
import type { PhysicsEngine } from '../src/envs/box2d/physics';
import { planckEngine } from '../src/envs/box2d/planckEngine';
import { Rng } from '../src/envs/core/rng';
import { loadBox2dWasm } from './box2dWasmEngine';

const GOLDEN = path.resolve(__dirname, '../test/fixtures/golden');
const THRESHOLDS = [1e-6, 1e-4, 1e-2] as const;

interface Agreement {
  /** Per threshold: steps (from reset) before the first observation off by more than it. */
  horizon: number[];
  /** Steps before reward, terminated or leg contact first differ. */
  flags: number;
  steps: number;
}

export function replayLander(engine: PhysicsEngine, trace: Box2dTrace): Agreement {
  const draws = new ScriptedDraws(trace.rng_reset);
  const continuous = trace.make_kwargs['continuous'] === true;
  const env = new LunarLanderEnv({ continuous, gravity: -10, enableWind: false, windPower: 15, turbulencePower: 1.5, engine, draws });
  env.reset();
  const horizon = THRESHOLDS.map(() => -1);
  let flags = -1;
  for (let t = 0; t < trace.steps.length; t++) {
    const rec = trace.steps[t]!;
    draws.push(rec.rng ?? []);
    const a = trace.actions[t];
    const r = env.step(continuous ? Float64Array.from(a as number[]) : (a as number));
    const dev = Math.max(...(rec.obs as number[]).map((v, i) => Math.abs(v - (r.observation[i] as number))));
    THRESHOLDS.forEach((th, k) => {
      if (horizon[k] === -1 && !(dev <= th)) horizon[k] = t;
    });
    const flagsDiffer = r.terminated !== rec.terminated || r.observation[6] !== rec.obs![6] || r.observation[7] !== rec.obs![7] || Math.abs(r.reward - rec.reward) > 1e-3 * Math.max(1, Math.abs(rec.reward));
    if (flags === -1 && flagsDiffer) flags = t;
    if (r.terminated) break;
  }
  const n = trace.steps.length;
  return { horizon: horizon.map((h) => (h === -1 ? n : h)), flags: flags === -1 ? n : flags, steps: n };
}

export function landerStepsPerSecond(engine: PhysicsEngine, steps: number): number {
  const env = new LunarLanderEnv({ continuous: false, gravity: -10, enableWind: false, windPower: 15, turbulencePower: 1.5, engine });
  const rng = new Rng(7);
  let seed = 0;
  env.reset({ seed: seed++ });
  const t0 = performance.now();
  for (let i = 0; i < steps; i++) {
    const r = env.step(rng.integers(0, 4));
    if (r.terminated) env.reset({ seed: seed++ });
  }
  return steps / ((performance.now() - t0) / 1000);
}

async function main(): Promise<void> {
  const engines: PhysicsEngine[] = [planckEngine];
  try {
    engines.push(await loadBox2dWasm());
  } catch (e) {
    process.stdout.write(`box2d-wasm not loadable (${e instanceof Error ? e.message : String(e)}); comparing planck only\n`);
  }
  const files = ['box2d_lunarlander.json', 'box2d_lunarlander_continuous.json'];
  process.stdout.write(`| engine | trace | steps | obs within ${THRESHOLDS.join(' / ')} | flags and reward |\n|---|---|---|---|---|\n`);
  for (const engine of engines) {
    for (const file of files) {
      const data = JSON.parse(fs.readFileSync(path.join(GOLDEN, file), 'utf8')) as { traces: Box2dTrace[] };
      for (const trace of data.traces) {
        const a = replayLander(engine, trace);
        process.stdout.write(`| ${engine.name} | ${file.replace('.json', '')}/${trace.name} | ${a.steps} | ${a.horizon.join(' / ')} | ${a.flags} |\n`);
      }
    }
  }
  for (const engine of engines) {
    landerStepsPerSecond(engine, 5000);
    process.stdout.write(`${engine.name}: ${Math.round(landerStepsPerSecond(engine, 50000))} LunarLander steps/s (random policy)\n`);
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  });
}
