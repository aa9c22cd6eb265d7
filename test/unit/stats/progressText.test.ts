/** How every surface names a batch of the finish, the baselines included. */
import assert from 'node:assert/strict';
import type { ProgressNotification } from '../../../src/protocol/run';
import { finishingText, progressBatch, progressLabel, progressText } from '../../../src/stats/progressText';

const p = (over: Partial<ProgressNotification>): ProgressNotification => ({ phase: 'assessment', submission: null, done: 1, total: 4, ...over });

describe('progress text: the baselines are batches of their own', () => {
  it('names each baseline; an older runner that names none ran the starter', () => {
    assert.equal(progressText(p({ baseline: 'uniform-random' })), 'uniform-random baseline: 1/4 episodes');
    assert.equal(progressLabel(p({ baseline: 'starter' })), 'starter baseline');
    assert.equal(progressLabel(p({})), 'starter baseline');
    assert.equal(progressLabel(p({ submission: 7 })), 'assessment of submission 7');
  });

  it('one batch per baseline, so a surface that adds phases up never counts backwards', () => {
    const batches = [p({ baseline: 'starter' }), p({}), p({ baseline: 'uniform-random' }), p({ submission: 3 }), p({ phase: 'validation' }), p({ phase: 'submit', submission: 3 })].map(progressBatch);
    assert.equal(batches[0], batches[1], 'the starter, named or not');
    assert.equal(new Set(batches).size, batches.length - 1);
  });

  it('status names the baseline being assessed', () => {
    const f = { phase: 'baseline' as const, candidatesDone: 0, candidatesTotal: 0, episodesDone: 2, episodesTotal: 4 };
    assert.equal(finishingText({ ...f, baseline: 'uniform-random' }), 'assessing the uniform-random policy (a baseline) on the held-out cases: 2/4 episodes');
    assert.equal(finishingText(f), 'assessing the starter policy (a baseline) on the held-out cases: 2/4 episodes');
  });
});
