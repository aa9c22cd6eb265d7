/**
 * The report as every surface prints it counts a selected submission's failures where they were
 * scored: validation and held-out, at the failure return (#24: "scored with its failures counted").
 */
import * as assert from 'node:assert/strict';
import type { RunReport } from '../../../src/protocol/feedback';
import { formatReport } from '../../../src/stats/reportText';

const stats = (mean: number, okCount: number, count: number) => ({ mean, stderr: 10, std: 100, min: 0, max: 500, count, okCount });

const report = (over: Partial<RunReport> = {}): RunReport => ({
  envId: 'CartPole-v1',
  completedAt: '2026-01-01T00:00:00.000Z',
  budget: { total: 24, used: 24, remaining: 0 },
  selectionMode: 'paper',
  selected: 3,
  selectedCheckpoint: 'e2c73a52ea2378f3',
  failureReturn: 0,
  candidates: [
    { submission: 1, checkpoint: 'a', validationMean: 41.5, validationStderr: 1.2, trainMean: 42, validationCount: 64, validationOkCount: 64 },
    { submission: 2, checkpoint: 'b', validationMean: 392.8, validationStderr: 16, trainMean: 456, validationCount: 64, validationOkCount: 64 },
    { submission: 3, checkpoint: 'c', validationMean: 484.4, validationStderr: 11, trainMean: 437.5, validationCount: 64, validationOkCount: 62 },
  ],
  heldOut: stats(453, 58, 64),
  validationCurve: [],
  trainCurve: [],
  ...over,
});

describe('stats: the report text counts the failures of what it scored', () => {
  it('a selected submission with failures: ok counts beside its validation mean, and the failure return named', () => {
    const text = formatReport(report(), [{ mean: 42 }, { mean: 456 }, { mean: 437.5 }]);
    assert.match(text, /\n {2}validation mean 484 ± 11 \(ok 62\/64\) {3}train mean 438\n/);
    assert.match(text, /\n {2}held-out mean 453 ± 10 \(std 100, min 0, max 500, ok 58\/64\)\n/);
    assert.match(text, /\n {2}failed episodes \(2\/64 in validation, 6\/64 held-out\) scored at the failure return 0 in these means\n/);
    assert.match(text, /\n {2}#3 {2}validation 484 \(ok 62\/64\) {2}train 438 {2}selected\n {2}#2 {2}validation 393 {2}train 456\n/);
  });

  it('no failures: no failure line and no ok counts on the validation means', () => {
    const clean = report({ candidates: [{ submission: 3, checkpoint: 'c', validationMean: 500, validationStderr: 0, trainMean: 500, validationCount: 64, validationOkCount: 64 }], heldOut: stats(500, 64, 64) });
    const text = formatReport(clean, [{ mean: 500 }]);
    assert.doesNotMatch(text, /failed episodes|\(ok /);
    assert.match(text, /validation mean 500 ± 0 {3}train mean 500\n/);
  });
});
