/**
 * Ctrl-C on a single-agent `policyforge submit`, with the real runner process and the real CLI:
 * the first asks the runner to cancel (rolled back, nothing charged, exit 1), a second leaves at
 * once. Whichever cases the episodes fail does not matter here, so no secret is pinned.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, makeWorkspace, readEvents, slowPolicy, spawnRunner, writePolicy, type Runner, useSpawnedRunners } from '../runner/helpers';
import { pf } from './cliHelpers';

interface Cli {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];

function cliSubmit(dir: string, ...args: string[]): Cli {
  const child = spawn(process.execPath, [CLI, 'submit', '--dir', dir, ...args], { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
}

/** Resolves once the runner has started the batch: from then on `run.cancel` reaches it. */
function submitPlaying(r: Runner): Promise<void> {
  return new Promise<void>((resolve) => r.client.on('run.progress', (p) => p.phase === 'submit' && resolve()));
}

function submitFolders(dir: string): string[] {
  return fs.readdirSync(path.join(dir, 'feedback')).filter((n) => n.startsWith('submit-') || n.startsWith('.tmp'));
}

describe('policyforge submit: Ctrl-C', function () {
  this.timeout(180_000);
  after(() => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
  useSpawnedRunners();

  it('cancels the submit in the runner: rolled back, nothing charged, exit 1', async () => {
    const dir = makeWorkspace();
    writePolicy(dir, slowPolicy());
    const r = await spawnRunner(dir);
    const before = (pf(dir, 'status', '--json').json().status as { budget: { used: number; remaining: number } }).budget;
    const playing = submitPlaying(r);
    const cli = cliSubmit(dir, '--cases', '0-5', '--note', 'to be interrupted');
    await playing;
    cli.child.kill('SIGINT');
    assert.equal(await cli.exited, 1, `${cli.out()}\n${cli.err()}`);
    assert.match(cli.err(), /cancelling the submit \(Ctrl-C again to leave without waiting\)/);
    assert.match(cli.err(), /policyforge submit: submission 1 was cancelled .*nothing was charged/);
    assert.equal(cli.out(), '', 'no feedback is printed for a cancelled submit');

    const st = pf(dir, 'status', '--json');
    assert.equal(st.code, 0, st.err);
    const status = st.json().status as { budget: { used: number; remaining: number }; history: unknown[] };
    assert.deepEqual(status.budget, { ...status.budget, used: before.used, remaining: before.remaining }, 'the budget is unchanged');
    assert.equal(before.used, 0);
    assert.deepEqual(status.history, []);
    assert.deepEqual(submitFolders(dir), [], 'no feedback folder for the cancelled submission');
    assert.deepEqual(
      readEvents(dir).filter((e) => e.submission === 1).map((e) => [e.type, e.why]),
      [['submit_started', undefined], ['submit_rolled_back', 'cancelled']],
    );
    await r.client.close();
    r.child.kill('SIGTERM');
    await r.exited;
  });

  it('a second Ctrl-C leaves at once with 130, without waiting for the runner', async () => {
    const dir = makeWorkspace();
    writePolicy(dir, slowPolicy());
    const r = await spawnRunner(dir);
    const playing = submitPlaying(r);
    const cli = cliSubmit(dir, '--cases', '0-5');
    await playing;
    // A runner that cannot answer: the first Ctrl-C's cancel stays unconfirmed, so only the second
    // can end the CLI, whatever the machine's speed.
    r.child.kill('SIGSTOP');
    try {
      cli.child.kill('SIGINT');
      // The second only once the first was handled, as a person pressing twice would.
      for (let i = 0; i < 1200 && !/cancelling the submit/.test(cli.err()); i++) await new Promise((res) => setTimeout(res, 50));
      assert.match(cli.err(), /cancelling the submit/);
      cli.child.kill('SIGINT');
      assert.equal(await cli.exited, 130, `${cli.out()}\n${cli.err()}`);
      assert.equal(cli.out(), '');
    } finally {
      r.child.kill('SIGCONT');
    }
    await r.client.close();
    r.child.kill('SIGTERM');
    await r.exited;
  });
});
