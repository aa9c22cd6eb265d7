/**
 * The Box2D and driving replay renderers in Chromium, light and dark, on episodes recorded from
 * the real environments: LunarLander (moon, flags, lander), BipedalWalker (terrain, walker,
 * lidar), CarRacing (track, tiles, car), the roundabout and the parking lot. Each scene must be
 * drawn (not a flat canvas, not the renderer's "no state" message), move between the first and
 * the last frame, and is kept as a screenshot in test-results/webview/.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { HostToWebview } from '../../src/protocol/webview';
import type { Trajectory } from '../../src/protocol/episodes';
import { box2dTrajectory } from '../unit/box2d/replayFixture';
import { drivingTrajectory } from '../unit/highway/replayFixture';
import type { PanelPage } from './harness';
import { cspViolations, panelSuite } from './suite';
import type { ThemeName } from './themes';

const OUT = resolve('test-results/webview');

interface Scene {
  name: string;
  envId: string;
  family: string;
  trajectory: () => Trajectory;
  describes: RegExp;
}

const SCENES: Scene[] = [
  { name: 'lunarlander', envId: 'LunarLander-v3', family: 'box2d/lunarlander', trajectory: () => box2dTrajectory('LunarLander-v3', 3, 90), describes: /lander near x=-?[\d.]+, y=-?[\d.]+/ },
  { name: 'bipedalwalker', envId: 'BipedalWalker-v3', family: 'box2d/bipedalwalker', trajectory: () => box2dTrajectory('BipedalWalker-v3', 3, 90), describes: /walker hull at x=[\d.]+ m/ },
  { name: 'carracing', envId: 'CarRacing-v3', family: 'box2d/carracing', trajectory: () => box2dTrajectory('CarRacing-v3', 3, 30), describes: /car on tile count \d+ of \d+ visited/ },
  { name: 'roundabout', envId: 'roundabout-v0', family: 'highway', trajectory: () => drivingTrajectory('roundabout-v0', 3), describes: /ego at .* m\/s.*other vehicles/ },
  { name: 'parking', envId: 'parking-v0', family: 'highway/parking', trajectory: () => drivingTrajectory('parking-v0', 4), describes: /ego at .*goal at/ },
];

interface Pixels {
  /** Share of pixels off the most common colour. */
  drawnShare: number;
  /** Colours that fill at least 20 pixels (anti-aliasing adds many rare ones). */
  colours: number;
  /** Share of pixels that differ from the frame read before this one (1 for the first read). */
  changed: number;
}

/** Reads the scene canvas in the page, keeping the frame there to compare the next read with. */
async function canvasPixels(p: PanelPage): Promise<Pixels> {
  return p.page.$eval('section.scene canvas.scene-canvas', (c) => {
    const cv = c as HTMLCanvasElement;
    const data = (cv.getContext('2d') as CanvasRenderingContext2D).getImageData(0, 0, cv.width, cv.height).data;
    const w = window as unknown as { __pfLastFrame?: Uint8ClampedArray };
    const before = w.__pfLastFrame;
    w.__pfLastFrame = data;
    const counts = new Map<number, number>();
    let changed = 0;
    for (let i = 0; i < data.length; i += 4) {
      const key = ((data[i] as number) << 16) | ((data[i + 1] as number) << 8) | (data[i + 2] as number);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (before === undefined || before.length !== data.length || before[i] !== data[i] || before[i + 1] !== data[i + 1] || before[i + 2] !== data[i + 2]) changed++;
    }
    const n = data.length / 4;
    return { drawnShare: 1 - Math.max(...counts.values()) / n, colours: [...counts.values()].filter((k) => k >= 20).length, changed: changed / n };
  });
}

async function seek(p: PanelPage, t: number): Promise<void> {
  await p.page.locator('input[data-role="scrubber"]').fill(String(t));
  await p.page.click('h1');
}

describe('Box2D and driving replays in Chromium', function () {
  this.timeout(120_000);
  const { panel } = panelSuite();
  before(() => mkdirSync(OUT, { recursive: true }));

  for (const scene of SCENES) {
    let trajectory: Trajectory | undefined;
    for (const theme of ['light', 'dark'] as ThemeName[]) {
      it(`${scene.envId} (${theme}): first and last frames are drawn scenes`, async () => {
        trajectory ??= scene.trajectory();
        const last = trajectory.steps.length;
        const load: HostToWebview = { type: 'replay.load', envId: scene.envId, family: scene.family, caseIndex: 0, comparable: [], returnScale: 1, sides: [{ submission: 1, episode: null, trajectory }] };
        const p = await panel('replay', { theme, height: 1000 });
        await p.send(load);
        await p.rendered(1);
        const desc = async (): Promise<string> => (await p.page.textContent('section.scene p.sr-only')) ?? '';

        await seek(p, 0);
        assert.match(await desc(), scene.describes, 'the renderer read the recorded state');
        const first = await canvasPixels(p);
        await seek(p, last);
        assert.match(await desc(), new RegExp(`step ${last}: `));
        assert.match(await desc(), scene.describes);
        const end = await canvasPixels(p);

        for (const [which, px] of [['first', first], ['last', end]] as const) {
          assert.ok(px.drawnShare >= 0.02, `${which} frame: ${(px.drawnShare * 100).toFixed(2)} % of pixels off the dominant colour`);
          assert.ok(px.colours >= 4, `${which} frame: ${px.colours} colours`);
        }
        assert.ok(end.changed >= 0.002, `last frame differs from the first in ${(end.changed * 100).toFixed(3)} % of pixels`);
        assert.deepEqual(cspViolations(p), []);
        assert.deepEqual(p.console.filter((l) => l.startsWith('error')), []);

        const height = await p.page.evaluate(() => document.documentElement.scrollHeight);
        await p.page.setViewportSize({ width: 1280, height: Math.max(1000, height) });
        await seek(p, Math.min(last, Math.max(1, Math.round(last * 0.6))));
        await p.page.waitForTimeout(200);
        await p.page.screenshot({ path: join(OUT, `replay-${scene.name}-${theme}.png`), fullPage: true });
      });
    }
  }
});
