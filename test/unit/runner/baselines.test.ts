import assert from 'node:assert/strict';
import { readRows } from '../../../src/leaderboard/sources';
import { cartPolicy, connect, makeWorkspace, readEvents, startHost, useInProcessRunners, writePolicy } from './helpers';

describe('runner: baselines in the report', function () {
  this.timeout(60_000);
  useInProcessRunners();

  it('places the starter and the uniform random policy on the same held-out cases, once each', async () => {
    const dir = makeWorkspace({ budget: 4, heldOutCases: 6 });
    const host = await startHost(dir, { assessStarter: true });
    const client = await connect(host);
    try {
      writePolicy(dir, cartPolicy(0.5));
      await client.submit({ cases: '0-3' });
      const report = await client.finish();
      assert.equal(report.heldOut?.count, 6);
      assert.equal(report.starterHeldOut?.count, 6);
      const random = report.baselines?.['uniform-random'];
      assert.ok(random?.heldOut, JSON.stringify(report.baselines));
      assert.equal(random.heldOut.count, 6);
      assert.equal(random.heldOut.okCount, 6, 'its actions are valid');
      assert.ok(random.heldOut.mean < report.heldOut!.mean, 'a balancing policy beats random actions on CartPole');
      assert.equal(readEvents(dir).filter((e) => e.type === 'assessed_baseline').length, 1);
      // The leaderboard reads both baselines from the report.
      assert.deepEqual(readRows(dir, 'mine').map((r) => [r.entry, r.kind]), [
        ['mine', 'agent'],
        ['starter', 'baseline'],
        ['uniform-random', 'baseline'],
      ]);
    } finally {
      await client.close();
      await host.close();
    }
  });
});
