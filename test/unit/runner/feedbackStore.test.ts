import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EpisodeRecord } from '../../../src/protocol/episodes';
import type { SubmissionSummary } from '../../../src/protocol/feedback';
import { FeedbackStore } from '../../../src/runner/feedbackStore';
import { workspacePaths } from '../../../src/runner/paths';
import { SeedDeriver } from '../../../src/runner/secret';
import { canSpy, spyOnFsyncs } from './fsyncSpy';
import { cartPolicy, cleanupTmp, closeSharedExecutor, makeWorkspace, sharedExecutor, useTempDataDir, writePolicy } from './helpers';

describe('runner: feedback store', function () {
  this.timeout(30_000);
  let records: EpisodeRecord[];

  before(async () => {
    useTempDataDir();
    const dir = makeWorkspace();
    writePolicy(dir, cartPolicy(0.5, 'if (o[0]! > 0) console.log("right");'));
    const built = await sharedExecutor().build(dir);
    assert.ok(built.ok);
    const seeds = new SeedDeriver(Buffer.alloc(32, 3));
    // Case 1 twice: its two episodes need files of their own.
    records = await sharedExecutor().runBatch({ bundle: built.bundle, envId: 'CartPole-v1', params: {}, episodes: [0, 1, 2, 1].map((i) => seeds.episode('train', i)) });
  });
  after(async () => {
    await closeSharedExecutor();
    cleanupTmp();
  });

  /** Commits submission 1 of these records (the first `early` added as they would finish) into a fresh workspace. */
  async function commit(early = records.length): Promise<{ dir: string; summary: SubmissionSummary }> {
    const dir = fs.realpathSync(makeWorkspace());
    const store = new FeedbackStore(workspacePaths(dir), { maxBulkBytes: 1e9 });
    const pending = store.begin(1);
    for (const r of [...records.slice(0, early)].reverse()) pending.add(r);
    // Only what the store itself reads of a summary matters here.
    const summary = { submission: 1, episodes: records.map((r) => ({ caseIndex: r.caseIndex })), files: pending.files(records) } as unknown as SubmissionSummary;
    await pending.commit(summary);
    return { dir, summary };
  }

  function assertComplete(dir: string, summary: SubmissionSummary): void {
    // Which run of case 1 gets the `-2` files follows the order the episodes finished in.
    assert.deepEqual([...summary.files.trajectories].sort(), ['case-000', 'case-001-2', 'case-001', 'case-002'].map((s) => `feedback/submit-0001/episodes/${s}.jsonl`));
    records.forEach((r, i) => {
      const lines = fs.readFileSync(path.join(dir, summary.files.trajectories[i]!), 'utf8').trim().split('\n');
      assert.equal(lines.length, r.length + 1, 'a header line and one line per step');
      const header = JSON.parse(lines[0]!) as { caseIndex: number; return: number };
      assert.deepEqual([header.caseIndex, header.return], [r.caseIndex, r.return], 'each episode is listed with its own files');
      assert.equal(path.basename(summary.files.logs[i]!, '.txt'), path.basename(summary.files.trajectories[i]!, '.jsonl'));
      assert.match(fs.readFileSync(path.join(dir, summary.files.logs[i]!), 'utf8'), /right/);
    });
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, 'feedback', 'latest.json'), 'utf8')), summary);
    assert.deepEqual(
      fs.readdirSync(path.join(dir, 'feedback')).filter((n) => n.startsWith('.tmp')),
      [],
      'no temp dir is left',
    );
  }

  it('writes every episode, in the order of the summary, whether added as it finished or only at the commit', async () => {
    for (const early of [records.length, 1, 0]) {
      const { dir, summary } = await commit(early);
      assertComplete(dir, summary);
    }
  });

  it('fsyncs every file and folder of a submission before the rename that publishes it, and feedback/ after it', async function () {
    if (!canSpy) this.skip();
    const spy = await spyOnFsyncs();
    let dir: string;
    let summary: SubmissionSummary;
    try {
      ({ dir, summary } = await commit(2));
    } finally {
      spy.restore();
    }
    assertComplete(dir, summary);
    const publish = spy.events.findIndex((e) => e.op === 'rename' && e.to === path.join(dir, 'feedback', 'submit-0001'));
    assert.ok(publish >= 0, 'the temp dir is renamed into place');
    const tmp = (spy.events[publish] as { from: string }).from;
    const syncedBefore = new Set(spy.events.slice(0, publish).flatMap((e) => (e.op === 'fsync' ? [e.path] : [])));
    const published = (fs.readdirSync(path.join(dir, 'feedback', 'submit-0001'), { recursive: true }) as string[]).map((rel) => path.join(tmp, rel));
    assert.equal(published.length, 2 + 2 * records.length + 1, 'two folders, two files per episode, the summary');
    assert.deepEqual(published.filter((p) => !syncedBefore.has(p)), [], 'everything the rename publishes was fsynced before it');
    assert.ok(syncedBefore.has(tmp), 'the temp dir itself, for its entries');
    assert.ok(
      spy.events.slice(publish).some((e) => e.op === 'fsync' && e.path === path.join(dir, 'feedback')),
      'feedback/ is fsynced after the rename, so the rename itself survives',
    );
  });

  it('evicts the oldest trajectories over the cap, saying so in their summary first', async () => {
    const dir = makeWorkspace();
    const bytes = records.reduce((a, r) => a + r.trajectory.stepsJsonl.length, 0);
    const store = new FeedbackStore(workspacePaths(dir), { maxBulkBytes: Math.round(bytes * 1.5) });
    for (const n of [1, 2]) {
      const pending = store.begin(n);
      await pending.commit({ submission: n, episodes: [], files: pending.files(records) } as unknown as SubmissionSummary);
    }
    const first = store.read(1)!;
    assert.equal(first.files.evicted, true);
    assert.deepEqual(first.files.trajectories, []);
    assert.equal(first.files.logs.length, records.length, 'logs stay');
    assert.equal(fs.existsSync(path.join(dir, 'feedback', 'submit-0001', 'episodes')), false);
    assert.equal(store.read(2)!.files.evicted, false, 'never the newest');
  });

  it('a rolled-back submission leaves nothing behind', async () => {
    const dir = makeWorkspace();
    const store = new FeedbackStore(workspacePaths(dir), { maxBulkBytes: 1e9 });
    const pending = store.begin(1);
    for (const r of records) pending.add(r);
    await pending.abandon();
    assert.deepEqual(fs.readdirSync(path.join(dir, 'feedback')).filter((n) => n.startsWith('.tmp') || n.startsWith('submit-')), []);
  });
});
