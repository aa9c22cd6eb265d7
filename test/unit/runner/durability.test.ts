import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRegistry } from '../../../src/envs';
import { parseTrajectory } from '../../../src/extension/panels/runFiles';
import { connectOrStart } from '../../../src/runner/launch';
import { Run } from '../../../src/runner/run';
import { processAlive, readRunnerFile } from '../../../src/runner/runnerFile';
import { cartPolicy, cleanupTmp, closeSharedExecutor, killSpawnedRunners, makeWorkspace, readEvents, RUNNER_ENTRY, sharedExecutor, slowPolicy, spawnRunner, tmpDir, useTempDataDir, waitFor, writePolicy, type Runner } from './helpers';

async function kill9(r: Runner): Promise<void> {
  r.child.kill('SIGKILL');
  await r.exited;
}

describe('runner: durability across kill -9', function () {
  this.timeout(90_000);
  before(() => {
    assert.ok(fs.existsSync(RUNNER_ENTRY), 'dist/runnerProcess.js is built (npm run build)');
    useTempDataDir();
  });
  after(async () => {
    // Never leave a runner behind, even when a test failed half-way.
    killSpawnedRunners();
    await closeSharedExecutor();
    cleanupTmp();
  });

  it('rolls back a submit interrupted mid-episodes: nothing charged, reported, the run goes on', async () => {
    const dir = makeWorkspace({ budget: 12 });
    writePolicy(dir, slowPolicy(6_000));
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
    writePolicy(dir, slowPolicy(3_000));
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

  describe('a machine crash before the background fsync of trajectories and logs', () => {
    /** Every file under feedback/, by relative path. */
    const feedbackFiles = (dir: string): Map<string, Buffer> =>
      new Map(
        (fs.readdirSync(path.join(dir, 'feedback'), { recursive: true }) as string[])
          .filter((f) => fs.statSync(path.join(dir, 'feedback', f)).isFile())
          .map((f) => [f, fs.readFileSync(path.join(dir, 'feedback', f))]),
      );
    const unflushedRecords = (dir: string): string[] => (fs.existsSync(path.join(dir, '.policyforge', 'unflushed')) ? fs.readdirSync(path.join(dir, '.policyforge', 'unflushed')) : []);
    /** Applies `change` to a JSON file in place. */
    const editJson = <T>(file: string, change: (value: T) => void): void => {
      const value = JSON.parse(fs.readFileSync(file, 'utf8')) as T;
      change(value);
      fs.writeFileSync(file, JSON.stringify(value));
    };
    /** Starts a runner process on `dir` and waits until it has journaled its repair. */
    const restartUntilRepaired = async (dir: string): Promise<{ runner: Runner; repaired: Record<string, unknown> }> => {
      const runner = await spawnRunner(dir);
      const repaired = await waitFor('the repair', () => readEvents(dir).find((e) => e.type === 'feedback_repaired'));
      return { runner, repaired };
    };
    let original: string;
    /** Workspaces as the disk held them right after submission 1 was charged, before its bulk fsync. */
    const snapshots: string[] = [];

    before(async () => {
      original = makeWorkspace({ budget: 12 });
      writePolicy(original, cartPolicy(0.5, 'console.log("x", o[0]);'));
      const run = Run.open(original, { executor: sharedExecutor(), registry: createRegistry(), assessStarter: false, log: () => undefined });
      await run.submit({ cases: '0-5' });
      // Synchronously, before the background fsync's first I/O completes: the record is still there.
      assert.deepEqual(unflushedRecords(original), ['submit-0001.json']);
      for (let i = 0; i < 4; i++) {
        const copy = path.join(tmpDir('crash'), 'ws');
        fs.cpSync(original, copy, { recursive: true });
        snapshots.push(copy);
      }
      await run.close();
      assert.deepEqual(unflushedRecords(original), [], 'the record goes once the files are fsynced');
    });

    it('re-runs the cases whose files came back short, uncharged, and restores them byte for byte', async () => {
      const dir = snapshots[0]!;
      const sub = path.join(dir, 'feedback', 'submit-0001');
      // What a lost page cache leaves: files at length 0, cut short, or never created.
      fs.truncateSync(path.join(sub, 'episodes', 'case-001.jsonl'), 0);
      fs.truncateSync(path.join(sub, 'logs', 'case-002.txt'), 10);
      fs.rmSync(path.join(sub, 'episodes', 'case-003.jsonl'));
      const { runner: r, repaired } = await restartUntilRepaired(dir);
      assert.equal(repaired.rerun, 3);
      assert.equal(repaired.lost, 0);
      assert.deepEqual(feedbackFiles(dir), feedbackFiles(original), 'every file as the submit wrote it');
      assert.deepEqual(unflushedRecords(dir), []);
      const st = await r.client.status();
      assert.equal(st.budget.used, 6, 're-runs are not charged');
      assert.ok(st.recovery.some((n) => /submission 1: the files of 3 episode\(s\) were cut short .* re-run \(not charged\)/.test(n)), st.recovery.join('; '));
      assert.ok(st.recovery.some((n) => /submission 1: re-ran the 3 episode\(s\) .*: 3 restored$/.test(n)), st.recovery.join('; '));
      const spares = path.join(dir, '.policyforge', 'spare');
      // Both files of each episode of the largest submission (budget 12), whatever the crash left.
      await waitFor('spare files for the next commit, once the repairs are done', () => fs.existsSync(spares) && fs.readdirSync(spares).length === 24);
      await r.client.close();
      await kill9(r);
    });

    it('marks a file lost, with why, when the re-run does not reproduce its episode', async () => {
      const dir = snapshots[1]!;
      const sub = path.join(dir, 'feedback', 'submit-0001');
      fs.truncateSync(path.join(sub, 'episodes', 'case-000.jsonl'), 0);
      // A re-run that ends differently (as a policy reading the clock would).
      editJson<{ episodes: { return: number }[] }>(path.join(sub, 'summary.json'), (summary) => {
        summary.episodes[0]!.return += 1;
      });
      const { runner: r, repaired } = await restartUntilRepaired(dir);
      assert.equal(repaired.lost, 1);
      const problem = parseTrajectory(fs.readFileSync(path.join(sub, 'episodes', 'case-000.jsonl'), 'utf8'));
      assert.match(String(problem), /lost in a machine crash .* did not reproduce/);
      assert.deepEqual(fs.readFileSync(path.join(sub, 'logs', 'case-000.txt')), feedbackFiles(original).get(path.join('submit-0001', 'logs', 'case-000.txt')), 'the intact log is kept');
      assert.ok((await r.client.status()).recovery.some((n) => /1 did not reproduce and are marked lost/.test(n)));
      await r.client.close();
      await kill9(r);
    });

    it('marks a file lost when the re-run ends the same way but writes other bytes', async () => {
      const dir = snapshots[2]!;
      const sub = path.join(dir, 'feedback', 'submit-0001');
      fs.truncateSync(path.join(sub, 'episodes', 'case-004.jsonl'), 0);
      // As if the steps had differed (a policy reading the clock) while return and length did not.
      editJson<{ trajectoryBytes: number[] }>(path.join(dir, '.policyforge', 'unflushed', 'submit-0001.json'), (record) => {
        record.trajectoryBytes[4]! += 1;
      });
      const { runner: r, repaired } = await restartUntilRepaired(dir);
      assert.equal(repaired.lost, 1);
      assert.match(String(parseTrajectory(fs.readFileSync(path.join(sub, 'episodes', 'case-004.jsonl'), 'utf8'))), /did not reproduce/);
      assert.deepEqual(unflushedRecords(dir), []);
      await r.client.close();
      await kill9(r);
    });

    it('only fsyncs files that came through whole (a killed runner leaves them in the page cache)', async () => {
      const dir = snapshots[3]!;
      const r = await spawnRunner(dir);
      await waitFor('the record to go', () => unflushedRecords(dir).length === 0);
      assert.ok(!readEvents(dir).some((e) => e.type === 'feedback_repaired'), 'nothing re-run');
      assert.deepEqual(feedbackFiles(dir), feedbackFiles(original));
      await r.client.close();
      await kill9(r);
    });
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
