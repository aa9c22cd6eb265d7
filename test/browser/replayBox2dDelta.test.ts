/**
 * The replay panel reads BipedalWalker, LunarLander and CarRacing trajectories as the runner stores them
 * (the ground, moon or track once, then each step's body poses): for the same episode, the stored form and the plain form draw
 * the same scene and read out the same observation at every step looked at (CarRacing keeps no frames in either form).
 */
import assert from 'node:assert/strict';
import { parseTrajectory } from '../../src/extension/panels/runFiles';
import type { HostToWebview } from '../../src/protocol/webview';
import { CAR_DELTA_FORMAT } from '../../src/protocol/carTrajectory';
import { LANDER_DELTA_FORMAT } from '../../src/protocol/landerTrajectory';
import { WALKER_DELTA_FORMAT } from '../../src/protocol/walkerTrajectory';
import { record } from '../unit/box2d/deltaFixture';
import { trajectoryFileText } from '../unit/minigrid/deltaFixture';
import { replayFrames } from './replayFrames';
import { cspViolations, panelSuite } from './suite';

const CASES = [
  { envId: 'BipedalWalkerHardcore-v3', family: 'box2d/bipedalwalker', format: WALKER_DELTA_FORMAT, describes: /walker hull at x=[\d.]+ m/ },
  { envId: 'LunarLander-v3', family: 'box2d/lunarlander', format: LANDER_DELTA_FORMAT, describes: /lander near x=-?[\d.]+, y=-?[\d.]+/ },
  { envId: 'CarRacing-v3', family: 'box2d/carracing', format: CAR_DELTA_FORMAT, describes: /car on tile count \d+ of \d+ visited/, frameless: true },
];
const load = (envId: string, family: string, trajectory: unknown): HostToWebview => ({
  type: 'replay.load', envId, family, caseIndex: 0,
  sides: [{ submission: 1, episode: null, trajectory: trajectory as never }], comparable: [], returnScale: 1,
});

describe('replay of Box2D trajectories stored as poses, in Chromium', function () {
  this.timeout(60_000);
  const { panel } = panelSuite();

  for (const c of CASES) {
    it(`${c.envId}: draws and reads out every looked-at step as the plain trajectory does`, async () => {
      const { plain: recorded, compact } = record(c.envId, 3, 120);
      const plain = c.frameless ? { ...recorded, steps: recorded.steps.map(({ observation: _frame, ...s }) => s) } : recorded;
      const stored = parseTrajectory(trajectoryFileText(compact, plain.steps.length));
      assert.ok(typeof stored !== 'string', String(stored));
      assert.equal(compact.format, c.format);
      const n = plain.steps.length;
      const steps = [0, 1, 2, Math.floor(n / 3), Math.floor(n / 2), n - 1];
      const a = await panel('replay');
      await a.send(load(c.envId, c.family, { ...plain, truncated: false }));
      await a.rendered(1);
      const b = await panel('replay');
      await b.send(load(c.envId, c.family, stored));
      await b.rendered(1);
      assert.equal(await b.page.textContent('.step-label'), `0 / ${n}`);
      const want = await replayFrames(a, steps);
      assert.match(want[want.length - 1]!.described, c.describes);
      assert.deepEqual(await replayFrames(b, steps), want);
      assert.deepEqual(cspViolations(b), []);
    });
  }
});
