/**
 * The pool's queue: chunks come from the front of one batch, other jobs keep their places,
 * jobs put back go first, and the counts the dispatch loop reads stay right.
 */
import { strict as assert } from 'node:assert';
import { JobQueue, type QueueJob } from '../../../src/sandbox/pool/jobQueue';

interface TestJob extends QueueJob {
  name: string;
}

const A = { name: 'A' };
const B = { name: 'B' };
const job = (batch: object, name: string, pluginKey = '', exact = false): TestJob => ({ batch, name, pluginKey, plugins: pluginKey ? [pluginKey] : [], exact });
const names = (jobs: readonly TestJob[]): string[] => jobs.map((j) => j.name);

describe('sandbox: the pool job queue', () => {
  it('takes chunks of one batch from the front, in order, and counts what is left', () => {
    const q = new JobQueue<TestJob>();
    q.push([job(A, 'a0'), job(A, 'a1'), job(A, 'a2'), job(B, 'b0'), job(A, 'a3')]);
    assert.equal(q.queuedOf(A), 4);
    assert.deepEqual(names(q.take(q.firstFor('') as TestJob, 2)), ['a0', 'a1']);
    // a3 comes after a job of another batch: b0 is skipped and keeps its place.
    assert.deepEqual(names(q.take(q.firstFor('') as TestJob, 5)), ['a2', 'a3']);
    assert.deepEqual([q.length, q.queuedOf(A), q.queuedOf(B)], [1, 0, 1]);
    assert.deepEqual(names(q.take(q.firstFor('') as TestJob, 5)), ['b0']);
    assert.equal(q.length, 0);
  });

  it('never puts an exact job in a chunk, and takes one alone', () => {
    const q = new JobQueue<TestJob>();
    q.push([job(A, 'a0'), job(A, 'x', '', true), job(A, 'a1')]);
    assert.deepEqual(names(q.take(q.firstFor('') as TestJob, 8)), ['a0', 'a1']);
    const x = q.firstFor('') as TestJob;
    q.push([job(A, 'a2')]);
    assert.deepEqual(names(q.take(x, 8)), ['x']);
    assert.deepEqual(names(q.take(q.firstFor('') as TestJob, 8)), ['a2']);
  });

  it('puts jobs back ahead of everything, whether or not the front has room', () => {
    const q = new JobQueue<TestJob>();
    q.push(Array.from({ length: 6 }, (_, i) => job(A, `a${i}`)));
    q.putFront([job(B, 'b0'), job(B, 'b1')]);
    assert.deepEqual(names(q.take(q.firstFor('') as TestJob, 8)), ['b0', 'b1']);
    q.take(q.firstFor('') as TestJob, 3);
    q.putFront([job(B, 'b2'), job(B, 'b3')]);
    assert.deepEqual(names(q.removeWhere(() => true)), ['b2', 'b3', 'a3', 'a4', 'a5']);
    assert.deepEqual([q.length, q.queuedOf(A), q.queuedOf(B), [...q.pluginSets()].length], [0, 0, 0, 0]);
  });

  it('finds jobs by plugin set and removes a batch', () => {
    const q = new JobQueue<TestJob>();
    q.push([job(A, 'a0', 'p'), job(B, 'b0', 'q'), job(A, 'a1', 'p')]);
    assert.equal(q.firstFor('q')?.name, 'b0');
    assert.equal(q.firstFor('r'), undefined);
    assert.deepEqual([...q.pluginSets()].map(([k, v]) => [k, v.count]), [['p', 2], ['q', 1]]);
    assert.deepEqual(names(q.take(q.firstFor('q') as TestJob, 4)), ['b0']);
    assert.deepEqual(names(q.removeWhere((j) => j.batch === A)), ['a0', 'a1']);
    assert.equal(q.length, 0);
  });

  it('keeps order across many takes (the front index and its compaction)', () => {
    const q = new JobQueue<TestJob>();
    const n = 5000;
    q.push(Array.from({ length: n }, (_, i) => job(A, String(i))));
    const seen: string[] = [];
    while (q.length > 0) seen.push(...names(q.take(q.firstFor('') as TestJob, 7)));
    assert.deepEqual(seen, Array.from({ length: n }, (_, i) => String(i)));
  });
});
