import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRegistry } from '../../../src/envs';
import { replayGoldenFile } from '../../../src/envs/golden';

const dir = path.join(__dirname, '../../fixtures/golden');
const load = (file: string): { env_id: string; traces: Record<string, unknown>[] } => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));

/** Golden file → the number of traces it holds. */
const FILES: Record<string, number> = {
  'highway_highway_fast.json': 3,
  'highway_merge.json': 3,
  'highway_roundabout.json': 4,
  'highway_parking.json': 4,
  'highway_intersection.json': 3,
};

describe('HighwayEnv golden traces (HighwayEnv 1.12.1 recordings)', () => {
  const registry = createRegistry();

  for (const [file, count] of Object.entries(FILES)) {
    it(`${file}: reset from the recorded draws rebuilds the recorded scene, and every step replays to 1e-9 with exact flags`, () => {
      const report = replayGoldenFile(registry, load(file));
      const failed = report.traces.filter((t) => !t.passed);
      assert.deepEqual(failed, [], `${report.envId}: ${failed.map((f) => `${f.name}: ${f.failure}`).join('; ')}`);
      assert.equal(report.traces.length, count);
    });
  }

  it('reports the first mismatching step when a trace is tampered with', () => {
    const golden = load('highway_highway_fast.json');
    const trace = golden.traces[0] as { steps: { reward: number }[] };
    trace.steps[2]!.reward += 1e-6;
    const report = replayGoldenFile(registry, { ...golden, traces: [trace] });
    assert.equal(report.traces[0]!.passed, false);
    assert.match(report.traces[0]!.failure ?? '', /^step 3: reward: expected/);
  });

  it('reports a reset that draws differently from the recording', () => {
    const golden = load('highway_merge.json');
    const trace = golden.traces[0] as { rng_reset: { m: string }[] };
    trace.rng_reset[0]!.m = 'uniform';
    const report = replayGoldenFile(registry, { ...golden, traces: [trace] });
    assert.equal(report.traces[0]!.passed, false);
    assert.match(report.traces[0]!.failure ?? '', /draw #1: made integers, recorded uniform/);
  });

  it('reports a step that makes fewer draws than recorded', () => {
    const golden = load('highway_intersection.json');
    const trace = golden.traces[0] as { steps: { rng: unknown[] }[] };
    trace.steps[2]!.rng.push({ m: 'uniform', args: [], result: 0.5 });
    const report = replayGoldenFile(registry, { ...golden, traces: [trace] });
    assert.match(report.traces[0]!.failure ?? '', /^step 3: 1 recorded draws were not made/);
  });

  it('reports a vehicle state that drifts', () => {
    const golden = load('highway_highway_fast.json');
    const trace = golden.traces[1] as { steps: { state: { vehicles: { position: number[] }[] } }[] };
    trace.steps[0]!.state.vehicles[3]!.position[0]! += 1e-3;
    const report = replayGoldenFile(registry, { ...golden, traces: [trace] });
    assert.match(report.traces[0]!.failure ?? '', /^step 1: state\.vehicles\[3\]\.position\[0\]/);
  });
});
