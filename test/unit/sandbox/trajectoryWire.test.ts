/** The IPC form of trajectories gives back exactly the steps the worker recorded. */
import { strict as assert } from 'node:assert';
import type { Trajectory } from '../../../src/protocol/episodes';
import { packTrajectory, unpackTrajectory } from '../../../src/sandbox/worker/trajectoryWire';

describe('sandbox: trajectory wire format', () => {
  const roundTrip = (t: Trajectory): Trajectory => unpackTrajectory(JSON.parse(JSON.stringify(packTrajectory(t))) as ReturnType<typeof packTrajectory>);

  it('keeps numeric observations and rewards bit for bit', () => {
    const t: Trajectory = {
      initialSnapshot: { x: 0.1 },
      truncated: true,
      steps: [
        { observation: [Math.fround(0.1), -1e-300, 5e-324, 1 / 3], action: 1, reward: 0.1 + 0.2, terminated: false, truncated: false, snapshot: { x: 1 } },
        { observation: [1, 2, 3, 4], action: [0.5], reward: -1, terminated: true, truncated: true, info: { lives: 2 } },
      ],
    };
    assert.deepEqual(roundTrip(t), t);
  });

  it('falls back to JSON for other observations', () => {
    const t: Trajectory = {
      truncated: false,
      steps: [
        { observation: { image: [1, 2, 3], direction: 0, mission: 'go' }, action: 2, reward: 0, terminated: false, truncated: false },
        { observation: { image: [4, 5, 6], direction: 1, mission: 'go' }, action: 0, reward: 0.9, terminated: true, truncated: false },
      ],
    };
    assert.deepEqual(roundTrip(t), t);
    const mixed: Trajectory = { truncated: false, steps: [{ observation: [1, 2], action: 0, reward: 0, terminated: false, truncated: false }, { observation: [1, 'NaN'], action: 0, reward: 0, terminated: false, truncated: false }] };
    assert.deepEqual(roundTrip(mixed), mixed);
    assert.deepEqual(roundTrip({ truncated: true, steps: [] }), { truncated: true, steps: [] });
  });
});
