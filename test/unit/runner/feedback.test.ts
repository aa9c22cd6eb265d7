import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SubmissionSummary } from '../../../src/protocol/feedback';
import type { RunnerClient } from '../../../src/runner/client';
import { cartPolicy, cleanupTmp, closeSharedExecutor, connect, killSpawnedRunners, makeWorkspace, slowPolicy, spawnRunner, startHost, useTempDataDir, writePolicy } from './helpers';

describe('runner: feedback files', function () {
  this.timeout(60_000);
  let dir: string;
  let client: RunnerClient;

  before(() => useTempDataDir());
  after(async () => {
    killSpawnedRunners();
    await closeSharedExecutor();
    cleanupTmp();
  });

  it('never exposes a half-written submission: a visible submit-NNNN is always complete', async () => {
    // The runner is a separate process here, so the poll below races its writes for real.
    dir = makeWorkspace({ budget: 32 });
    const runner = await spawnRunner(dir);
    client = runner.client;
    writePolicy(dir, cartPolicy(0.5, 'if (o[0]! > 10) console.log("far");'));
    const sub = path.join(dir, 'feedback', 'submit-0001');
    const observations: string[] = [];
    let polling = true;
    // Poll as fast as the event loop allows while the submission runs and is written.
    const poll = (async () => {
      while (polling) {
        if (fs.existsSync(sub)) {
          const summary = JSON.parse(fs.readFileSync(path.join(sub, 'summary.json'), 'utf8')) as SubmissionSummary;
          const missing = [...summary.files.trajectories, ...summary.files.logs].filter((f) => !fs.existsSync(path.join(dir, f)));
          observations.push(missing.length ? `missing ${missing.join(',')}` : 'complete');
        }
        await new Promise((r) => setImmediate(r));
      }
    })();
    const summary = await client.submit({ cases: '0-15' });
    polling = false;
    await poll;
    assert.ok(observations.every((o) => o === 'complete'), observations.find((o) => o !== 'complete'));
    assert.equal(summary.files.trajectories.length, 16);
    const latest = JSON.parse(fs.readFileSync(path.join(dir, 'feedback', 'latest.json'), 'utf8')) as SubmissionSummary;
    assert.deepEqual(latest, summary, 'latest.json is the newest summary');
    const lines = fs.readFileSync(path.join(dir, summary.files.trajectories[0]!), 'utf8').trim().split('\n');
    const header = JSON.parse(lines[0]!) as { caseIndex: number; return: number };
    assert.equal(header.caseIndex, 0);
    assert.equal(lines.length - 1, summary.episodes[0]!.length, 'one line per step after the header');
    assert.deepEqual(fs.readdirSync(path.join(dir, 'feedback')).filter((n) => n.startsWith('.tmp')), []);
    await client.close();
    killSpawnedRunners();
  });

  it('says how each submission changed the policy against its parent', async () => {
    dir = makeWorkspace({ budget: 32 });
    const host = await startHost(dir, { analysis: true });
    client = await connect(host);
    try {
      writePolicy(dir, cartPolicy(0.5));
      const first = await client.submit({ cases: '0-1' });
      writePolicy(dir, cartPolicy(0.7));
      const tuned = await client.submit({ cases: '0-1' });
      const again = await client.submit({ cases: '2-3' });
      writePolicy(dir, cartPolicy(0.7, 'if (o[0]! > 1) return 0;'));
      const branched = await client.submit({ cases: '0-1' });
      assert.deepEqual([first, tuned, again, branched].map((s) => [s.edit?.class, s.edit?.parent]), [['initial', null], ['parametric', 1], ['identical', 2], ['structural', 3]]);
      assert.deepEqual(tuned.edit?.details, ['Policy.act: 0.500 → 0.700 (policy.ts:5)']);
      assert.deepEqual((await client.feedback(2)).edit, tuned.edit, 'as written into summary.json');
    } finally {
      await client.close();
      await host.close();
    }
  });

  it('evicts the oldest trajectories past the byte cap, never summaries or the newest', async () => {
    dir = makeWorkspace({ budget: 32, feedbackMaxBytes: 150_000 });
    const host = await startHost(dir);
    client = await connect(host);
    writePolicy(dir, cartPolicy(0.5));
    const subs: SubmissionSummary[] = [];
    for (let i = 0; i < 4; i++) subs.push(await client.submit({ cases: '0-3' }));
    const bytes = (n: number): number => {
      const d = path.join(dir, 'feedback', `submit-000${n}`, 'episodes');
      return fs.existsSync(d) ? fs.readdirSync(d).reduce((a, f) => a + fs.statSync(path.join(d, f)).size, 0) : 0;
    };
    assert.ok(bytes(4) > 0, 'the newest submission keeps its trajectories');
    assert.ok(bytes(4) > 150_000 / 4, 'the test needs submissions big enough to trigger eviction');
    const total = [1, 2, 3, 4].reduce((a, n) => a + bytes(n), 0);
    assert.ok(total <= 150_000 || [1, 2, 3].every((n) => bytes(n) === 0), `bulk total ${total} fits the cap`);
    assert.equal(bytes(1), 0, 'the oldest went first');
    for (const n of [1, 2, 3, 4]) {
      const s = await client.feedback(n);
      assert.equal(s.submission, n, 'every summary survives');
      if (bytes(n) === 0) {
        assert.equal(s.files.evicted, true);
        assert.deepEqual(s.files.trajectories, []);
        assert.equal(s.files.logs.length, 4, 'logs stay');
      }
    }
    await client.close();
    await host.close();
  });

  it('reports progress throttled, only going up, with the final count last and nothing after the charge', async () => {
    dir = makeWorkspace({ budget: 128 });
    const host = await startHost(dir);
    client = await connect(host);
    // Slow enough (~0.7 s a submission) for the throttle to coalesce counts.
    writePolicy(dir, slowPolicy(200));
    const seen: { submission: number | null; done: number; afterCharge: boolean }[] = [];
    const charged = new Set<number>();
    host.run.on('submitted', (s) => charged.add(s.submission));
    host.run.on('progress', (p) => {
      if (p.phase === 'submit') seen.push({ submission: p.submission, done: p.done, afterCharge: p.submission !== null && charged.has(p.submission) });
    });
    try {
      for (let i = 0; i < 2; i++) await client.submit({ episodes: 64 });
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(seen.length > 4, `progress went out while the submissions ran (${seen.length} notifications)`);
      assert.ok(seen.length < 2 * 65, `counts are coalesced (${seen.length} notifications for 128 episodes)`);
      assert.deepEqual(seen.filter((s) => s.afterCharge), [], 'no progress after the submission is charged');
      for (const n of [1, 2]) {
        const counts = seen.filter((s) => s.submission === n).map((s) => s.done);
        assert.equal(counts[0], 0, `submission ${n}: the start goes out at once`);
        assert.deepEqual(counts, [...counts].sort((x, y) => x - y), `submission ${n}: counts only go up`);
        assert.equal(counts[counts.length - 1], 64, `submission ${n}: the last count is the final one`);
      }
    } finally {
      await client.close();
      await host.close();
    }
  });
});
