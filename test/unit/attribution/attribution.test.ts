/**
 * Attribution ranking (src/stats/attribution.ts) on made-up coverage, then on a real runner: a
 * CartPole policy with a known bad branch gets that branch ranked first in summary.json, at its
 * source line, and the feedback text names it.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CoverageProbe } from '../../../src/protocol/attribution';
import { parseSubmissionSummary } from '../../../src/protocol/documents';
import { attributeEpisodes, type CoveredEpisode } from '../../../src/stats/attribution';
import { attributionLines } from '../../../src/stats/attributionText';
import { formatSummary } from '../../../src/stats/feedbackText';
import { scoreFormat } from '../../../src/stats/scoreFormat';
import { connect, makeWorkspace, startHost, useInProcessRunners, writePolicy } from '../runner/helpers';
import { pinSecret } from '../runner/pinSecret';

const probe = (id: number, kind: CoverageProbe['kind'], line: number, endLine = line): CoverageProbe => ({ id, kind, file: 'policy/policy.ts', line, column: 5, endLine, function: 'Policy.act' });
const PROBES = [probe(0, 'function', 3, 12), probe(1, 'then', 4, 6), probe(2, 'else', 6, 8), probe(3, 'function', 14, 16), probe(4, 'loop', 9)];

describe('attribution: ranking places by failed against successful episodes', () => {
  it('ranks the branch that ran only in failed and low episodes first, merging places that ran in the same episodes', () => {
    const eps: CoveredEpisode[] = [
      // Low: two failures and the lowest ok score; all ran the else branch and the helper it calls.
      { status: 'exception', score: 0, coverage: [0, 2, 3] },
      { status: 'timeout', score: 0, coverage: [0, 2, 3] },
      { status: 'ok', score: 0, coverage: [0, 2, 3, 4] },
      // High: the then branch.
      { status: 'ok', score: 9, coverage: [0, 1, 4] },
      { status: 'ok', score: 10, coverage: [0, 1, 4] },
      { status: 'ok', score: 10, coverage: [0, 1, 4] },
      { status: 'ok', score: 8, coverage: [0, 1] },
    ];
    const a = attributeEpisodes(PROBES, eps)!;
    assert.equal(a.low, 3);
    assert.equal(a.high, 4);
    assert.equal(a.probes, 5);
    const first = a.entries[0]!;
    assert.deepEqual([first.kind, first.line, first.lowRate, first.highRate, first.alsoAt], ['else', 6, 1, 0, ['policy/policy.ts:14']]);
    // The then branch ran in every high episode and no low one: the same difference, the other sign, comes after.
    assert.deepEqual([a.entries[1]!.kind, a.entries[1]!.lowRate, a.entries[1]!.highRate], ['then', 0, 1]);
    // The body of act ran everywhere: never an entry.
    assert.ok(!a.entries.some((e) => e.line === 3));
    const text = attributionLines(a, scoreFormat(10));
    assert.match(text[1]!, /^policy\/policy\.ts:6 else branch in Policy\.act: ran in 100% of failed\/low episodes \(3\/3\) and 0% of successful ones \(0\/4\) \(also policy\/policy\.ts:14\)$/);
  });

  it('names the successful group by the rule it applies when the low cut and the median meet', () => {
    // Four of seven episodes score 0: the first quartile and the median are both 0, and a 0 is low.
    const eps: CoveredEpisode[] = [
      ...[0, 1, 2, 3].map((): CoveredEpisode => ({ status: 'ok', score: 0, coverage: [0, 2] })),
      ...[1, 1, 1].map((score): CoveredEpisode => ({ status: 'ok', score, coverage: [0, 1] })),
    ];
    const a = attributeEpisodes(PROBES, eps)!;
    assert.equal(a.lowScore, a.highScore);
    assert.deepEqual([a.low, a.high], [4, 3]);
    assert.match(attributionLines(a, scoreFormat(1))[0]!, /failed\/low = failed or score ≤ 0\.00, successful = ok and score > 0\.00\):$/);
  });

  it('gives nothing when the episodes do not split (all equal) or have no coverage', () => {
    const same: CoveredEpisode[] = [0, 1, 2].map(() => ({ status: 'ok', score: 500, coverage: [0] }));
    assert.equal(attributeEpisodes(PROBES, same), undefined);
    assert.equal(attributeEpisodes(PROBES, [{ status: 'ok', score: 1 }, { status: 'exception', score: 0 }]), undefined);
  });
});

/** A balancing controller, except in episodes Math.random marks buggy, which after 20 steps always push left. */
const BUGGY = `export class Policy {
  private buggy: boolean;
  private t = 0;
  constructor(_ctx: PolicyContext) {
    this.buggy = Math.random() < 0.5;
  }
  act(o: Observation): Action {
    this.t++;
    if (this.buggy && this.t > 20) {
      return 0;
    }
    return o[2]! + 0.5 * o[3]! > 0 ? 1 : 0;
  }
}
`;

describe('attribution: in the runner feedback', function () {
  this.timeout(120_000);
  useInProcessRunners();

  it('summary.json ranks the bad branch first at its line, and the feedback text names it', async () => {
    const dir = makeWorkspace({ budget: 32 });
    // Which episodes are buggy depends on the run's hidden seeds: pinned, so the split is the same everywhere.
    pinSecret(dir, '5eed'.repeat(16));
    const host = await startHost(dir);
    try {
      const client = await connect(host);
      writePolicy(dir, BUGGY);
      const summary = await client.submit({ cases: '0-15' });
      const onDisk = parseSubmissionSummary(fs.readFileSync(path.join(dir, 'feedback', 'submit-0001', 'summary.json'), 'utf8'));
      assert.ok(onDisk.ok);
      const a = onDisk.value.attribution;
      assert.ok(a, 'summary.json has an attribution');
      const first = a.entries[0]!;
      assert.deepEqual([first.file, first.line, first.kind, first.function], ['policy/policy.ts', 9, 'then', 'Policy.act']);
      assert.equal(first.lowRate, 1);
      assert.equal(first.highRate, 0);
      // Episodes carry no coverage of their own in summary.json: it stays small.
      assert.ok(onDisk.value.episodes.every((e) => !('coverage' in e)));
      assert.match(formatSummary(summary, []), /\n {2}attribution \(code that ran unevenly[^\n]*\n {4}policy\/policy\.ts:9 if branch in Policy\.act: ran in 100% of failed\/low episodes \(\d+\/\d+\) and 0% of successful ones/);
      await client.close();
    } finally {
      await host.close();
    }
  });
});
