/**
 * LunarLander trajectories are stored as the moon once plus the body poses per step
 * (lunarlander-delta/1); every reader expands them back. Recorded with the sandbox's own recorder
 * on real episodes (the starter policy, which lands), the expansion must give exactly the plain
 * steps.
 */
import * as assert from 'node:assert/strict';
import { expandTrajectory, parseRecordedTrajectory, type TrajectoryStep } from '../../../src/protocol/episodes';
import { LANDER_DELTA_FORMAT } from '../../../src/protocol/landerTrajectory';
import { compactBytes, record } from './deltaFixture';

const CASES: [string, Record<string, unknown>][] = [
  ['LunarLander-v3', {}],
  ['LunarLanderContinuous-v3', {}],
  ['LunarLander-v3', { enable_wind: true }],
];

describe('LunarLander trajectories as moon plus poses', () => {
  for (const [id, params] of CASES) {
    it(`${id} ${JSON.stringify(params)}: expanding the recorded poses gives every plain step exactly`, function () {
      this.timeout(60_000);
      let contacts = 0;
      for (const seed of [1, 2, 3]) {
        const { plain, compact } = record(id, seed, 5000, params);
        assert.equal(compact.format, LANDER_DELTA_FORMAT);
        const expanded = parseRecordedTrajectory(compact);
        assert.equal(expanded.format, undefined);
        assert.deepEqual(expanded.initialSnapshot, plain.initialSnapshot);
        assert.equal(expanded.steps.length, plain.steps.length);
        expanded.steps.forEach((s, i) => assert.deepEqual(s, plain.steps[i], `${id} seed ${seed} step ${i + 1}`));
        contacts += plain.steps.filter((s) => (s.snapshot as { groundContact: boolean[] }).groundContact.some((c) => c)).length;
      }
      assert.ok(contacts > 0, 'the lander touched down, so contacts were checked');
    });
  }

  it('keeps an episode under half the plain layout, without the moon in the steps', () => {
    const { compact, plainBytes } = record('LunarLander-v3', 5);
    const bytes = compactBytes(compact);
    assert.ok(bytes <= plainBytes * 0.5, `${bytes} bytes against ${plainBytes} plain`);
    const lines = compact.stepsJsonl.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.ok(lines.every((l) => Array.isArray(l['next']) && Array.isArray(l['bodies']) && !('world' in l) && !('observation' in l) && !('snapshot' in l)));
  });

  it('refuses a step that does not fit the layout, naming the step', () => {
    const { compact } = record('LunarLander-v3', 1, 5);
    const lines = compact.stepsJsonl.split('\n').map((l) => JSON.parse(l) as TrajectoryStep);
    (lines[1] as unknown as Record<string, unknown>)['enginePower'] = 'full';
    assert.throws(() => expandTrajectory({ format: LANDER_DELTA_FORMAT, initialSnapshot: compact.initialSnapshot, steps: lines, truncated: false }), /step 2 is not a LunarLander step \(enginePower/);
    assert.throws(() => expandTrajectory({ format: LANDER_DELTA_FORMAT, initialSnapshot: {}, steps: [], truncated: false }), /initialSnapshot is not a LunarLander world/);
  });
});
