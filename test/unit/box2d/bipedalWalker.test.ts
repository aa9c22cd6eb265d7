import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRegistry } from '../../../src/envs';
import { BipedalWalkerEnv } from '../../../src/envs/box2d/bipedalWalker';
import { ScriptedDraws } from '../../../src/envs/box2d/draws';
import { replayBox2dTrace } from '../../../src/envs/box2d/golden';
import type { Box2dTrace } from '../../../src/envs/box2d/goldenTrace';
import { documentedHorizon } from '../../../src/envs/box2d/horizons';
import { runStarter } from './starterHarness';

const file = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../fixtures/golden/box2d_bipedalwalker.json'), 'utf8')) as { env_id: string; traces: Box2dTrace[] };

/*
 * Agreement horizons (src/envs/box2d/horizons.ts) at the family's tolerances (|Δobs| ≤
 * 1e-4·max(1,|x|), reward 1e-2, flags exact) are where float64 arithmetic parts from pybox2d's
 * float32: Box2D 2.3's own sources (pybox2d's copy) built with float64 leave these traces at the
 * same steps, built with float32 they follow all three to the end within 1e-6. They hold only
 * because contacts are created in Box2D's pair order (planckEngine.ts); in planck's own order
 * every trace left at step 1.
 */
describe('BipedalWalker-v3 against Gymnasium 1.4 on pybox2d (golden traces)', () => {
  const registry = createRegistry();
  for (const trace of file.traces) {
    const horizon = documentedHorizon(file.env_id, trace)?.horizon;
    it(`${trace.name}: free rollout within 1e-4 for ${horizon} of ${trace.steps.length} steps`, () => {
      assert.ok(horizon !== undefined, 'every recorded trace has a documented horizon');
      const r = replayBox2dTrace(registry, file.env_id, trace);
      assert.ok(r.steps >= horizon, `agreed ${r.steps} steps: ${r.failure}`);
      assert.equal(r.passed, true);
    });
  }

  it('the first motor step agrees to 1e-5 on every trace (the contact order is Box2D\'s)', () => {
    for (const trace of file.traces) {
      const r = replayBox2dTrace(registry, file.env_id, trace, { obs: 1e-5, reward: 1e-5 });
      assert.ok(r.steps >= 1, `${trace.name}: ${r.failure}`);
    }
  });

  it('reset fed the recorded draws rebuilds the recorded terrain, lidar and first observation', () => {
    for (const trace of file.traces) {
      const draws = new ScriptedDraws(trace.rng_reset);
      const env = new BipedalWalkerEnv({ hardcore: false, draws });
      const { observation } = env.reset();
      assert.equal(draws.remaining, 0);
      const polys = trace.world['terrain_poly'] as [number, number][][];
      const w = env.worldInfo();
      polys.forEach((poly, i) => {
        assert.ok(Math.abs((w.terrainX[i] as number) - poly[0]![0]) < 1e-12 && Math.abs((w.terrainY[i] as number) - poly[0]![1]) < 1e-12, `terrain point ${i}`);
      });
      (trace.initial_obs as number[]).forEach((v, i) => assert.ok(Math.abs((observation[i] as number) - v) <= 1e-5, `${trace.name} initial obs[${i}]: ${observation[i]} vs ${v}`));
    }
  });
});

describe('BipedalWalker-v3 environment', () => {
  const registry = createRegistry();

  it('registers the normal and hardcore ids with Gymnasium limits', () => {
    assert.equal(registry.get('BipedalWalker-v3').maxEpisodeSteps, 1600);
    assert.equal(registry.get('BipedalWalkerHardcore-v3').maxEpisodeSteps, 2000);
    assert.equal(registry.make('BipedalWalkerHardcore-v3').params['hardcore'], true);
  });

  it('hardcore terrain has obstacles, the normal one none; same seed, same terrain', () => {
    const terrain = (hardcore: boolean, seed: number): BipedalWalkerEnv => {
      const env = new BipedalWalkerEnv({ hardcore });
      env.reset({ seed });
      return env;
    };
    assert.equal(terrain(false, 1).worldInfo().obstacles.length, 0);
    assert.ok(terrain(true, 1).worldInfo().obstacles.length > 3);
    assert.deepEqual(terrain(true, 2).worldInfo(), terrain(true, 2).worldInfo());
  });

  it('observations stay in the observation space; lidar sees the ground', () => {
    const { env } = registry.make('BipedalWalkerHardcore-v3');
    let obs = env.reset({ seed: 3 }).observation as Float64Array;
    for (let t = 0; t < 200; t++) {
      assert.ok(env.observationSpace.contains(obs), `step ${t}`);
      const r = env.step(Float64Array.of(Math.sin(t / 5), Math.cos(t / 5), -Math.sin(t / 5), -Math.cos(t / 5)));
      obs = r.observation as Float64Array;
      if (r.terminated || r.truncated) break;
    }
    assert.ok((obs[14] as number) < 1, 'the downward lidar ray hits the terrain');
    assert.throws(() => env.step([0, 0, 0]), /4 motor commands|after the episode ended/);
  });

  it('the starter gait walks forward on average', () => {
    const returns = runStarter(registry, 'BipedalWalker-v3', {}, 3);
    const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
    assert.ok(mean > 50, `mean ${mean.toFixed(1)}: ${returns.map((r) => r.toFixed(0)).join(', ')}`);
  });
});
