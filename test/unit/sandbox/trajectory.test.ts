/**
 * The trajectory lines a worker writes are the feedback file's format: each must be exactly what
 * JSON.stringify gives for the step (observation and action as plain JSON), whatever the values,
 * since the runner writes them to disk as they come and the panels and agents parse them.
 */
import { strict as assert } from 'node:assert';
import type { Info } from '../../../src/envs/core/env';
import { parseRecordedTrajectory } from '../../../src/protocol/episodes';
import { toJson } from '../../../src/sandbox/worker/observationCopy';
import { jsonText, TrajectoryRecorder } from '../../../src/sandbox/worker/trajectory';

type Step = [observation: unknown, action: unknown, reward: number, info: Info, snapshot: unknown];

const STEPS: Step[] = [
  [new Float64Array([0.1, -0, 1e21, 5e-324, NaN, Infinity, -Infinity, Math.fround(0.3)]), 1, 1, {}, { x: 1, theta: [0.5] }],
  [{ image: new Uint8Array([1, 2, 3]), direction: 2, mission: 'get "the" key\n' }, 3, 0.5, { note: 'a', n: NaN }, undefined],
  [new Float64Array([1]), new Float64Array([-2.5, NaN]), NaN, {}, { y: Infinity }],
  [7, 0, -Infinity, {}, null],
];

describe('sandbox: recorded trajectory lines', () => {
  it('are JSON.stringify of the step with its values as plain JSON, for every kind of value', () => {
    for (const [observation, action, reward, info, snapshot] of STEPS) {
      const recorder = new TrajectoryRecorder(10, snapshot !== undefined);
      recorder.push(jsonText(observation), action, reward, false, true, info, () => snapshot);
      const step: Record<string, unknown> = { observation: toJson(observation), action: toJson(action), reward, terminated: false, truncated: true };
      if (Object.keys(info).length > 0) step['info'] = toJson(info);
      if (snapshot !== undefined) step['snapshot'] = toJson(snapshot);
      assert.equal(recorder.trajectory.stepsJsonl, JSON.stringify(step));
    }
  });

  it('keeps steps up to the cap, then only marks the trajectory truncated', () => {
    const recorder = new TrajectoryRecorder(2, false);
    for (let i = 0; i < 3; i++) {
      if (recorder.recording) recorder.push(jsonText(new Float64Array([i])), i % 2, 1, false, false, {}, () => undefined);
      else recorder.skip();
    }
    const t = recorder.trajectory;
    assert.equal(t.stepCount, 2);
    assert.equal(t.truncated, true);
    assert.deepEqual(parseRecordedTrajectory(t).steps.map((s) => [s.observation, s.action]), [[[0], 0], [[1], 1]]);
  });
});
