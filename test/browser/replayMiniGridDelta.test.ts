/**
 * The replay panel reads MiniGrid trajectories as the runner stores them (the world once, then
 * each step's changes): for the same episode, the stored form and the plain form draw the same
 * scene and the same 7×7 view and read out the same observation at every step looked at.
 */
import assert from 'node:assert/strict';
import { parseTrajectory } from '../../src/extension/panels/runFiles';
import type { HostToWebview } from '../../src/protocol/webview';
import { record, trajectoryFileText } from '../unit/minigrid/deltaFixture';
import { replayFrames } from './replayFrames';
import { cspViolations, panelSuite } from './suite';

const { plain, compact } = record('MiniGrid-DoorKey-6x6-v0', 4, 60);
const stored = parseTrajectory(trajectoryFileText(compact, plain.steps.length));
const load = (trajectory: unknown): HostToWebview => ({
  type: 'replay.load', envId: 'MiniGrid-DoorKey-6x6-v0', family: 'minigrid', caseIndex: 0,
  sides: [{ submission: 1, episode: null, trajectory: trajectory as never }], comparable: [], returnScale: 1,
});

describe('replay of a MiniGrid trajectory stored as changes, in Chromium', function () {
  this.timeout(60_000);
  const { panel } = panelSuite();

  it('draws and reads out every looked-at step as the plain trajectory does', async () => {
    assert.ok(typeof stored !== 'string', String(stored));
    assert.ok(compact.stepsJsonl.split('\n').some((l) => l.includes('"cells"')), 'the episode changes the world');
    const n = plain.steps.length;
    const steps = [0, 1, 2, Math.floor(n / 3), Math.floor(n / 2), n - 1];
    const a = await panel('replay');
    await a.send(load({ ...plain, truncated: false }));
    await a.rendered(1);
    const b = await panel('replay');
    await b.send(load(stored));
    await b.rendered(1);
    assert.equal(await b.page.textContent('.step-label'), `0 / ${n}`);
    assert.equal(await b.page.locator('section[aria-label="Steps"] tbody tr').count(), n);
    assert.deepEqual(await replayFrames(b, steps, { view: true }), await replayFrames(a, steps, { view: true }));
    assert.deepEqual(cspViolations(b), []);
  });
});
