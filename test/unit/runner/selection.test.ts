import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RunReport } from '../../../src/protocol/feedback';
import { selectBest } from '../../../src/runner/runState';
import { makeRunConfig } from '../../../src/runner/config';
import { parseCaseRanges, formatCaseRanges } from '../../../src/protocol/caseRanges';
import { cartPolicy, cleanupTmp, closeSharedExecutor, connect, makeWorkspace, startHost, useTempDataDir, writePolicy } from './helpers';

describe('runner: selection, config and case lists', function () {
  this.timeout(60_000);
  before(() => useTempDataDir());
  after(async () => {
    await closeSharedExecutor();
    cleanupTmp();
  });

  it('selects the highest validation mean; the later submission wins ties', () => {
    const means = new Map([[1, 10], [2, 30], [3, 30], [4, 20]]);
    assert.equal(selectBest([1, 2, 3, 4], (n) => means.get(n)), 3);
    assert.equal(selectBest([4, 3, 2, 1], (n) => means.get(n)), 3, 'ties go to the later submission whatever the order given');
    assert.equal(selectBest([1, 4], (n) => means.get(n)), 4);
    assert.equal(selectBest([], () => 1), null);
  });

  it('names every bad config field', () => {
    const r = makeRunConfig({ envId: 'CartPole-v1', budget: 0, validationCases: -1, selectionMode: 'best', bogus: 1 });
    assert.equal(r.ok, false);
    if (!r.ok) for (const f of ['budget', 'validationCases', 'selectionMode', 'bogus']) assert.match(r.error, new RegExp(f));
    const c = makeRunConfig({ envId: 'CartPole-v1', budget: 4, minEpisodesPerSubmit: 5 });
    assert.equal(c.ok, false);
    const d = makeRunConfig({ envId: 'CartPole-v1' });
    assert.ok(d.ok && d.config.budget === 128 && d.config.poolSize === 128 && d.config.validationCases === 16 && d.config.heldOutCases === 32 && Object.isFrozen(d.config));
  });

  it('parses and formats case ranges', () => {
    assert.deepEqual(parseCaseRanges('0-3,7, 9-10,0'), { ok: true, cases: [0, 1, 2, 3, 7, 9, 10, 0] });
    assert.equal(parseCaseRanges('1-').ok, false);
    assert.equal(parseCaseRanges('a').ok, false);
    assert.equal(formatCaseRanges([0, 1, 2, 3, 7, 9, 10]), '0-3,7,9-10');
  });

  it('a real run: identical checkpoints tie on validation and the later one is selected; candidates mode validates only the named', async () => {
    const dir = makeWorkspace({ budget: 12 });
    const host = await startHost(dir);
    const client = await connect(host);
    writePolicy(dir, cartPolicy(0.5));
    await client.submit({ cases: '0-1' }); // 1
    writePolicy(dir, cartPolicy(-3));
    await client.submit({ cases: '0-1' }); // 2: falls over fast
    writePolicy(dir, cartPolicy(0.5));
    await client.submit({ cases: '2-3' }); // 3: same checkpoint as 1
    const completed = new Promise<RunReport>((r) => client.on('run.completed', (n) => r(n.report)));
    const report = await client.finish();
    assert.equal(report.selectionMode, 'paper');
    assert.deepEqual(report.candidates.map((c) => c.submission), [1, 2, 3]);
    const v = new Map(report.candidates.map((c) => [c.submission, c.validationMean]));
    assert.equal(v.get(1), v.get(3));
    assert.ok(v.get(1)! > v.get(2)!);
    assert.equal(report.selected, 3, 'later submission wins the tie');
    assert.equal(report.heldOut?.count, 4);
    assert.deepEqual((await completed).selected, 3, 'clients are notified with the same report');
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, '.policyforge', 'report.json'), 'utf8')), report);
    assert.deepEqual(await client.finish(), report, 'finishing again returns the same report');
    await client.close();
    await host.close();

    const dir2 = makeWorkspace({ budget: 12 });
    const host2 = await startHost(dir2);
    const c2 = await connect(host2);
    writePolicy(dir2, cartPolicy(0.5));
    await c2.submit({ cases: '0-1' });
    writePolicy(dir2, cartPolicy(-3));
    await c2.submit({ cases: '0-1' });
    const r2 = await c2.finish([2]);
    assert.equal(r2.selectionMode, 'candidates');
    assert.deepEqual(r2.candidates.map((c) => c.submission), [2]);
    assert.equal(r2.selected, 2);
    await c2.close();
    await host2.close();
  });

  it('says plainly when no submission qualifies', async () => {
    const dir = makeWorkspace({ budget: 4 });
    const host = await startHost(dir);
    const client = await connect(host);
    writePolicy(dir, 'export class Policy { act(): Action { throw new Error("boom"); } }\n');
    const s = await client.submit({ cases: '0-1' });
    assert.equal(s.statusCounts.exception, 2);
    assert.equal(s.budget.used, 2, 'policy failures are charged');
    assert.equal(s.episodes[0]!.error?.location?.file, 'policy/policy.ts');
    const report = await client.finish();
    assert.equal(report.selected, null);
    assert.match(report.reason ?? '', /no submission qualified/);
    assert.equal(report.heldOut, null);
    await client.close();
    await host.close();
  });
});
