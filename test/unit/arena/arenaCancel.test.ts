/**
 * Cancelling an arena submit with the real runner process: through the protocol (`run.cancel`,
 * what VS Code's progress Cancel sends) and with Ctrl-C on the CLI. Either way the submit fails
 * with `cancelled`, nothing is charged, the journal says it was rolled back, and the next submit
 * is submission 1 with the usual charge.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RunClientError } from '../../../src/runner/client';
import { CLI, spawnRunner, writePolicy, useSpawnedRunners } from '../runner/helpers';
import { arenaEvents, makeArenaWorkspace, pinArenaSecret, WEAK_CONNECT_FOUR } from './arenaHelpers';

/** Always column 0, after tens of milliseconds of arithmetic per move: a screen lasts long enough to be cancelled. */
const SLOW_WEAK = WEAK_CONNECT_FOUR.replace('act(_o: Observation): Action {', 'act(_o: Observation): Action { let x = 0; for (let i = 0; i < 10_000_000; i++) x += Math.sqrt(i); if (x < 0) return {};');

function submitFolders(dir: string): string[] {
  return fs.readdirSync(path.join(dir, 'feedback')).filter((n) => n.startsWith('submit-') || n.startsWith('.tmp'));
}

describe('arena runs: a cancelled submit', function () {
  this.timeout(180_000);
  useSpawnedRunners();

  it('run.cancel stops the games: rolled back, nothing charged, the next submit is number 1', async () => {
    const dir = makeArenaWorkspace('ConnectFour-v0', 60);
    pinArenaSecret(dir);
    writePolicy(dir, SLOW_WEAK);
    const r = await spawnRunner(dir);
    assert.deepEqual(await r.client.cancel(), { cancelled: false, submission: null }, 'nothing to cancel yet');
    const ratingsBefore = fs.readFileSync(path.join(dir, 'feedback', 'arena', 'ratings.json'), 'utf8');
    const playing = new Promise<void>((resolve) => r.client.on('arena.progress', (p) => p.phase === 'screen' && resolve()));
    const submit = r.client.request('arena.submit', { note: 'to be cancelled' }).then(
      () => assert.fail('the cancelled submit succeeded'),
      (e: unknown) => e,
    );
    await playing;
    assert.deepEqual(await r.client.cancel(), { cancelled: true, submission: 1 });
    const err = await submit;
    assert.ok(err instanceof RunClientError, String(err));
    assert.equal(err.reason, 'cancelled');
    assert.match(err.message, /submission 1 was cancelled .*nothing was charged/);

    const st = await r.client.request('arena.status', {});
    assert.equal(st.budget.used, 0);
    assert.equal(st.history.length, 0);
    assert.equal(st.running, null);
    assert.deepEqual(submitFolders(dir), []);
    assert.equal(fs.readFileSync(path.join(dir, 'feedback', 'arena', 'ratings.json'), 'utf8'), ratingsBefore, 'no rating moved');
    const events = arenaEvents(dir);
    assert.deepEqual(events.filter((e) => e.submission === 1).map((e) => [e.type, e.reason]), [['arena_submit_started', undefined], ['arena_rolled_back', 'cancelled']]);

    writePolicy(dir, WEAK_CONNECT_FOUR);
    const s = await r.client.request('arena.submit', {});
    assert.equal(s.submission, 1);
    assert.equal(s.budget.used, 12);
    await r.client.close();
    r.child.kill('SIGTERM');
    assert.equal(await r.exited, 0);

    // The journal replays to the same state: one charge, the cancelled start rolled back.
    const again = await spawnRunner(dir);
    const st2 = await again.client.request('arena.status', {});
    assert.equal(st2.budget.used, 12);
    assert.deepEqual(st2.recovery, [], 'a cancelled submit leaves nothing to recover');
    await again.client.close();
    again.child.kill('SIGTERM');
    await again.exited;
  });

  it('Ctrl-C on `policyforge submit` cancels the submit in the runner and charges nothing', async () => {
    const dir = makeArenaWorkspace('ConnectFour-v0', 60);
    pinArenaSecret(dir);
    writePolicy(dir, SLOW_WEAK);
    const r = await spawnRunner(dir);
    const cli = spawn(process.execPath, [CLI, 'submit', '--dir', dir], { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    cli.stdout.on('data', (d: Buffer) => (out += d.toString()));
    cli.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => cli.once('close', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve) => r.client.on('arena.progress', (p) => p.phase === 'screen' && resolve()));
      cli.kill('SIGINT');
      assert.equal(await exited, 1, `${out}\n${err}`);
    } finally {
      if (cli.exitCode === null) cli.kill('SIGKILL');
    }
    assert.match(err, /cancelling the submit/);
    assert.match(err, /policyforge submit: submission 1 was cancelled .*nothing was charged/);
    assert.equal(out, '');
    const st = await r.client.request('arena.status', {});
    assert.equal(st.budget.used, 0);
    assert.equal(st.history.length, 0);
    assert.deepEqual(submitFolders(dir), []);
    await r.client.close();
    r.child.kill('SIGTERM');
    await r.exited;
  });
});
