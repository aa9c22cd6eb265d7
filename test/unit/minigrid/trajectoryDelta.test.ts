/**
 * MiniGrid trajectories are stored as the world once plus per-step changes (minigrid-delta/1);
 * the replay and every reader expand them back. Recorded with the sandbox's own recorder on real
 * episodes, the expansion must give exactly the plain steps: what the policy observed, the
 * action, reward, flags and info, and the world snapshot after each step.
 */
import * as assert from 'node:assert/strict';
import { expandTrajectory, parseRecordedTrajectory, type TrajectoryStep } from '../../../src/protocol/episodes';
import { MINIGRID_DELTA_FORMAT } from '../../../src/protocol/minigridTrajectory';
import { record } from './deltaFixture';

/** Ids, and whether they hold objects the policy can move or open (so cell changes get checked). */
const IDS: [string, boolean][] = [
  ['MiniGrid-DoorKey-8x8-v0', true],
  ['MiniGrid-KeyCorridorS3R2-v0', true],
  ['MiniGrid-ObstructedMaze-1Dlhb-v0', true],
  ['MiniGrid-LavaGapS7-v0', false],
  ['MiniGrid-FourRooms-v0', false],
  ['BabyAI-PutNextLocal-v0', true],
  ['BabyAI-UnlockPickup-v0', true],
  ['BabyAI-SynthSeq-v0', true],
];

describe('MiniGrid trajectories as world plus changes', () => {
  for (const [id, movable] of IDS) {
    it(`${id}: expanding the recorded changes gives every plain step exactly`, () => {
      let changedCells = 0;
      for (const seed of [1, 2, 3]) {
        const { plain, compact } = record(id, seed);
        assert.equal(compact.format, MINIGRID_DELTA_FORMAT);
        const expanded = parseRecordedTrajectory(compact);
        assert.equal(expanded.format, undefined);
        assert.deepEqual(expanded.initialSnapshot, plain.initialSnapshot);
        assert.equal(expanded.steps.length, plain.steps.length);
        expanded.steps.forEach((s, i) => assert.deepEqual(s, plain.steps[i], `${id} seed ${seed} step ${i + 1}`));
        changedCells += compact.stepsJsonl.split('\n').filter((l) => l.includes('"cells"')).length;
      }
      if (movable) assert.ok(changedCells > 0, `${id}: the policy changed the world at least once, so cell changes were checked`);
    });
  }

  it('keeps a DoorKey-8x8 episode under a tenth of the plain layout', () => {
    for (const seed of [4, 5]) {
      const { compact, plainBytes } = record('MiniGrid-DoorKey-8x8-v0', seed);
      const compactBytes = compact.stepsJsonl.length + JSON.stringify(compact.initialSnapshot).length;
      assert.ok(compactBytes <= plainBytes / 10, `${compactBytes} bytes against ${plainBytes} plain`);
    }
  });

  it('writes only what changed: flags when true, info when it changes, the pose every step', () => {
    const { compact } = record('BabyAI-PutNextLocal-v0', 7);
    const lines = compact.stepsJsonl.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.ok(lines.every((l) => Array.isArray(l['agent']) && typeof l['reward'] === 'number' && 'action' in l && !('observation' in l) && !('snapshot' in l)));
    assert.ok(lines.every((l) => l['terminated'] !== false && l['truncated'] !== false));
    assert.ok('info' in lines[0]!, 'BabyAI reports its parsed mission on the first step');
    assert.ok(lines.filter((l) => 'info' in l).length < lines.length / 2, 'an unchanged info is not repeated');
  });

  it('refuses a step that does not fit the layout, naming the step', () => {
    const { compact } = record('MiniGrid-DoorKey-8x8-v0', 1, 5);
    const t = parseRecordedTrajectory({ ...compact, format: undefined });
    assert.equal(t.steps.length, 5);
    const lines = compact.stepsJsonl.split('\n').map((l) => JSON.parse(l) as TrajectoryStep);
    (lines[2] as unknown as Record<string, unknown>)['agent'] = 'north';
    assert.throws(() => expandTrajectory({ format: MINIGRID_DELTA_FORMAT, initialSnapshot: compact.initialSnapshot, steps: lines, truncated: false }), /step 3 is not a MiniGrid step \(agent/);
    assert.throws(() => expandTrajectory({ format: 'minigrid-delta/9', steps: [], truncated: false }), /format "minigrid-delta\/9" is not one this version reads/);
  });
});
