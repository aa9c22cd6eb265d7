/** The editor's attribution marks: only places that ran more in failed/low episodes, tinted by how much, with the figures in the hover. */
import { strict as assert } from 'node:assert';
import type { Attribution } from '../../../src/protocol/attribution';
import { attributionMarks, relocateMarks } from '../../../src/extension/attribution/attributionMarks';
import { unchangedLines } from '../../../src/extension/attribution/lineMap';

const ATTRIBUTION: Attribution = {
  low: 10,
  high: 10,
  lowScore: 0,
  highScore: 0.75,
  probes: 30,
  entries: [
    { kind: 'else', file: 'policy/policy.ts', line: 42, column: 12, endLine: 44, function: 'Policy.act', lowRate: 0.9, highRate: 0.1, alsoAt: ['policy/util.ts:3'] },
    { kind: 'then', file: 'policy/policy.ts', line: 30, column: 5, endLine: 31, function: 'Policy.act', lowRate: 0, highRate: 1 },
    { kind: 'function', file: 'policy/util.ts', line: 7, column: 1, endLine: 9, function: 'scan', lowRate: 0.6, highRate: 0.3 },
  ],
};

describe('extension: attribution marks in the editor', () => {
  it('marks the places that ran more in failed/low episodes, strong from a difference of 0.5, with the figures in the hover', () => {
    const marks = attributionMarks({ submission: 3, attribution: ATTRIBUTION });
    assert.deepEqual([...marks.keys()].sort(), ['policy/policy.ts', 'policy/util.ts']);
    const [bad] = marks.get('policy/policy.ts')!;
    assert.equal(marks.get('policy/policy.ts')!.length, 1, 'the branch that ran more in successes is not marked');
    assert.deepEqual([bad!.line, bad!.endLine, bad!.strong], [42, 44, true]);
    assert.ok(Math.abs(bad!.difference - 0.8) < 1e-9);
    assert.match(bad!.hover, /submission 3: #1 of the 3 places its feedback ranks/);
    assert.match(bad!.hover, /Failed\/low: failed, or score ≤ 0; successful: ok and score ≥ 0\.750\./);
    assert.match(bad!.hover, /\*\*else branch in Policy\.act\*\* ran in 90% of failed\/low episodes \(9\/10\) and 10% of successful ones \(1\/10\)\./);
    assert.match(bad!.hover, /Ran in the same episodes: policy\/util\.ts:3\./);
    const [weak] = marks.get('policy/util.ts')!;
    assert.equal(weak!.strong, false);
    assert.match(weak!.hover, /\*\*scan\(\)\*\* ran in 60%/);
  });

  it('says successful means above the low cut when the median is the low cut', () => {
    // Most episodes scored 0: the first quartile and the median are both 0, and a 0 is low, never successful.
    const [mark] = attributionMarks({ submission: 1, attribution: { ...ATTRIBUTION, lowScore: 0, highScore: 0 } }).get('policy/policy.ts')!;
    assert.match(mark!.hover, /Failed\/low: failed, or score ≤ 0; successful: ok and score > 0\./);
  });

  it('marks nothing without a submission or an attribution', () => {
    assert.equal(attributionMarks(undefined).size, 0);
    assert.equal(attributionMarks({ submission: 1 }).size, 0);
  });

  it('maps the lines an edit left unchanged, and only those', () => {
    const before = ['a', 'b', 'c', 'd'].join('\n');
    const after = ['new', 'a', 'B', 'c', 'd'].join('\n');
    assert.deepEqual([...unchangedLines(before, after)], [[1, 2], [3, 4], [4, 5]], 'b was changed: no place any more');
    assert.deepEqual([...unchangedLines(before, before)], [[1, 1], [2, 2], [3, 3], [4, 4]]);
  });

  it('moves marks with their code through later edits, and drops those whose line changed', () => {
    const then = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`);
    const marks = attributionMarks({ submission: 3, attribution: ATTRIBUTION }).get('policy/policy.ts')!;
    assert.equal(relocateMarks(marks, then.join('\n'), then.join('\n'), 3)[0], marks[0], 'unchanged file: the same marks');
    const now = ['// a new first line', '// and another', ...then];
    const [moved] = relocateMarks(marks, then.join('\n'), now.join('\n'), 3);
    assert.deepEqual([moved!.line, moved!.endLine], [44, 46]);
    assert.match(moved!.hover, /Line 42 in submission 3's checkpoint; the code has moved since\.$/);
    const edited = then.map((l, i) => (i === 41 ? 'rewritten' : l));
    assert.deepEqual(relocateMarks(marks, then.join('\n'), edited.join('\n'), 3), [], 'its first line was rewritten: the mark goes');
  });
});

