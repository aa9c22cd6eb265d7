/**
 * CarRacing's feedback never stores its frames: a recorded step keeps the action, the reward,
 * the flags and what the replay draws from (the car; with snapshots on, the track once in the
 * header), not the 96×96×3 observation, so a 1000-step episode stays small. Other environments
 * keep theirs.
 */
import { strict as assert } from 'node:assert';
import { createRegistry } from '../../../src/envs';
import { parseRecordedTrajectory, type RecordedTrajectory } from '../../../src/protocol/episodes';
import { TrajectoryRecorder } from '../../../src/sandbox/worker/trajectory';

function record(envId: string, action: () => unknown, steps: number, snapshots: boolean): RecordedTrajectory {
  const { env } = createRegistry().make(envId);
  const recorder = new TrajectoryRecorder(steps, snapshots);
  let { observation } = env.reset({ seed: 3 });
  recorder.initial(env);
  for (let t = 0; t < steps; t++) {
    const seen = recorder.seen(observation);
    const a = action();
    const r = env.step(a);
    if (seen !== undefined) recorder.push(seen, a, r.reward, r.terminated, r.truncated, r.info, () => env.snapshot());
    observation = r.observation;
    if (r.terminated || r.truncated) break;
  }
  return recorder.trajectory;
}

describe('box2d: CarRacing trajectories keep the car, not the frames', function () {
  this.timeout(60_000);
  const gas = (): Float64Array => Float64Array.from([0, 0.3, 0]);

  for (const snapshots of [true, false]) {
    it(`no observation in any step (snapshots ${snapshots ? 'on' : 'off'}), and the steps still parse`, () => {
      const recorded = record('CarRacing-v3', gas, 40, snapshots);
      const t = parseRecordedTrajectory(recorded);
      assert.equal(t.steps.length, 40);
      for (const step of t.steps) {
        assert.equal('observation' in step, false);
        assert.equal(typeof step.reward, 'number');
        assert.equal(step.snapshot !== undefined, snapshots);
      }
      // A frame alone is 27,648 values; a step with its snapshot is a few KB at most.
      assert.ok(recorded.stepsJsonl.length / 40 < 8_000, `${recorded.stepsJsonl.length / 40} bytes per step`);
    });
  }

  it('an environment with small observations keeps them', () => {
    const t = parseRecordedTrajectory(record('LunarLander-v3', () => 0, 5, false));
    assert.ok(t.steps.every((s) => Array.isArray(s.observation) && s.observation.length === 8));
  });
});
