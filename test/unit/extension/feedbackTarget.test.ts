import * as assert from 'node:assert/strict';
import { feedbackTarget } from '../../../src/extension/commands/feedbackTarget';
import type { SubmissionSummary } from '../../../src/protocol/feedback';

type Ep = SubmissionSummary['episodes'][number];
const ep = (caseIndex: number, status: Ep['status']): Ep => ({ caseIndex, status }) as Ep;
const files = (evicted: boolean): SubmissionSummary['files'] => ({ trajectories: evicted ? [] : ['x'], logs: [], evicted });

describe('extension: Open Feedback target', () => {
  it('replays the first failed episode, so its error is on screen', () => {
    assert.deepEqual(feedbackTarget({ submission: 4, episodes: [ep(3, 'ok'), ep(5, 'exception'), ep(6, 'timeout')], files: files(false) }), { panel: 'replay', submission: 4, caseIndex: 5 });
  });
  it('opens the dashboard when every episode succeeded or the trajectories were evicted', () => {
    assert.deepEqual(feedbackTarget({ submission: 2, episodes: [ep(0, 'ok'), ep(1, 'ok')], files: files(false) }), { panel: 'dashboard', submission: 2 });
    assert.deepEqual(feedbackTarget({ submission: 1, episodes: [ep(0, 'exception')], files: files(true) }), { panel: 'dashboard', submission: 1 });
  });
});
