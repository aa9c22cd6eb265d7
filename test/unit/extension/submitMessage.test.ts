/** The notification a finished submit leaves: a practice submission says practice and gives the practice budget, not the untouched main one. */
import { strict as assert } from 'node:assert';
import { submitResultMessage } from '../../../src/extension/progress/submitMessage';
import type { SubmissionSummary } from '../../../src/protocol/feedback';
import { historyScoreFormat } from '../../../src/stats/scoreFormat';

type Parts = Pick<SubmissionSummary, 'submission' | 'stats' | 'budget' | 'edit' | 'practice'>;

const summary = (over: Partial<Parts>): SubmissionSummary => ({
  submission: 2,
  stats: { count: 8, okCount: 6, mean: 0.419, stderr: 0.161, std: 0.455, min: 0, max: 0.95 },
  budget: { total: 64, used: 16, remaining: 48 },
  edit: { class: 'identical' },
  ...over,
}) as unknown as SubmissionSummary;

describe('extension: the submit result notification', () => {
  const fmt = historyScoreFormat(undefined);

  it('gives a run submission its result, edit class and the main budget left', () => {
    const text = submitResultMessage(summary({ practice: undefined }), fmt);
    assert.equal(text, `Submission #2: ${fmt.meanStderr(0.419, 0.161)} over 8 episodes, 2 failed (identical) · 48 left`);
  });

  it('marks a practice submission, names its configuration and gives the practice budget left', () => {
    const practice = { params: { size: 5, key_placement: 'anywhere' }, budget: { total: 64, used: 8, remaining: 56 } };
    const text = submitResultMessage(summary({ practice }), fmt);
    assert.equal(text, `Practice submission #2 (size=5, key_placement=anywhere): ${fmt.meanStderr(0.419, 0.161)} over 8 episodes, 2 failed · 56 of the practice budget left; never selected`);
    assert.ok(!text.includes('48'), 'the main budget, which practice does not touch, is not the one given');
  });
});
