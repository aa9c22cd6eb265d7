import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RunReport } from '../../../src/protocol/feedback';
import { gateSelection, stderrOf } from '../../../src/stats/selectionGate';
import { cartPolicy, connect, makeWorkspace, readEvents, startHost, useInProcessRunners, writePolicy } from '../runner/helpers';

describe('gated selection', () => {
  const c = (submission: number, returns: number[]) => ({ submission, returns });

  it('replaces the incumbent only when the candidate wins by more than Δ on both halves', () => {
    const r = gateSelection([c(1, [10, 10, 10, 10]), c(2, [20, 20, 11, 9]), c(3, [15, 15, 15, 15]), c(4, [16, 16, 17, 17])], 1);
    assert.equal(r.submission, 3);
    assert.deepEqual(
      r.evidence.steps.map((s) => [s.candidate, s.incumbent, s.differences, s.accepted]),
      [
        [2, 1, [10, 0], false], // better on one half only
        [3, 1, [5, 5], true],
        [4, 3, [1, 2], false], // the first half's margin is not more than Δ = 1
      ],
    );
    assert.equal(r.evidence.delta, 1);
    assert.equal(r.evidence.first, 1);
  });

  it('takes candidates in submission order whatever order they come in', () => {
    assert.equal(gateSelection([c(3, [5, 5]), c(1, [0, 0]), c(2, [9, 9])], 0).submission, 2, '#2 beats #1, #3 does not beat #2');
  });

  it('defaults Δ to one standard error of the incumbent, recomputed as the incumbent changes', () => {
    const inc = [0, 2, 0, 2];
    const r = gateSelection([c(1, inc), c(2, [1.5, 3.5, 1.5, 3.5])]);
    assert.equal(r.evidence.delta, null);
    assert.equal(r.evidence.steps[0]!.delta, stderrOf(inc));
    assert.equal(r.evidence.steps[0]!.accepted, true, `+1.5 on both halves > stderr ${stderrOf(inc)}`);
    const tight = gateSelection([c(1, inc), c(2, [0.4, 2.4, 0.4, 2.4])]);
    assert.equal(tight.submission, 1, '+0.4 is within one standard error (≈0.577)');
  });

  it('a candidate with fewer than two validation cases cannot be split and takes no part', () => {
    const r = gateSelection([c(1, [5]), c(2, [1, 1])]);
    assert.equal(r.submission, 2);
    assert.deepEqual(gateSelection([], 0), { submission: null, evidence: { rule: 'gated', delta: 0, first: null, steps: [] } });
  });
});

describe('gated selection in a real run', function () {
  this.timeout(60_000);
  useInProcessRunners();

  it('report.json records the mode and every gate comparison; the selected policy beat its incumbent on both halves', async () => {
    const dir = makeWorkspace({ budget: 12, selectionMode: 'gated', validationCases: 6 });
    const host = await startHost(dir);
    const client = await connect(host);
    try {
      assert.equal((await client.info()).selectionMode, 'gated');
      writePolicy(dir, cartPolicy(-3)); // falls over fast
      await client.submit({ cases: '0-1' });
      writePolicy(dir, cartPolicy(0.5)); // balances
      await client.submit({ cases: '0-1' });
      writePolicy(dir, cartPolicy(-3, '// the same bad policy, another checkpoint'));
      await client.submit({ cases: '0-1' });
      const report = await client.finish();
      assert.equal(report.selectionMode, 'gated');
      assert.equal(report.selected, 2);
      assert.deepEqual(
        report.selection?.steps.map((s) => [s.candidate, s.incumbent, s.accepted]),
        [
          [2, 1, true],
          [3, 2, false],
        ],
      );
      const v = new Map(report.candidates.map((x) => [x.submission, x.validationMean]));
      assert.ok(report.selection!.steps[0]!.differences.every((d) => d > 0));
      assert.ok(v.get(2)! > v.get(1)!);
      const onDisk = JSON.parse(fs.readFileSync(path.join(dir, '.policyforge', 'report.json'), 'utf8')) as RunReport;
      assert.deepEqual(onDisk.selection, report.selection);
    } finally {
      await client.close();
      await host.close();
    }
  });
});

describe('elite re-evaluation in a real run', function () {
  this.timeout(60_000);
  useInProcessRunners();

  it('re-runs the top k on fresh validation cases; only they compete, on all their validation episodes', async () => {
    const dir = makeWorkspace({ budget: 12, validationCases: 4, eliteK: 2, eliteCases: 6 });
    const host = await startHost(dir);
    const client = await connect(host);
    try {
      writePolicy(dir, cartPolicy(-3));
      await client.submit({ cases: '0-1' });
      writePolicy(dir, cartPolicy(0.5));
      await client.submit({ cases: '0-1' });
      writePolicy(dir, cartPolicy(0.3));
      await client.submit({ cases: '0-1' });
      const report = await client.finish();
      assert.deepEqual(report.elite?.map((e) => e.submission).sort(), [2, 3], 'the two balancing policies are the elite; #1 drops out');
      assert.ok(report.elite!.every((e) => e.freshCases === 6));
      const merged = (e: { validationMean: number; freshMean: number }): number => (4 * e.validationMean + 6 * e.freshMean) / 10;
      const [a, b] = report.elite!;
      const expected = merged(a!) > merged(b!) ? a!.submission : merged(b!) > merged(a!) ? b!.submission : Math.max(a!.submission, b!.submission);
      assert.equal(report.selected, expected, 'the elite compete on first and fresh validation episodes together');
      const revalidated = readEvents(dir).filter((e) => e.type === 'revalidated');
      assert.equal(revalidated.length, 2);
    } finally {
      await client.close();
      await host.close();
    }
  });
});
