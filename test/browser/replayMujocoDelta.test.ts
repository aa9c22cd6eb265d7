/**
 * The replay panel reads MuJoCo trajectories as the runner stores them (mujoco-delta/1: the
 * scene once, then qpos in thousandths per step): for the same episode, the stored form and the
 * plain form draw the same 3D pixels and describe the same pose at every step looked at.
 */
import assert from 'node:assert/strict';
import { parseTrajectory } from '../../src/extension/panels/runFiles';
import { MUJOCO_DELTA_FORMAT } from '../../src/protocol/mujocoTrajectory';
import type { HostToWebview } from '../../src/protocol/webview';
import { trajectoryFileText } from '../unit/minigrid/deltaFixture';
import { recordMujoco } from '../unit/mujoco/deltaFixture';
import { replayFrames } from './replayFrames';
import { cspViolations, panelSuite } from './suite';

const load = (envId: string, trajectory: unknown): HostToWebview => ({
  type: 'replay.load', envId, family: 'mujoco', caseIndex: 0,
  sides: [{ submission: 1, episode: null, trajectory: trajectory as never }], comparable: [], returnScale: 1,
});

describe('replay of MuJoCo trajectories stored as qpos, in Chromium', function () {
  this.timeout(90_000);
  const { panel } = panelSuite();

  for (const [envId, steps] of [['HalfCheetah-v5', 120], ['FetchPush-v4', 50]] as const) {
    it(`${envId}: draws every looked-at step as the plain trajectory does`, async () => {
      const { plain, compact } = await recordMujoco(envId, 3, steps);
      assert.equal(compact.format, MUJOCO_DELTA_FORMAT);
      const stored = parseTrajectory(trajectoryFileText(compact, plain.steps.length));
      assert.ok(typeof stored !== 'string', String(stored));
      const n = plain.steps.length;
      const at = [0, 1, Math.floor(n / 3), n - 1];
      const a = await panel('replay');
      await a.send(load(envId, { ...plain, truncated: false }));
      await a.rendered(1);
      const b = await panel('replay');
      await b.send(load(envId, stored));
      await b.rendered(1);
      assert.equal(await b.page.textContent('.step-label'), `0 / ${n}`);
      // The stored form keeps no observation: the scene and its description are what must agree.
      const strip = (f: { scene: string; described: string }): { scene: string; described: string } => ({ scene: f.scene, described: f.described });
      const want = (await replayFrames(a, at)).map(strip);
      assert.ok(new Set(want.map((f) => f.scene)).size > 1, 'the picture changes over the episode');
      assert.deepEqual((await replayFrames(b, at)).map(strip), want);
      assert.deepEqual(cspViolations(b), []);
    });
  }
});
