import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RunClientError, type RunnerClient } from '../../../src/runner/client';
import type { RunnerHost } from '../../../src/runner/host';
import { RunErrorCode } from '../../../src/protocol/run';
import { cartPolicy, connect, INTERRUPTIBLE_ITERATIONS, makeWorkspace, readEvents, slowPolicy, startHost, useInProcessRunners, writePolicy } from './helpers';

async function rejects(p: Promise<unknown>, reason: string, code: number): Promise<RunClientError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof RunClientError, `expected a RunClientError, got ${String(e)}`);
    assert.equal(e.reason, reason, e.message);
    assert.equal(e.code, code);
    return e;
  }
  assert.fail(`expected rejection ${reason}`);
}

describe('runner: submit admission and budget', function () {
  this.timeout(60_000);
  let dir: string;
  let host: RunnerHost;
  let client: RunnerClient;

  useInProcessRunners();
  beforeEach(async () => {
    dir = makeWorkspace({ budget: 10, maxEpisodesPerSubmit: 6, minEpisodesPerSubmit: 2, maxSubmissions: 3 });
    host = await startHost(dir);
    client = await connect(host);
  });
  afterEach(async () => {
    await client.close();
    await host.close();
  });

  it('rejects each admission error with its code, charges nothing and journals it', async () => {
    await rejects(client.request('run.submit', { cases: '0-3', episodes: 2 } as never), 'malformed_request', RunErrorCode.malformedRequest);
    await rejects(client.request('run.submit', { cases: [1.5] } as never), 'malformed_request', RunErrorCode.malformedRequest);
    await rejects(client.submit({ cases: '3-1' }), 'malformed_request', RunErrorCode.malformedRequest);
    await rejects(client.submit({ cases: 'abc' }), 'malformed_request', RunErrorCode.malformedRequest);
    const oop = await rejects(client.submit({ cases: [0, 10] }), 'index_out_of_pool', RunErrorCode.indexOutOfPool);
    assert.equal(oop.data.index, 10);
    await rejects(client.submit({ cases: '0' }), 'episodes_out_of_bounds', RunErrorCode.episodesOutOfBounds);
    await rejects(client.submit({ episodes: 7 }), 'episodes_out_of_bounds', RunErrorCode.episodesOutOfBounds);
    writePolicy(dir, 'export class Policy { act( { return 1; } }\n');
    const build = await rejects(client.submit({ cases: '0-1' }), 'bundle_does_not_build', RunErrorCode.bundleDoesNotBuild);
    assert.ok(Array.isArray(build.data.diagnostics) && build.data.diagnostics.length > 0, 'diagnostics come with the error');
    writePolicy(dir, "import * as fs from 'node:fs';\nexport class Policy { act() { return fs ? 1 : 0; } }\n");
    await rejects(client.submit({ cases: '0-1' }), 'bundle_does_not_build', RunErrorCode.bundleDoesNotBuild);

    const st = await client.status();
    assert.equal(st.budget.used, 0);
    assert.equal(st.submissions, 0);
    assert.ok(!fs.existsSync(path.join(dir, 'feedback', 'submit-0001')), 'no feedback for rejected submits');
    const rejected = readEvents(dir).filter((e) => e.type === 'submit_rejected');
    assert.deepEqual(
      rejected.map((e) => e.reason),
      ['malformed_request', 'malformed_request', 'malformed_request', 'malformed_request', 'index_out_of_pool', 'episodes_out_of_bounds', 'episodes_out_of_bounds', 'bundle_does_not_build', 'bundle_does_not_build'],
    );
  });

  it('checks in fixed order: pool before bounds before limits before budget before build', async () => {
    writePolicy(dir, 'syntax error here (\n');
    // Out of pool and out of bounds at once: the pool error wins.
    await rejects(client.submit({ cases: '0-20' }), 'index_out_of_pool', RunErrorCode.indexOutOfPool);
    // Too many episodes and a broken build: bounds win.
    await rejects(client.submit({ cases: '0-6' }), 'episodes_out_of_bounds', RunErrorCode.episodesOutOfBounds);
    await rejects(client.submit({ cases: '0-1' }), 'bundle_does_not_build', RunErrorCode.bundleDoesNotBuild);
  });

  it('charges per requested index, repeats included, and stops at the budget', async () => {
    writePolicy(dir, cartPolicy(0.5));
    const a = await client.submit({ cases: '0,0,1' });
    assert.deepEqual(a.cases, [0, 0, 1]);
    assert.equal(a.episodes.length, 3);
    assert.equal(a.budget.used, 3);
    assert.equal(a.episodes[0]!.return, a.episodes[1]!.return, 'a repeated index replays the same hidden case');
    assert.ok(fs.existsSync(path.join(dir, 'feedback', 'submit-0001', 'episodes', 'case-000-2.jsonl')), 'repeats get their own files');
    const b = await client.submit({ episodes: 5 });
    assert.deepEqual(b.cases, [2, 3, 4, 5, 6], 'episodes: n takes the next unused indices');
    assert.equal(b.budget.remaining, 2);
    await rejects(client.submit({ cases: '0-2' }), 'budget_exhausted', RunErrorCode.budgetExhausted);
    assert.equal((await client.status()).budget.used, 8, 'the rejected submit cost nothing');
  });

  it('enforces the submission limit before the budget', async () => {
    writePolicy(dir, cartPolicy(0.5));
    for (let i = 0; i < 3; i++) await client.submit({ cases: '0-1' });
    await rejects(client.submit({ cases: '0-1' }), 'submission_limit', RunErrorCode.submissionLimit);
    assert.equal((await client.status()).budget.used, 6);
  });

  it('rejects submits after finish and reports unknown submissions', async () => {
    writePolicy(dir, cartPolicy(0.5));
    await client.submit({ cases: '0-1' });
    await rejects(client.feedback(9), 'unknown_submission', RunErrorCode.unknownSubmission);
    await rejects(client.finish([4]), 'unknown_submission', RunErrorCode.unknownSubmission);
    const report = await client.finish();
    assert.equal(report.selected, 1);
    await rejects(client.submit({ cases: '0-1' }), 'run_finished', RunErrorCode.runFinished);
  });

  it('cancels a running submit without charging it', async () => {
    writePolicy(dir, slowPolicy(INTERRUPTIBLE_ITERATIONS));
    const started = new Promise<void>((r) => client.on('run.progress', (p) => p.done >= 1 && r()));
    const submit = client.submit({ cases: '0-5' });
    await started;
    assert.deepEqual(await client.cancel(), { cancelled: true, submission: 1 });
    await rejects(submit, 'cancelled', RunErrorCode.cancelled);
    const st = await client.status();
    assert.equal(st.budget.used, 0);
    assert.equal(st.submissions, 0);
    assert.deepEqual((await client.cancel()).cancelled, false);
    writePolicy(dir, cartPolicy(0.5));
    assert.equal((await client.submit({ cases: '0-1' })).submission, 1, 'the number is reused: nothing was committed');
  });

  it('answers busy beyond the queue limit instead of queueing without bound; busy costs nothing', async () => {
    await client.close();
    await host.close();
    dir = makeWorkspace({ budget: 64 });
    host = await startHost(dir);
    client = await connect(host);
    writePolicy(dir, cartPolicy(0.5));
    const results = await Promise.allSettled(Array.from({ length: 24 }, () => client.submit({ cases: '0' })));
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const busy = results.filter((r) => r.status === 'rejected' && (r.reason as RunClientError).reason === 'busy').length;
    assert.equal(ok + busy, 24);
    assert.ok(busy >= 1, 'some requests were refused as busy');
    assert.equal((await client.status()).budget.used, ok);
  });
});
