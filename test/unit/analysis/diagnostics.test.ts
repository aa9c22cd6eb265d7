/** Run diagnostics from a hand-made run: shares, best-so-far curve, effectiveness, size vs improvement, complexity. */
import * as assert from 'node:assert/strict';
import { initialEditSummary, runDiagnostics } from '../../../src/analysis';
import { COSMETIC_DETAIL, type CheckpointMetrics, type DiagnosticsSubmission } from '../../../src/protocol/analysis';
import type { EditSummary } from '../../../src/protocol/feedback';

const metrics = (sourceLines: number, cyclomaticTotal: number): CheckpointMetrics => ({
  contentHash: `h${sourceLines}`,
  files: 1,
  sourceLines,
  totalLines: sourceLines,
  functions: 2,
  classes: 1,
  branches: 1,
  loops: 0,
  cyclomaticTotal,
  cyclomaticMax: cyclomaticTotal,
  maxNestingDepth: 1,
  stateFields: 1,
  literals: 5,
});

const edit = (cls: EditSummary['class'], parent: number, lines: number, details: string[]): EditSummary => ({
  class: cls,
  parent,
  linesAdded: lines,
  linesRemoved: Math.floor(lines / 2),
  sizeBin: lines === 0 ? 'none' : lines <= 5 ? 'small' : lines <= 30 ? 'medium' : 'large',
  details,
});

// 1 initial 10 · 2 parametric 12 (best) · 3 structural 8 · 4 (from 2, after a restore) structural 20 (best)
// 5 parametric cosmetic 20 (tie, not a new best) · 6 identical 5
const run: DiagnosticsSubmission[] = [
  { submission: 1, parent: null, budgetUsed: 8, trainMean: 10, edit: initialEditSummary(), metrics: metrics(20, 3), validationMean: 9 },
  { submission: 2, parent: 1, budgetUsed: 16, trainMean: 12, edit: edit('parametric', 1, 1, ['Policy.gain: 0.5 → 0.7 (policy.ts:7)']), metrics: metrics(20, 3), validationMean: 11 },
  { submission: 3, parent: 2, budgetUsed: 24, trainMean: 8, edit: edit('structural', 2, 12, ['if added in Policy.act']), metrics: metrics(26, 4) },
  { submission: 4, parent: 2, budgetUsed: 40, trainMean: 20, edit: edit('structural', 2, 40, ['function bfs added (planner.ts)']), metrics: metrics(60, 12), validationMean: 10 },
  { submission: 5, parent: 4, budgetUsed: 48, trainMean: 20, edit: edit('parametric', 4, 3, [COSMETIC_DETAIL]), metrics: metrics(60, 12), validationMean: 15 },
  { submission: 6, parent: 5, budgetUsed: 56, trainMean: 5, edit: edit('identical', 5, 0, ['no change (same content hash)']), metrics: metrics(60, 12) },
];

describe('analysis: run diagnostics', () => {
  const d = runDiagnostics([...run].reverse());

  it('edit shares over the edits after the first, cosmetic edits counted apart', () => {
    assert.deepEqual(d.editShare.counts, { initial: 1, identical: 1, parametric: 2, structural: 2, unknown: 0 });
    assert.equal(d.editShare.structuralShare, 2 / 5);
    assert.equal(d.editShare.parametricShare, 2 / 5);
    assert.equal(d.editShare.identicalShare, 1 / 5);
    assert.equal(d.editShare.cosmetic, 1);
  });

  it('best-so-far train mean over budget, each point labelled by its edit; a tie is not a new best', () => {
    assert.deepEqual(
      d.trainProgress.map((p) => [p.submission, p.budgetUsed, p.bestSoFar, p.newBest]),
      [[1, 8, 10, true], [2, 16, 12, true], [3, 24, 12, false], [4, 40, 20, true], [5, 48, 20, false], [6, 56, 20, false]],
    );
    assert.equal(d.trainProgress[3]!.editLabel, 'structural: function bfs added (planner.ts)');
    assert.equal(d.trainProgress[0]!.editClass, 'initial');
  });

  it('effectiveness per class, on train and on the validated submissions', () => {
    const row = (c: string) => d.effectiveness.find((r) => r.editClass === c)!;
    assert.deepEqual(
      [row('parametric').trainRate, row('structural').trainRate, row('identical').trainRate],
      [1 / 2, 1 / 2, 0],
    );
    // validation order: 9 (1, best), 11 (2, best), 10 (4, no), 15 (5, best)
    assert.deepEqual([row('parametric').validatedEdits, row('parametric').newBestValidation], [2, 2]);
    assert.deepEqual([row('structural').validatedEdits, row('structural').newBestValidation, row('structural').validationRate], [1, 0, 0]);
    assert.equal(d.effectiveness.some((r) => r.editClass === 'unknown'), false);
  });

  it('edit size vs improvement: deltas against the lineage parent and the best before', () => {
    const p4 = d.sizeVsImprovement.points.find((p) => p.submission === 4)!;
    assert.deepEqual([p4.sizeBin, p4.linesChanged, p4.deltaVsParent, p4.deltaVsBest], ['large', 40, 20 - 12, 20 - 12]);
    const p3 = d.sizeVsImprovement.points.find((p) => p.submission === 3)!;
    assert.deepEqual([p3.deltaVsParent, p3.deltaVsBest], [8 - 12, 8 - 12]);
    const bins = Object.fromEntries(d.sizeVsImprovement.bins.map((b) => [b.sizeBin, [b.edits, b.meanDeltaVsParent, b.newBestRate]]));
    assert.deepEqual(bins, { none: [1, -15, 0], small: [2, 1, 0.5], medium: [1, -4, 0], large: [1, 8, 1] });
  });

  it('complexity growth over time', () => {
    assert.deepEqual(d.complexity.map((c) => [c.submission, c.sourceLines, c.cyclomaticTotal]), [[1, 20, 3], [2, 20, 3], [3, 26, 4], [4, 60, 12], [5, 60, 12], [6, 60, 12]]);
  });

  it('without validation means there is no validation curve; a missing edit counts as unknown', () => {
    const e = runDiagnostics([
      { submission: 1, parent: null, budgetUsed: 4, trainMean: 1, edit: null, metrics: null },
      { submission: 2, parent: 1, budgetUsed: 8, trainMean: null, edit: null, metrics: null },
    ]);
    assert.equal(e.validationProgress, null);
    assert.deepEqual(e.editShare.counts, { initial: 1, identical: 0, parametric: 0, structural: 0, unknown: 1 });
    assert.equal(e.editShare.structuralShare, null);
    assert.deepEqual(e.trainProgress.map((p) => p.newBest), [true, false]);
    assert.deepEqual(e.complexity, []);
  });

  it('is plain JSON (what report.json stores)', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(d)), d);
  });
});
