/**
 * BipedalWalker trajectories are stored as the ground once plus the pose per step
 * (bipedalwalker-delta/1); every reader expands them back. Recorded with the sandbox's own
 * recorder on real episodes (the starter gait, which walks across the terrain window), the
 * expansion must give exactly the plain steps.
 */
import * as assert from 'node:assert/strict';
import { expandTrajectory, parseRecordedTrajectory, type TrajectoryStep } from '../../../src/protocol/episodes';
import { WALKER_DELTA_FORMAT } from '../../../src/protocol/walkerTrajectory';
import { compactBytes, record } from './deltaFixture';

describe('BipedalWalker trajectories as ground plus poses', () => {
  for (const [id, seeds] of [['BipedalWalker-v3', [1, 2]], ['BipedalWalkerHardcore-v3', [3, 4]]] as const) {
    it(`${id}: expanding the recorded poses gives every plain step exactly`, function () {
      this.timeout(60_000);
      for (const seed of seeds) {
        const { plain, compact } = record(id, seed, 600);
        assert.equal(compact.format, WALKER_DELTA_FORMAT);
        const expanded = parseRecordedTrajectory(compact);
        assert.equal(expanded.format, undefined);
        assert.deepEqual(expanded.initialSnapshot, plain.initialSnapshot);
        assert.equal(expanded.steps.length, plain.steps.length);
        expanded.steps.forEach((s, i) => assert.deepEqual(s, plain.steps[i], `${id} seed ${seed} step ${i + 1}`));
        // The walker moved: the terrain window the snapshots carry changed along the way.
        const windows = new Set(plain.steps.map((s) => JSON.stringify((s.snapshot as { terrain: number[] }).terrain[0])));
        assert.ok(windows.size > 1, `${id} seed ${seed}: the terrain window moved, so the window choice was checked`);
      }
    });
  }

  it('keeps a walking episode under half the plain layout, without terrain in the steps', function () {
    this.timeout(60_000);
    const { compact, plainBytes } = record('BipedalWalker-v3', 5, 400);
    const bytes = compactBytes(compact);
    assert.ok(bytes <= plainBytes * 0.5, `${bytes} bytes against ${plainBytes} plain`);
    const lines = compact.stepsJsonl.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.ok(lines.every((l) => Array.isArray(l['next']) && Array.isArray(l['bodies']) && !('terrain' in l) && !('observation' in l) && !('snapshot' in l)));
  });

  it('refuses a step that does not fit the layout, naming the step', () => {
    const { compact } = record('BipedalWalker-v3', 1, 5);
    const lines = compact.stepsJsonl.split('\n').map((l) => JSON.parse(l) as TrajectoryStep);
    (lines[2] as unknown as Record<string, unknown>)['bodies'] = [[0, 0]];
    assert.throws(() => expandTrajectory({ format: WALKER_DELTA_FORMAT, initialSnapshot: compact.initialSnapshot, steps: lines, truncated: false }), /step 3 is not a BipedalWalker step \(bodies/);
    assert.throws(() => expandTrajectory({ format: WALKER_DELTA_FORMAT, initialSnapshot: { terrainX: [] }, steps: [], truncated: false }), /initialSnapshot is not a BipedalWalker world/);
  });
});
