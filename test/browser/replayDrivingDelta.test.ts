/**
 * The replay panel reads driving trajectories as the runner stores them (highway-delta/1: the
 * road once, then vehicle rows and what changed per step): for the same episode, the stored form
 * and the plain form draw the same pixels and read out the same observation at every step looked
 * at.
 */
import assert from 'node:assert/strict';
import { parseTrajectory } from '../../src/extension/panels/runFiles';
import { parseRecordedTrajectory } from '../../src/protocol/episodes';
import { HIGHWAY_DELTA_FORMAT } from '../../src/protocol/highwayTrajectory';
import type { HostToWebview } from '../../src/protocol/webview';
import { recordDriving } from '../unit/highway/deltaFixture';
import { trajectoryFileText } from '../unit/minigrid/deltaFixture';
import { replayFrames } from './replayFrames';
import { cspViolations, panelSuite } from './suite';

const load = (envId: string, trajectory: unknown): HostToWebview => ({
  type: 'replay.load', envId, family: 'highway', caseIndex: 0,
  sides: [{ submission: 1, episode: null, trajectory: trajectory as never }], comparable: [], returnScale: 1,
});

describe('replay of driving trajectories stored as vehicle rows, in Chromium', function () {
  this.timeout(60_000);
  const { panel } = panelSuite();

  for (const envId of ['highway-v0', 'intersection-v0', 'parking-v0']) {
    it(`${envId}: draws and reads out every looked-at step as the plain trajectory does`, async () => {
      const { plain, compact } = recordDriving(envId, 3, 80);
      assert.equal(compact.format, HIGHWAY_DELTA_FORMAT);
      const stored = parseTrajectory(trajectoryFileText(compact, compact.stepCount));
      assert.ok(typeof stored !== 'string', String(stored));
      const want = JSON.parse(JSON.stringify(parseRecordedTrajectory(plain))) as unknown;
      const n = compact.stepCount;
      const at = [0, 1, Math.floor(n / 2), n - 1];
      const a = await panel('replay');
      await a.send(load(envId, want));
      await a.rendered(1);
      const b = await panel('replay');
      await b.send(load(envId, stored));
      await b.rendered(1);
      const frames = await replayFrames(a, at);
      assert.ok(new Set(frames.map((f) => f.scene)).size > 1, 'the picture changes over the episode');
      assert.deepEqual(await replayFrames(b, at), frames);
      assert.deepEqual(cspViolations(b), []);
    });
  }
});
