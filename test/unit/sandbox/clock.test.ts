/**
 * Time inside the policy realm is virtual (see worker/prelude.ts): the same submission on the
 * same case returns the same whatever the machine's load, even when it reads the clock.
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { CLOCK_ORIGIN_MS, CLOCK_TICK_MS } from '../../../src/sandbox/worker/prelude';
import { bundleOf, episodes, strip, usePool } from './helpers';

/** An anytime policy: it searches until 3 ms have passed, and how far it got decides the action. */
const ANYTIME = `export class Policy {
  act(o: Float64Array): number {
    const start = performance.now();
    const startDate = Date.now();
    let rounds = 0;
    let acc = 0;
    while (performance.now() - start < 3) {
      for (let i = 0; i < 200; i++) acc += Math.sqrt(i + rounds);
      rounds++;
    }
    if (new Date().getTime() - startDate > 1000) throw new Error('the clock jumped');
    return (rounds + (o[2]! > 0 ? 1 : 0)) % 2 === 0 || acc < 0 ? 1 : 0;
  }
}`;

describe('sandbox: the virtual clock', function () {
  this.timeout(120_000);
  const pool = usePool({ workers: 2 });

  it('Date, performance.now() and Intl read a clock that starts at the same instant each episode', async () => {
    const bundle = await bundleOf(`export class Policy {
  constructor() {
    const a = Date.now();
    const b = performance.now();
    const c = new Date();
    class Stamp extends Date {}
    console.log(a, b, c.toISOString(), typeof Date(), new Stamp() instanceof Date, new Date(0).getTime(), new Date(2020, 1, 3).getMonth(), Date.UTC(2020, 0, 1), Date.prototype.constructor === Date);
    console.log(new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric' }).format(), performance.timeOrigin);
  }
  act() { return 0; }
}`);
    const records = await pool().runBatch({ bundle, envId: 'CartPole-v1', params: {}, episodes: episodes(3), limits: { maxTrajectorySteps: 0 } });
    const [first] = records;
    assert.equal(first?.status, 'ok');
    const expected = `${CLOCK_ORIGIN_MS} ${2 * CLOCK_TICK_MS} ${new Date(CLOCK_ORIGIN_MS).toISOString()} string true 0 1 ${Date.UTC(2020, 0, 1)} true\n2026 ${CLOCK_ORIGIN_MS}\n`;
    assert.equal(first?.log.text, expected);
    // Every episode starts the clock over, in a reused realm too.
    for (const r of records) assert.equal(r.log.text, expected);
  });

  it('a policy whose actions depend on the clock returns the same on replay under CPU load', async () => {
    const bundle = await bundleOf(ANYTIME);
    const request = { bundle, envId: 'CartPole-v1', params: {}, episodes: episodes(6), limits: { maxTrajectorySteps: 20 } };
    const quiet = await pool().runBatch(request);
    assert.deepEqual(quiet.map((r) => r.status), quiet.map(() => 'ok'));
    // The actions do depend on the clock: different seeds give different returns.
    assert.ok(new Set(quiet.map((r) => r.return)).size > 1);
    const hogs: ChildProcess[] = [];
    try {
      for (let i = 0; i < 3; i++) hogs.push(spawn(process.execPath, ['-e', 'const end = Date.now() + 20000; while (Date.now() < end) {}'], { stdio: 'ignore' }));
      const loaded = await pool().runBatch(request);
      assert.deepEqual(loaded.map(strip), quiet.map(strip));
    } finally {
      for (const h of hogs) h.kill('SIGKILL');
    }
  });
});
