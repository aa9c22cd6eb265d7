/** An arena submit interrupted by kill -9 of the real runner process: rolled back, never charged twice. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnRunner, writePolicy, useSpawnedRunners } from '../runner/helpers';
import { arenaEvents, makeArenaWorkspace, pinArenaSecret, WEAK_CONNECT_FOUR } from './arenaHelpers';

/** Always column 0 (loses fast), after burning CPU in every act so the submit can be interrupted. */
const SLOW_WEAK = WEAK_CONNECT_FOUR.replace('act(_o: Observation): Action {', 'act(_o: Observation): Action { let x = 0; for (let i = 0; i < 400_000; i++) x += Math.sqrt(i); if (x < 0) return {};');

describe('arena runs: kill -9 mid-submit', function () {
  this.timeout(120_000);
  useSpawnedRunners();

  it('rolls the submission back on restart and charges the next one once', async () => {
    const dir = makeArenaWorkspace('ConnectFour-v0', 60);
    pinArenaSecret(dir);
    writePolicy(dir, SLOW_WEAK);
    const r1 = await spawnRunner(dir);
    const progressed = new Promise<void>((resolve) => r1.client.on('arena.progress', (p) => p.done >= 1 && resolve()));
    const submit = r1.client.request('arena.submit', {}).catch((e: unknown) => e);
    await progressed;
    r1.child.kill('SIGKILL');
    await r1.exited;
    assert.match(String(await submit), /closed the connection/);
    assert.ok(arenaEvents(dir).some((e) => e.type === 'arena_submit_started'));
    assert.ok(!arenaEvents(dir).some((e) => e.type === 'arena_charged'));

    const r2 = await spawnRunner(dir);
    const st = await r2.client.request('arena.status', {});
    assert.equal(st.budget.used, 0, 'the interrupted submit is not charged');
    assert.equal(st.history.length, 0);
    assert.ok(st.recovery.some((n) => /submission 1 .*rolled back/.test(n)), st.recovery.join('; '));
    assert.deepEqual(fs.readdirSync(path.join(dir, 'feedback')).filter((n) => n.startsWith('submit-') || n.startsWith('.tmp')), []);
    writePolicy(dir, WEAK_CONNECT_FOUR);
    const s = await r2.client.request('arena.submit', {});
    assert.equal(s.submission, 1);
    assert.equal(s.budget.used, 12);
    await r2.client.close();
    r2.child.kill('SIGTERM');
    assert.equal(await r2.exited, 0);

    // A third start replays the journal: the same charge, once.
    const r3 = await spawnRunner(dir);
    assert.equal((await r3.client.request('arena.status', {})).budget.used, 12);
    assert.equal(arenaEvents(dir).filter((e) => e.type === 'arena_charged').length, 1);
    await r3.client.close();
    r3.child.kill('SIGTERM');
    await r3.exited;
  });
});
