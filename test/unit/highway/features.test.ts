import * as assert from 'node:assert/strict';
import * as esbuild from 'esbuild';
import { createRegistry } from '../../../src/envs';
import { generateEnvDeclarations } from '../../../src/envs/core/declarations';
import type { DrivingEnv } from '../../../src/envs/highway/drivingEnv';

const registry = createRegistry();

const first = (id: string, params: Record<string, unknown>, seed = 9): Float64Array => registry.make(id, params).env.reset({ seed }).observation as Float64Array;

describe('driving: observation_features', () => {
  it('defaults to each task\'s HighwayEnv columns', () => {
    for (const id of ['highway-v0', 'highway-fast-v0', 'merge-v0', 'roundabout-v0']) assert.equal(registry.get(id).params['observation_features']?.default, 'presence,x,y,vx,vy', id);
    assert.equal(registry.get('intersection-v0').params['observation_features']?.default, 'presence,x,y,vx,vy,cos_h,sin_h');
  });

  it('lays the table out in the given order, scaling only x, y, vx, vy', () => {
    const base = first('highway-fast-v0', {});
    const { env } = registry.make('highway-fast-v0', { observation_features: 'vx,presence,heading,lat_off,x' });
    const obs = env.reset({ seed: 9 }).observation as Float64Array;
    assert.deepEqual(env.observationSpace.describe(), { type: 'Box', shape: [5, 5], dtype: 'float32', low: Array(25).fill('-inf'), high: Array(25).fill('inf') });
    const ego = (env.inner as unknown as DrivingEnv<Float64Array>).ego;
    for (let r = 0; r < 5; r++) {
      assert.equal(obs[r * 5], base[r * 5 + 3], `row ${r} vx`);
      assert.equal(obs[r * 5 + 1], base[r * 5], `row ${r} presence`);
      assert.equal(obs[r * 5 + 4], base[r * 5 + 1], `row ${r} x`);
    }
    assert.equal(obs[2], Math.fround(ego.heading), 'heading is raw radians');
    const [, lat] = ego.lane!.localCoordinates(ego.position[0], ego.position[1]);
    assert.equal(obs[3], Math.fround(lat), 'lat_off is raw metres');
  });

  it('accepts an array, refuses unknown and repeated names naming the allowed set', () => {
    assert.equal((registry.make('merge-v0', { observation_features: ['presence', 'cos_h'] }).env.observationSpace.describe() as { shape: number[] }).shape.toString(), '5,2');
    assert.throws(() => registry.make('highway-v0', { observation_features: 'presence,speed' }), /observation_features" has unknown name "speed" \(allowed: presence, x, y, vx, vy, heading, cos_h, sin_h, cos_d, sin_d, long_off, lat_off, ang_off\)/);
    assert.throws(() => registry.make('highway-v0', { observation_features: 'x,x' }), /names "x" more than once/);
    assert.throws(() => registry.make('highway-v0', { observation_features: '' }), /at least one/);
    assert.throws(() => registry.make('highway-v0', { observation_features: 3 }), /list of names/);
  });

  it('observation_intentions fills cos_d, sin_d of other rows only when asked', () => {
    const cols = 'presence,cos_d,sin_d';
    const off = first('intersection-v0', { observation_features: cols }, 3);
    const on = first('intersection-v0', { observation_features: cols, observation_intentions: true }, 3);
    const others = (o: Float64Array): number[] => Array.from(o.subarray(3)).filter((_, i) => i % 3 !== 0);
    assert.ok(others(off).every((v) => v === 0));
    assert.ok(others(on).some((v) => v !== 0), 'some other vehicle has a route');
    assert.deepEqual(Array.from(on.subarray(0, 3)), Array.from(off.subarray(0, 3)), 'row 0 always has its direction');
  });

  it('policy/driving.ts decodes this run\'s columns from ctx.params; env.d.ts types the parameter', () => {
    const js = esbuild.transformSync(registry.get('highway-v0').workspaceFiles!['policy/driving.ts']!, { loader: 'ts', format: 'cjs' }).code;
    type Car = { present: boolean; x: number; vx: number; heading: number; cosH: number };
    const mod = { exports: {} as { cars: (o: ArrayLike<number>, lanes?: number, params?: object) => Car[] } };
    new Function('module', 'exports', js)(mod, mod.exports);
    const params = { observation_features: 'heading,x,presence' };
    const { env, params: resolved } = registry.make('highway-v0', params);
    const obs = env.reset({ seed: 4 }).observation as Float64Array;
    const cars = mod.exports.cars(obs, 4, resolved);
    const ego = (env.inner as unknown as DrivingEnv<Float64Array>).ego;
    assert.equal(cars.length, 5);
    assert.ok(cars[0]!.present);
    assert.equal(cars[0]!.heading, Math.fround(ego.heading));
    assert.ok(Math.abs(cars[0]!.x - ego.position[0]) < 1e-3 * 200, 'x scaled back to metres');
    assert.ok(Number.isNaN(cars[0]!.vx) && Number.isNaN(cars[0]!.cosH), 'columns not chosen decode as NaN');
    assert.match(generateEnvDeclarations(registry.get('highway-v0'), resolved, env), /readonly observation_features: string;/);
    assert.match(registry.get('highway-v0').guide!, /`observation_features` chooses the columns/);
  });
});
