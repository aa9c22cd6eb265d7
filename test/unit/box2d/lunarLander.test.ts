import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRegistry } from '../../../src/envs';
import { ScriptedDraws } from '../../../src/envs/box2d/draws';
import { replayBox2dTrace } from '../../../src/envs/box2d/golden';
import type { Box2dTrace } from '../../../src/envs/box2d/goldenTrace';
import { documentedHorizon } from '../../../src/envs/box2d/horizons';
import { LunarLanderEnv } from '../../../src/envs/box2d/lunarLander';
import { replayGoldenFile } from '../../../src/envs/golden';
import { runStarter } from './starterHarness';

const GOLDEN = path.resolve(__dirname, '../../fixtures/golden');
const load = (name: string): { env_id: string; traces: Box2dTrace[] } => JSON.parse(fs.readFileSync(path.join(GOLDEN, name), 'utf8'));

/** The lander's golden files; each trace's agreement horizon is documented in src/envs/box2d/horizons.ts. */
const FILES = ['box2d_lunarlander.json', 'box2d_lunarlander_continuous.json'];

interface RecordedLanderBodies {
  lander: { position: [number, number]; angle: number; linearVelocity: [number, number]; angularVelocity: number };
}

describe('LunarLander-v3 matches Gymnasium 1.4 on pybox2d (golden traces)', () => {
  const registry = createRegistry();
  for (const file of FILES) {
    const data = load(file);
    for (const trace of data.traces) {
      const horizon = documentedHorizon(data.env_id, trace)?.horizon;
      it(`${file} ${trace.name}: free rollout agrees for ${horizon} of ${trace.steps.length} steps`, () => {
        assert.ok(horizon !== undefined, 'every recorded trace has a documented horizon');
        const r = replayBox2dTrace(registry, data.env_id, trace);
        assert.ok(r.steps >= horizon, `agreed ${r.steps} steps, horizon ${horizon}: ${r.failure}`);
        assert.equal(r.passed, true);
      });
    }
  }

  it('reset fed the recorded draws rebuilds the recorded moon and initial bodies', () => {
    for (const file of FILES) {
      for (const trace of load(file).traces) {
        const draws = new ScriptedDraws(trace.rng_reset);
        const env = new LunarLanderEnv({ continuous: trace.make_kwargs['continuous'] === true, gravity: -10, enableWind: false, windPower: 15, turbulencePower: 1.5, draws });
        env.reset();
        assert.equal(draws.remaining, 0);
        const moon = (trace.world['moon_fixtures'] as { vertices: [number, number][] }[]).slice(1).map((m) => m.vertices);
        const ours = env.getState().world.terrain;
        moon.forEach(([a, b], i) => {
          assert.deepEqual([Math.fround(ours[i]![0]), Math.fround(ours[i]![1])], a, `${trace.name} edge ${i}`);
          assert.deepEqual([Math.fround(ours[i + 1]![0]), Math.fround(ours[i + 1]![1])], b, `${trace.name} edge ${i}`);
        });
        const rec = (trace.initial_bodies as unknown as RecordedLanderBodies).lander;
        const got = env.bodies().lander;
        const pairs: [number, number][] = [[got.x, rec.position[0]], [got.y, rec.position[1]], [got.angle, rec.angle], [got.vx, rec.linearVelocity[0]], [got.vy, rec.linearVelocity[1]], [got.w, rec.angularVelocity]];
        for (const [g, e] of pairs) assert.ok(Math.abs(g - e) <= 1e-5 * Math.max(1, Math.abs(e)), `${trace.name}: ${g} vs ${e}`);
      }
    }
  });

  it('the generic golden entry point dispatches Box2D files and names the first mismatch', () => {
    const data = load('box2d_lunarlander.json');
    data.traces = data.traces.slice(0, 2);
    const obs9 = data.traces[0]!.steps[9]!.obs as number[];
    obs9[0] = (obs9[0] as number) + 0.01;
    data.traces[1]!.steps[4]!.terminated = true;
    const report = replayGoldenFile(registry, data);
    assert.match(report.traces[0]!.failure ?? '', /^step 10: obs\[0\] expected/);
    assert.equal(report.traces[0]!.steps, 9);
    assert.match(report.traces[1]!.failure ?? '', /^step 5: terminated expected true got false/);
  });
});

describe('LunarLander-v3 environment', () => {
  const registry = createRegistry();

  it('is registered with both action spaces and Gymnasium limits', () => {
    const d = registry.make('LunarLander-v3').env;
    assert.deepEqual(d.actionSpace.describe(), { type: 'Discrete', n: 4, start: 0 });
    const c = registry.make('LunarLander-v3', { continuous: true }).env;
    assert.equal(c.actionSpace.describe().type, 'Box');
    assert.equal(registry.get('LunarLander-v3').maxEpisodeSteps, 1000);
    assert.throws(() => registry.make('LunarLander-v3', { gravity: -13 }), /gravity/);
  });

  it('same seed, same episode; observations stay in the observation space', () => {
    const run = (seed: number): number[] => {
      const { env } = registry.make('LunarLander-v3');
      let obs = env.reset({ seed }).observation as Float64Array;
      const out: number[] = [];
      for (let t = 0; t < 1000; t++) {
        assert.ok(env.observationSpace.contains(obs), `step ${t}: ${Array.from(obs).join(',')}`);
        const r = env.step(t % 7 === 0 ? 2 : t % 3);
        obs = r.observation as Float64Array;
        out.push(r.reward);
        if (r.terminated || r.truncated) break;
      }
      return out;
    };
    assert.deepEqual(run(3), run(3));
    assert.notDeepEqual(run(3), run(4));
  });

  it('rejects malformed actions with a clear error', () => {
    const { env } = registry.make('LunarLander-v3');
    env.reset({ seed: 1 });
    assert.throws(() => env.step(4), /action in 0\.\.3/);
    const { env: c } = registry.make('LunarLander-v3', { continuous: true });
    c.reset({ seed: 1 });
    assert.throws(() => c.step(1), /\[main, lateral\]/);
  });

  it('wind pushes the lander when enabled', () => {
    const drift = (enable_wind: boolean): number => {
      const { env } = registry.make('LunarLander-v3', { enable_wind, wind_power: 20 });
      env.reset({ seed: 5 });
      let x = 0;
      for (let t = 0; t < 30; t++) x = (env.step(0).observation as Float64Array)[0] as number;
      return x;
    };
    assert.notEqual(drift(true), drift(false));
  });

  it('the starter policy lands: mean return over 10 episodes above 100, discrete and continuous', () => {
    for (const continuous of [false, true]) {
      const returns = runStarter(registry, 'LunarLander-v3', { continuous }, 10);
      const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
      assert.ok(mean > 100, `continuous=${continuous}: mean ${mean.toFixed(1)} (${returns.map((r) => r.toFixed(0)).join(', ')})`);
    }
  });
});
