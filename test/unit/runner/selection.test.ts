import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RunReport } from '../../../src/protocol/feedback';
import { selectByValidation, type ValidatedCandidate } from '../../../src/runner/selection';
import { makeRunConfig } from '../../../src/runner/config';
import { parseCaseRanges, formatCaseRanges } from '../../../src/protocol/caseRanges';
import { cartPolicy, connect, makeWorkspace, startHost, useInProcessRunners, writePolicy } from './helpers';

describe('runner: selection, config and case lists', function () {
  this.timeout(60_000);
  useInProcessRunners();

  const candidate = (submission: number, mean: number, failures = 0, count = 16): ValidatedCandidate => ({
    submission,
    checkpoint: `ck${submission}`,
    validation: { mean, std: 0, stderr: 0, min: mean, max: mean, okCount: count - failures, count },
  });

  it('selects the highest validation mean; then fewer failures; then the later submission', () => {
    const pick = (cs: ValidatedCandidate[]): number | null => selectByValidation(cs).submission;
    const cs = [candidate(1, 10), candidate(2, 30), candidate(3, 30), candidate(4, 20)];
    assert.equal(pick(cs), 3);
    assert.equal(pick([...cs].reverse()), 3, 'ties go to the later submission whatever the order given');
    assert.equal(pick([candidate(1, 10), candidate(4, 20)]), 4);
    assert.equal(pick([candidate(1, 30, 0), candidate(2, 30, 1)]), 1, 'on equal means the one with fewer failures');
    assert.equal(pick([candidate(1, 29, 0), candidate(2, 30, 3)]), 2, 'failures only break ties: they are already in the mean');
    assert.equal(pick([candidate(5, 0, 16)]), 5, 'a candidate whose every episode failed is still selected when it is the only one');
    assert.deepEqual(selectByValidation([]), { submission: null, reason: 'no submission was made' });
    assert.equal(pick([{ submission: 1, checkpoint: 'a', validation: null }, candidate(2, -5, 2)]), 2, 'a candidate not validated takes no part');
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

  it('selects a submission whose every episode failed, scored at the failure return (no more "no submission qualified")', async () => {
    const dir = makeWorkspace({ budget: 4 });
    const host = await startHost(dir);
    const client = await connect(host);
    writePolicy(dir, 'export class Policy { act(): Action { throw new Error("boom"); } }\n');
    const s = await client.submit({ cases: '0-1' });
    assert.equal(s.statusCounts.exception, 2);
    assert.equal(s.budget.used, 2, 'policy failures are charged');
    assert.equal(s.episodes[0]!.error?.location?.file, 'policy/policy.ts');
    assert.equal(s.stats.mean, 0, 'CartPole fails at 0');
    assert.equal(s.failureReturn, 0);
    const report = await client.finish();
    assert.equal(report.selected, 1);
    assert.equal(report.reason, undefined);
    assert.equal(report.candidates[0]!.validationOkCount, 0);
    assert.equal(report.candidates[0]!.validationCount, 4);
    assert.deepEqual([report.heldOut?.mean, report.heldOut?.okCount, report.heldOut?.count], [0, 0, 4]);
    await client.close();
    await host.close();
  });
});
