import assert from 'node:assert/strict';
import { Rng } from '../../../src/envs/core/rng';
import type { SubmissionSummary } from '../../../src/protocol/feedback';
import { bootstrapMeanInterval95, pairedComparison, returnsByCase } from '../../../src/stats/paired';
import { pairedEvidence, pairedLines } from '../../../src/stats/pairedEvidence';
import { scoreFormat } from '../../../src/stats/scoreFormat';
import { submissionNode } from '../../../src/extension/views/runTreeModel';
import { formatSummary } from '../../../src/stats/feedbackText';
import { cartPolicy, connect, makeWorkspace, startHost, useInProcessRunners, writePolicy } from '../runner/helpers';

const seeded = (seed: string): (() => number) => {
  const r = new Rng(seed);
  return () => r.random();
};
const eps = (pairs: [number, number][]) => pairs.map(([caseIndex, ret]) => ({ caseIndex, return: ret }));

describe('paired statistics', () => {
  it('averages a case run twice before pairing', () => {
    assert.deepEqual([...returnsByCase(eps([[0, 1], [1, 5], [0, 3]]))], [[0, 2], [1, 5]]);
  });

  it('compares on shared cases only: count, mean difference, interval', () => {
    const child = { submission: 2, episodes: eps([[0, 12], [1, 15], [2, 9], [3, 100]]) };
    const parent = { submission: 1, episodes: eps([[0, 10], [1, 10], [2, 10], [7, -50]]) };
    const c = pairedComparison(child, parent, seeded('a'));
    assert.equal(c.against, 1);
    assert.equal(c.shared, 3);
    assert.equal(c.meanDifference, (2 + 5 - 1) / 3);
    assert.ok(c.ci95);
    assert.ok(c.ci95[0] >= -1 && c.ci95[1] <= 5 && c.ci95[0] <= c.meanDifference! && c.meanDifference! <= c.ci95[1], `interval ${c.ci95}`);
    assert.equal(c.resubmitCases, undefined);
  });

  it('the interval is reproducible from its seed, and differs with another seed', () => {
    const xs = Array.from({ length: 16 }, (_, i) => Math.sin(i) * 10 + i);
    const a = bootstrapMeanInterval95(xs, seeded('s'));
    assert.deepEqual(bootstrapMeanInterval95(xs, seeded('s')), a);
    assert.notDeepEqual(bootstrapMeanInterval95(xs, seeded('t')), a);
  });

  it('the bootstrap interval covers the true mean difference about 95% of the time', () => {
    // Normal differences with mean 1 and sd 2, 20 cases: a well-behaved percentile bootstrap covers ≈ 0.93–0.95.
    const gen = new Rng(7);
    const normal = (): number => Math.sqrt(-2 * Math.log(1 - gen.random())) * Math.cos(2 * Math.PI * gen.random());
    let covered = 0;
    const trials = 200;
    for (let t = 0; t < trials; t++) {
      const d = Array.from({ length: 20 }, () => 1 + 2 * normal());
      const ci = bootstrapMeanInterval95(d, seeded(`c${t}`), 500)!;
      if (ci[0] <= 1 && 1 <= ci[1]) covered++;
    }
    assert.ok(covered / trials > 0.88 && covered / trials < 0.99, `coverage ${covered / trials}`);
  });

  it('a constant difference gives a zero-width interval; one shared case gives none', () => {
    const c = pairedComparison({ submission: 2, episodes: eps([[0, 5], [1, 6]]) }, { submission: 1, episodes: eps([[0, 3], [1, 4]]) }, seeded('x'));
    assert.deepEqual([c.meanDifference, c.ci95], [2, [2, 2]]);
    const one = pairedComparison({ submission: 2, episodes: eps([[0, 5]]) }, { submission: 1, episodes: eps([[0, 3]]) }, seeded('x'));
    assert.deepEqual([one.shared, one.meanDifference, one.ci95], [1, 2, null]);
  });

  it('with nothing shared it says so and names the cases to resubmit on', () => {
    const c = pairedComparison({ submission: 3, episodes: eps([[8, 1]]) }, { submission: 2, episodes: eps([[0, 1], [1, 1], [2, 1], [5, 1]]) }, seeded('x'));
    assert.deepEqual(c, { against: 2, shared: 0, meanDifference: null, ci95: null, resubmitCases: '0-2,5' });
    const lines = pairedLines({ paired: { parent: c, bestSoFar: null } }, scoreFormat(1).delta);
    assert.match(lines[0]!, /vs parent #2: no shared cases.*resubmit on its cases \(0-2,5\)/);
  });

  it('prints both comparisons, with a verdict when the interval excludes zero', () => {
    const subject = { submission: 3, episodes: eps([[0, 20], [1, 22], [2, 21]]) };
    const parent = { submission: 2, episodes: eps([[0, 10], [1, 11], [2, 12]]) };
    const best = { submission: 1, episodes: eps([[0, 30], [1, 10], [2, 20]]) };
    const paired = pairedEvidence(subject, parent, best, (n) => seeded(`p${n}`));
    const lines = pairedLines({ paired } as Pick<SubmissionSummary, 'paired'>, scoreFormat(10).delta);
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /^vs parent #2: \+10(\.0)? \[\+9(\.0)?, \+11(\.0)?\] on 3 shared cases, better$/);
    assert.match(lines[1]!, /^vs best so far #1: \+1(\.0)? \[.*\] on 3 shared cases$/);
  });
});

describe('paired statistics on every surface', () => {
  const summary = {
    submission: 3,
    checkpoint: 'abcdef0123456789',
    createdAt: '',
    envId: 'CartPole-v1',
    cases: [0, 1],
    episodes: [],
    stats: { mean: 20, std: 0, stderr: 0, min: 20, max: 20, okCount: 2, count: 2 },
    statusCounts: { ok: 2 },
    wallMs: 1,
    budget: { total: 8, used: 6, remaining: 2 },
    parent: 2,
    files: { trajectories: [], logs: [], evicted: false },
    paired: {
      parent: { against: 2, shared: 2, meanDifference: 5, ci95: [1, 9] as [number, number] },
      bestSoFar: { against: 1, shared: 0, meanDifference: null, ci95: null, resubmitCases: '4-7' },
    },
  } satisfies SubmissionSummary;
  it('the feedback text (CLI, MCP, LM tools) and the tree tooltip print both comparisons', () => {
    const text = formatSummary(summary, [{ mean: 10 }, { mean: 15 }, { mean: 20 }]);
    assert.match(text, /paired \(mean difference, bootstrap 95% interval\):\n {4}vs parent #2: \+5(\.0)? \[\+1(\.0)?, \+9(\.0)?\] on 2 shared cases, better\n {4}vs best so far #1: no shared cases/);
    const node = submissionNode({ submission: 3, checkpoint: summary.checkpoint, parent: 2, cases: [0, 1], mean: 20, okCount: 2, count: 2, budgetUsed: 6 } as never, summary, null, scoreFormat(10));
    assert.match(node.tooltip!, /Paired vs parent #2: \+5/);
    assert.match(node.tooltip!, /Paired vs best so far #1: no shared cases.*\(4-7\)/);
  });
});

describe('paired statistics in the runner feedback', function () {
  this.timeout(60_000);
  useInProcessRunners();

  it('each summary carries its difference from the parent and from the best so far', async () => {
    const dir = makeWorkspace({ budget: 16 });
    const host = await startHost(dir);
    const client = await connect(host);
    try {
      writePolicy(dir, cartPolicy(0.5));
      const first = await client.submit({ cases: '0-3' });
      assert.deepEqual(first.paired, { parent: null, bestSoFar: null });
      writePolicy(dir, cartPolicy(-3));
      const second = await client.submit({ cases: '0-3' });
      assert.equal(second.paired?.parent?.against, 1);
      assert.equal(second.paired?.parent?.shared, 4);
      const expected = second.episodes.reduce((a, e, i) => a + e.return - first.episodes[i]!.return, 0) / 4;
      assert.ok(Math.abs(second.paired!.parent!.meanDifference! - expected) < 1e-9);
      assert.ok(second.paired!.parent!.meanDifference! < 0, 'a policy that falls over fast is worse on the same cases');
      writePolicy(dir, cartPolicy(0.4));
      const third = await client.submit({ cases: '8-9' });
      assert.equal(third.paired?.parent?.against, 2);
      assert.equal(third.paired?.parent?.shared, 0);
      assert.equal(third.paired?.parent?.resubmitCases, '0-3');
      assert.equal(third.paired?.bestSoFar?.against, 1);
      const again = await client.feedback(3);
      assert.deepEqual(again.paired, third.paired, 'the evidence is stored in summary.json');
    } finally {
      await client.close();
      await host.close();
    }
  });
});
