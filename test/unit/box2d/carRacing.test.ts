import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRegistry } from '../../../src/envs';
import { CarRacingEnv } from '../../../src/envs/box2d/carRacing';
import { createTrack } from '../../../src/envs/box2d/carTrack';
import { ScriptedDraws } from '../../../src/envs/box2d/draws';
import { replayBox2dTrace } from '../../../src/envs/box2d/golden';
import type { Box2dTrace } from '../../../src/envs/box2d/goldenTrace';
import { runStarter } from './starterHarness';

const file = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../fixtures/golden/box2d_carracing.json'), 'utf8')) as { env_id: string; traces: Box2dTrace[] };

/**
 * Frame tolerance: outside the score text box (columns 0–11 of rows 84–95, which we leave
 * black: Gymnasium prints the score there with pygame's font), every channel of every recorded
 * frame is within PIXEL_TOL of ours, at most 1 % of them differ by more than NEAR_TOL, and the
 * mean absolute difference stays below MEAN_TOL. The differences are the anti-aliased polygon
 * outlines pygame adds, which we skip, and the edges of small shapes (wheels, kerbs) drawn on a
 * canvas of half Gymnasium's resolution before the same area filter.
 */
const PIXEL_TOL = 80;
const NEAR_TOL = 16;
const MEAN_TOL = 1.0;
const inScoreBox = (x: number, y: number): boolean => x < 12 && y >= 84;

function compareFrame(ours: Uint8Array, b64: string): { max: number; mean: number; far: number } {
  const theirs = Buffer.from(b64, 'base64');
  assert.equal(theirs.length, ours.length);
  let max = 0;
  let sum = 0;
  let far = 0;
  for (let i = 0; i < theirs.length; i++) {
    const d = Math.abs((ours[i] as number) - (theirs[i] as number));
    sum += d;
    const px = Math.floor(i / 3);
    if (inScoreBox(px % 96, Math.floor(px / 96))) continue;
    max = Math.max(max, d);
    if (d > NEAR_TOL) far++;
  }
  return { max, mean: sum / theirs.length, far: far / theirs.length };
}

describe('CarRacing-v3 against Gymnasium 1.4 on pybox2d (golden traces)', () => {
  const registry = createRegistry();

  for (const trace of file.traces) {
    it(`${trace.name}: rewards and flags agree for all ${trace.steps.length} steps`, function () {
      this.timeout(120_000);
      const r = replayBox2dTrace(registry, file.env_id, trace);
      assert.equal(r.failure, undefined);
      assert.equal(r.steps, trace.steps.length);
    });

    it(`${trace.name}: frames match the recorded pygame frames within ${PIXEL_TOL} per channel`, function () {
      this.timeout(120_000);
      const env = new CarRacingEnv({ continuous: true, domainRandomize: false, lapCompletePercent: 0.95, draws: new ScriptedDraws(trace.rng_reset) });
      const r0 = env.reset();
      const initial = trace.initial_obs as { b64: string };
      const checks = [{ step: 0, ...compareFrame(r0.observation, initial.b64) }];
      trace.steps.forEach((s, k) => {
        const r = env.step(Float64Array.from(trace.actions[k] as number[]));
        if (s.obs_b64) checks.push({ step: k + 1, ...compareFrame(r.observation, s.obs_b64) });
      });
      assert.ok(checks.length >= 5);
      for (const c of checks) {
        assert.ok(c.max <= PIXEL_TOL && c.far <= 0.01 && c.mean <= MEAN_TOL, `step ${c.step}: max ${c.max}, beyond ${NEAR_TOL}: ${(c.far * 100).toFixed(2)} %, mean ${c.mean.toFixed(3)}`);
      }
    });

    it(`${trace.name}: the track generator rebuilds the recorded track and tiles`, () => {
      const draws = new ScriptedDraws(trace.rng_reset);
      let track = null;
      while (!track) track = createTrack(draws, [102, 102, 102]);
      assert.equal(draws.remaining, 0);
      const rec = trace.world['track'] as number[][];
      assert.equal(track.points.length, rec.length);
      rec.forEach((p, i) => p.forEach((v, k) => assert.ok(Math.abs(v - (track.points[i] as number[])[k]!) < 1e-9, `point ${i}[${k}]`)));
      assert.equal(track.polygons.length, trace.world['road_poly_count']);
    });
  }
});

describe('CarRacing-v3 environment', () => {
  const registry = createRegistry();

  it('registers continuous and discrete controls and Gymnasium options', () => {
    const c = registry.make('CarRacing-v3').env;
    assert.deepEqual((c.observationSpace.describe() as { shape: number[] }).shape, [96, 96, 3]);
    assert.equal(c.actionSpace.describe().type, 'Box');
    assert.deepEqual(registry.make('CarRacing-v3', { continuous: false }).env.actionSpace.describe(), { type: 'Discrete', n: 5, start: 0 });
    assert.throws(() => registry.make('CarRacing-v3', { lap_complete_percent: 2 }), /lap_complete_percent/);
  });

  it('domain_randomize changes the colours per episode; the default keeps Gymnasium colours', () => {
    // Gymnasium's background green (102, 204, 102, a little darker after the area filter) fills much of every
    // default first frame and (almost surely) none of a randomized one.
    const hasDefaultBackground = (domain_randomize: boolean, seed: number): boolean => {
      const { env } = registry.make('CarRacing-v3', { domain_randomize });
      const o = env.reset({ seed }).observation as Uint8Array;
      let n = 0;
      for (let i = 0; i < o.length; i += 3) if (Math.abs(o[i]! - 101) <= 2 && Math.abs(o[i + 1]! - 203) <= 2 && Math.abs(o[i + 2]! - 101) <= 2) n++;
      return n > 200;
    };
    assert.ok(hasDefaultBackground(false, 1) && hasDefaultBackground(false, 2));
    assert.ok(!hasDefaultBackground(true, 1) && !hasDefaultBackground(true, 2));
  });

  it('discrete gas moves the car forward and collects tiles', () => {
    const { env } = registry.make('CarRacing-v3', { continuous: false });
    env.reset({ seed: 4 });
    let total = 0;
    for (let t = 0; t < 60; t++) total += env.step(3).reward;
    assert.ok(total > 0, `return ${total}`);
    assert.throws(() => env.step(5), /0\.\.4/);
  });

  it('the snapshot holds the car state, not pixels', () => {
    const { env } = registry.make('CarRacing-v3');
    env.reset({ seed: 1 });
    env.step(Float64Array.of(0, 0.5, 0));
    const snap = env.snapshot() as Record<string, unknown>;
    assert.ok(JSON.stringify(snap).length < 20000);
    assert.ok(Array.isArray(snap['polygons']) && (snap['polygons'] as unknown[]).length > 0);
    assert.ok('hull' in snap && 'wheels' in snap);
  });

  it('the pixel-reading starter follows the track', function () {
    this.timeout(120_000);
    const returns = runStarter(registry, 'CarRacing-v3', {}, 1, 0, 300);
    assert.ok((returns[0] as number) > 50, `return over 300 steps ${returns[0]}`);
  });
});

describe('CarRacing-v3 steering directions', () => {
  it("discrete 1 turns like continuous +0.6 (right), 2 like -0.6 (left), as Gymnasium's code does", () => {
    const turn = (continuous: boolean, action: unknown): number => {
      const env = new CarRacingEnv({ continuous, domainRandomize: false, lapCompletePercent: 0.95, skipFrames: true });
      env.reset({ seed: 1 });
      for (let i = 0; i < 20; i++) env.step(continuous ? Float64Array.of(0, 0.2, 0) : 3);
      const a0 = env.bodies().hull.angle;
      for (let i = 0; i < 20; i++) env.step(action as number);
      return env.bodies().hull.angle - a0;
    };
    assert.ok(turn(false, 1) < -0.1 && turn(true, Float64Array.of(0.6, 0, 0)) < -0.1);
    assert.ok(turn(false, 2) > 0.1 && turn(true, Float64Array.of(-0.6, 0, 0)) > 0.1);
  });
});
