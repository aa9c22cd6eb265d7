import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRegistry } from '../../../src/envs';
import { replayGoldenFile } from '../../../src/envs/golden';

const dir = path.join(__dirname, '../../fixtures/golden');
const files = fs.readdirSync(dir).filter((f) => f.startsWith('minigrid_') && f.endsWith('.json'));

describe('MiniGrid golden traces (MiniGrid 3.1 recordings)', () => {
  const registry = createRegistry();

  it('ships one golden file per recorded env id', () => {
    assert.equal(files.length, 18);
  });

  for (const file of files) {
    it(`${file} replays exactly (images, rewards, flags, pose, carried object, final grid)`, () => {
      const report = replayGoldenFile(registry, JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
      const failed = report.traces.filter((t) => !t.passed);
      assert.deepEqual(failed, [], `${report.envId}: ${failed.map((f) => `${f.name}: ${f.failure}`).join('; ')}`);
      assert.equal(report.traces.length, 8);
    });
  }

  it('reports the first mismatching step when a trace is tampered with', () => {
    const golden = JSON.parse(fs.readFileSync(path.join(dir, 'minigrid_doorkey_8x8.json'), 'utf8')) as { traces: { steps: { reward: number[] }; actions: number[] }[] };
    const trace = golden.traces[0]!;
    const last = trace.actions.length - 1;
    trace.steps.reward[last] = 0.5;
    const report = replayGoldenFile(registry, { ...golden, traces: [trace] });
    assert.equal(report.traces[0]!.passed, false);
    assert.match(report.traces[0]!.failure ?? '', new RegExp(`^step ${last + 1}: reward expected 0.5`));
  });
});
