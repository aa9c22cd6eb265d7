import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRegistry } from '../../../src/envs';
import { connectOrStart } from '../../../src/runner/launch';
import { Run } from '../../../src/runner/run';
import { processAlive, readRunnerFile } from '../../../src/runner/runnerFile';
import { canSpy, spyOnFsyncs, type FsEvent } from './fsyncSpy';
import { cartPolicy, closeSharedExecutor, makeWorkspace, readEvents, RUNNER_ENTRY, sharedExecutor, slowPolicy, spawnRunner, waitFor, writePolicy, type Runner, INTERRUPTIBLE_ITERATIONS, useSpawnedRunners } from './helpers';

async function kill9(r: Runner): Promise<void> {
  r.child.kill('SIGKILL');
  await r.exited;
}

describe('runner: durability across kill -9', function () {
  this.timeout(90_000);
  after(() => closeSharedExecutor());
  useSpawnedRunners();

  it('rolls back a submit interrupted mid-episodes: nothing charged, reported, the run goes on', async () => {
    const dir = makeWorkspace({ budget: 12 });
    writePolicy(dir, slowPolicy(INTERRUPTIBLE_ITERATIONS));
    const r1 = await spawnRunner(dir);
    const progressed = new Promise<void>((resolve) => r1.client.on('run.progress', (p) => p.done >= 1 && resolve()));
    const submit = r1.client.submit({ cases: '0-7' }).catch((e: unknown) => e);
    await progressed;
    await kill9(r1);
    assert.match(String(await submit), /closed the connection/);
    assert.ok(readEvents(dir).some((e) => e.type === 'submit_started'));

    const r2 = await spawnRunner(dir);
    const st = await r2.client.status();
    assert.equal(st.budget.used, 0, 'an interrupted submit is not charged');
    assert.equal(st.submissions, 0);
    assert.ok(st.recovery.some((n) => /submission 1 .*rolled back/.test(n)), st.recovery.join('; '));
    const fb = fs.readdirSync(path.join(dir, 'feedback'));
    assert.deepEqual(fb.filter((n) => n.startsWith('submit-') || n.startsWith('.tmp')), [], 'no half-written feedback remains');
    assert.ok(readEvents(dir).some((e) => e.type === 'submit_rolled_back' && e.submission === 1));
    writePolicy(dir, cartPolicy(0.5));
    const s = await r2.client.submit({ cases: '0-3' });
    assert.equal(s.submission, 1);
    assert.equal(s.budget.used, 4);
    await r2.client.close();
    r2.child.kill('SIGTERM');
    assert.equal(await r2.exited, 0);
    assert.equal(readRunnerFile(dir), undefined, 'a clean stop removes runner.json');
  });

  it('completes a submit whose feedback was on disk when the runner died before journaling it', async () => {
    const dir = makeWorkspace({ budget: 12 });
    writePolicy(dir, cartPolicy(0.5));
    const r1 = await spawnRunner(dir);
    await r1.client.submit({ cases: '0-3' });
    await kill9(r1);
    // Simulate the crash window between the feedback rename and the journal line.
    const events = path.join(dir, '.policyforge', 'events.jsonl');
    const lines = fs.readFileSync(events, 'utf8').split('\n').filter(Boolean);
    const kept = lines.filter((l) => !l.includes('"type":"submitted"'));
    assert.equal(kept.length, lines.length - 1);
    fs.writeFileSync(events, `${kept.join('\n')}\n{"seq":99,"torn`);

    const r2 = await spawnRunner(dir);
    const st = await r2.client.status();
    assert.equal(st.budget.used, 4);
    assert.equal(st.submissions, 1);
    assert.ok(st.recovery.some((n) => /completed on restart/.test(n)));
    assert.equal((await r2.client.feedback()).submission, 1);
    await r2.client.close();
    await kill9(r2);
  });

  it('resumes validation and assessment interrupted by kill -9 and writes the report once', async () => {
    const dir = makeWorkspace({ budget: 2, validationCases: 4, heldOutCases: 4 });
    // A fifth of the interruptible cost: validation still lasts long enough to be killed in, and
    // the resumed validation and assessment stay short.
    writePolicy(dir, slowPolicy(INTERRUPTIBLE_ITERATIONS / 5));
    const r1 = await spawnRunner(dir);
    await r1.client.submit({ cases: '0-1' });
    // The budget reached 0: the run validates by itself.
    await waitFor('validation to start', () => readEvents(dir).some((e) => e.type === 'finished'));
    await new Promise<void>((resolve) => r1.client.on('run.progress', (p) => p.phase === 'validation' && resolve()));
    await kill9(r1);
    assert.ok(!fs.existsSync(path.join(dir, '.policyforge', 'report.json')));

    const r2 = await spawnRunner(dir);
    const report = await r2.client.finish();
    assert.equal(report.selected, 1);
    assert.equal(report.heldOut?.count, 4);
    assert.equal(report.budget.used, 2, 'validation and assessment are never charged');
    const ev = readEvents(dir);
    assert.equal(ev.filter((e) => e.type === 'finished').length, 1);
    assert.equal(ev.filter((e) => e.type === 'completed').length, 1);
    assert.ok(fs.existsSync(path.join(dir, '.policyforge', 'report.json')));
    assert.deepEqual(
      fs.readdirSync(path.join(dir, 'feedback')).filter((n) => n.startsWith('submit-')),
      ['submit-0001'],
      'validation and held-out episodes never appear in feedback/',
    );
    await r2.client.close();
    await kill9(r2);
  });

  it('a machine crash cannot take back a charge: checkpoint and feedback are fsynced before the charge, the charge before the reply', async function () {
    if (!canSpy) this.skip();
    const dir = fs.realpathSync(makeWorkspace({ budget: 12 }));
    writePolicy(dir, cartPolicy(0.5, 'console.log("x", o[0]);'));
    const run = Run.open(dir, { executor: sharedExecutor(), registry: createRegistry(), assessStarter: false, log: () => undefined });
    const spy = await spyOnFsyncs();
    try {
      await run.submit({ cases: '0-5' });
    } finally {
      spy.restore();
      await run.close();
    }
    const ev = spy.events;
    const events = path.join(dir, '.policyforge', 'events.jsonl');
    const at = (what: string, match: (e: FsEvent) => boolean): number => {
      const i = ev.findIndex(match);
      assert.ok(i >= 0, `${what} happened`);
      return i;
    };
    const charge = at('the charge', (e) => e.op === 'write' && e.path === events && e.text.includes('"type":"submitted"'));
    const feedbackPublished = at('the feedback rename', (e) => e.op === 'rename' && e.to === path.join(dir, 'feedback', 'submit-0001'));
    const checkpointPublished = at('the checkpoint rename', (e) => e.op === 'rename' && path.dirname(e.to) === path.join(dir, '.policyforge', 'checkpoints'));
    const syncedAfter = (from: number, p: string): number => ev.findIndex((e, i) => i > from && e.op === 'fsync' && e.path === p);
    const feedbackDurable = syncedAfter(feedbackPublished, path.join(dir, 'feedback'));
    const checkpointDurable = syncedAfter(checkpointPublished, path.join(dir, '.policyforge', 'checkpoints'));
    assert.ok(feedbackDurable > 0 && feedbackDurable < charge, 'feedback/ is fsynced after its rename and before the charge');
    assert.ok(checkpointDurable > 0 && checkpointDurable < charge, 'the checkpoint folder is fsynced after its rename and before the charge');
    assert.ok(syncedAfter(charge, events) > charge, 'the charge itself is fsynced before submit returns');
    // What the renames published was fsynced before them (feedbackStore.test.ts checks each file).
    const tmp = (ev[feedbackPublished] as { from: string }).from;
    assert.ok(ev.slice(0, feedbackPublished).some((e) => e.op === 'fsync' && e.path === path.join(tmp, 'summary.json')));
    const started = at('submit_started', (e) => e.op === 'write' && e.path === events && e.text.includes('"type":"submit_started"'));
    assert.ok(syncedAfter(started, events) < feedbackPublished, 'submit_started is durable before any feedback is published, so recovery knows of it');
  });

  it('serves a workspace with one runner: a second runner process is refused, concurrent clients share one', async () => {
    const dir = makeWorkspace({ budget: 8 });
    const r1 = await spawnRunner(dir);
    await assert.rejects(spawnRunner(dir), /runner exited 3: .*already serves this workspace/);
    await r1.client.close();
    await kill9(r1);
    // The dead runner left runner.json and its lock behind; two clients now race to start one.
    const [a, b] = await Promise.all([connectOrStart(dir), connectOrStart(dir)]);
    const [ia, ib] = await Promise.all([a.info(), b.info()]);
    assert.equal(ia.runId, ib.runId);
    const f = readRunnerFile(dir)!;
    assert.notEqual(f.pid, r1.child.pid);
    await a.close();
    await b.close();
    process.kill(f.pid, 'SIGTERM');
    await waitFor('the detached runner to stop', () => !processAlive(f.pid));
  });

  it('a runner started with --idle-exit-ms stops by itself once no client is connected', async () => {
    const dir = makeWorkspace({ budget: 4 });
    const r = await spawnRunner(dir, ['--idle-exit-ms', '300']);
    await new Promise((res) => setTimeout(res, 900));
    assert.equal(r.child.exitCode, null, 'a connected client keeps it alive');
    await r.client.close();
    assert.equal(await r.exited, 0);
    assert.equal(readRunnerFile(dir), undefined);
  });

  it('refuses a bad worker count, from --workers or POLICYFORGE_WORKERS, naming where it came from', () => {
    const dir = makeWorkspace({ budget: 4 });
    const flag = spawnSync(process.execPath, [RUNNER_ENTRY, '--workspace', dir, '--workers', '0'], { encoding: 'utf8' });
    assert.equal(flag.status, 2);
    assert.match(flag.stderr, /--workers must be an integer 1-64, got "0"/);
    const env = spawnSync(process.execPath, [RUNNER_ENTRY, '--workspace', dir], { encoding: 'utf8', env: { ...process.env, POLICYFORGE_WORKERS: 'many' } });
    assert.equal(env.status, 2);
    assert.match(env.stderr, /POLICYFORGE_WORKERS must be an integer 1-64, got "many"/);
    assert.equal(readRunnerFile(dir), undefined, 'nothing served, nothing written');
  });
});
