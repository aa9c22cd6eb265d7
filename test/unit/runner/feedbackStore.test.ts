import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EpisodeRecord } from '../../../src/protocol/episodes';
import type { SubmissionSummary } from '../../../src/protocol/feedback';
import { FeedbackStore } from '../../../src/runner/feedbackStore';
import { workspacePaths } from '../../../src/runner/paths';
import { SeedDeriver } from '../../../src/runner/secret';
import { cartPolicy, cleanupTmp, closeSharedExecutor, makeWorkspace, sharedExecutor, useTempDataDir, writePolicy } from './helpers';

describe('runner: feedback store durability modes', function () {
  this.timeout(30_000);
  let records: EpisodeRecord[];

  before(async () => {
    useTempDataDir();
    const dir = makeWorkspace();
    writePolicy(dir, cartPolicy(0.5, 'if (o[0]! > 0) console.log("right");'));
    const built = await sharedExecutor().build(dir);
    assert.ok(built.ok);
    const seeds = new SeedDeriver(Buffer.alloc(32, 3));
    records = await sharedExecutor().runBatch({ bundle: built.bundle, envId: 'CartPole-v1', params: {}, episodes: [0, 1, 2].map((i) => seeds.episode('train', i)) });
  });
  after(async () => {
    await closeSharedExecutor();
    cleanupTmp();
  });

  /** Commits submission 1 of these records into a fresh workspace's store. */
  async function commit(deferBulkFsync: boolean): Promise<{ dir: string; store: FeedbackStore; records: () => string[] }> {
    const dir = makeWorkspace();
    const paths = workspacePaths(dir);
    const store = new FeedbackStore(paths, { maxBulkBytes: 1e9, maxEpisodesPerSubmit: 8, deferBulkFsync });
    const pending = store.begin(1);
    for (const r of records) pending.addEpisode(r);
    // Only what the store itself reads of a summary matters here.
    await pending.commit({ submission: 1, episodes: records.map((r) => ({ caseIndex: r.caseIndex })), files: FeedbackStore.filesFor(1, records) } as unknown as SubmissionSummary);
    return { dir, store, records: () => (fs.existsSync(paths.unflushed) ? fs.readdirSync(paths.unflushed) : []) };
  }

  function assertComplete(dir: string): void {
    for (const r of records) {
      const stem = `case-${String(r.caseIndex).padStart(3, '0')}`;
      const lines = fs.readFileSync(path.join(dir, 'feedback', 'submit-0001', 'episodes', `${stem}.jsonl`), 'utf8').trim().split('\n');
      assert.equal(lines.length, r.length + 1, 'a header line and one line per step');
      assert.equal((JSON.parse(lines[0]!) as { return: number }).return, r.return);
      assert.match(fs.readFileSync(path.join(dir, 'feedback', 'submit-0001', 'logs', `${stem}.txt`), 'utf8'), /right/);
    }
  }

  it('where sizes vouch for unsynced files: records them before the rename, drops the record once the background fsync is done', async () => {
    const { dir, store, records: left } = await commit(true);
    assert.deepEqual(left(), ['submit-0001.json']);
    assertComplete(dir);
    await store.flushed();
    assert.deepEqual(left(), []);
  });

  it('once a commit is on disk, makes spare files for the next one, which then takes each of its files from them', async () => {
    const { dir, store } = await commit(true);
    await store.flushed();
    await store.prepareSpares();
    const spareDir = workspacePaths(dir).spares;
    const spares = new Set(fs.readdirSync(spareDir).map((n) => fs.statSync(path.join(spareDir, n)).ino));
    assert.equal(spares.size, 16, 'both files of each episode of the largest submission (8)');
    fs.rmSync(path.join(dir, 'feedback', 'submit-0001'), { recursive: true });
    const pending = store.begin(1);
    for (const r of records) pending.addEpisode(r);
    await pending.commit({ submission: 1, episodes: records.map((r) => ({ caseIndex: r.caseIndex })), files: FeedbackStore.filesFor(1, records) } as unknown as SubmissionSummary);
    assertComplete(dir);
    const written = ['episodes', 'logs'].flatMap((sub) => fs.readdirSync(path.join(dir, 'feedback', 'submit-0001', sub)).map((n) => fs.statSync(path.join(dir, 'feedback', 'submit-0001', sub, n)).ino));
    assert.equal(written.length, 2 * records.length);
    assert.ok(written.every((ino) => spares.has(ino)), 'every trajectory and log file was a spare');
    await store.flushed();
    await store.prepareSpares();
    assert.equal(fs.readdirSync(spareDir).length, 16);
  });

  it('elsewhere: fsyncs trajectories and logs before the rename and records nothing', async () => {
    const { dir, records: left } = await commit(false);
    assert.deepEqual(left(), []);
    assertComplete(dir);
  });
});
