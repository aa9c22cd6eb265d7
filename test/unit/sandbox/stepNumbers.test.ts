/** Steps are numbered from 1 in every message, as a policy counting its own act() calls would. */
import { strict as assert } from 'node:assert';
import { parseRecordedTrajectory } from '../../../src/protocol/episodes';
import { bundleOf, episodes, usePool } from './helpers';

describe('sandbox: step numbers', function () {
  this.timeout(60_000);
  const pool = usePool({ workers: 1 });

  it("act() threw at step N names the policy's own Nth call, after N-1 recorded steps", async () => {
    const bundle = await bundleOf(`export class Policy {
  private calls = 0;
  act(o: Float64Array): number {
    this.calls++;
    if (this.calls === 5) throw new Error('boom at step ' + this.calls);
    return o[2]! > 0 ? 1 : 0;
  }
}
`);
    const [r] = await pool().runBatch({ bundle, envId: 'CartPole-v1', params: {}, episodes: episodes(1) });
    assert.equal(r?.status, 'exception');
    assert.match(r?.error?.message ?? '', /^act\(\) threw at step 5: Error: boom at step 5$/m);
    assert.equal(r?.length, 4, 'four steps finished before the fifth act() threw');
    assert.equal(parseRecordedTrajectory(r!.trajectory).steps.length, 4);
  });

  it('an invalid action names its step the same way', async () => {
    const bundle = await bundleOf(`export class Policy {
  private calls = 0;
  act(): number {
    return ++this.calls === 3 ? 7 : 0;
  }
}
`);
    const [r] = await pool().runBatch({ bundle, envId: 'CartPole-v1', params: {}, episodes: episodes(1) });
    assert.equal(r?.status, 'invalid_action');
    assert.match(r?.error?.message ?? '', /^step 3: /);
    assert.equal(r?.length, 2);
  });
});
