/**
 * The MuJoCo replay in Chromium: recorded HalfCheetah and FetchPush episodes drawn in 3D from
 * their qpos (WebGL through three.js under the panel's strict CSP), the camera following the
 * torso, orbit by drag, zoom, the side-by-side comparison and Fetch's goal marker.
 */
import assert from 'node:assert/strict';
import type { HostToWebview } from '../../src/protocol/webview';
import type { Trajectory } from '../../src/protocol/episodes';
import type { PanelPage } from './harness';
import { recordMujocoEpisode } from './mujocoFixtures';
import { cspViolations, panelSuite } from './suite';

const cheetahLoad = (sides: { submission: number; trajectory: Trajectory }[], envId = 'HalfCheetah-v5'): HostToWebview => ({
  type: 'replay.load', envId, family: 'mujoco', caseIndex: 0,
  sides: sides.map((s) => ({ submission: s.submission, episode: null, trajectory: s.trajectory })), comparable: [],
});

async function seek(p: PanelPage, t: number): Promise<void> {
  await p.page.locator('input[data-role="scrubber"]').fill(String(t));
  await p.page.click('h1');
}

/** Distinct colours (quantized) and a small fingerprint of the scene canvas at index `i`. */
async function canvasStats(p: PanelPage, i = 0): Promise<{ colours: number; print: number[] }> {
  return p.page.evaluate((k) => {
    const c = document.querySelectorAll('canvas.scene-canvas')[k] as HTMLCanvasElement;
    const ctx = c.getContext('2d')!;
    const { data } = ctx.getImageData(0, 0, c.width, c.height);
    const seen = new Set<number>();
    const print: number[] = [];
    for (let j = 0; j < data.length; j += 4) seen.add(((data[j]! >> 4) << 8) | ((data[j + 1]! >> 4) << 4) | (data[j + 2]! >> 4));
    // Sums of colour per horizontal band: any change of the picture shows up in some band.
    for (let band = 0; band < 16; band++) {
      let sum = 0;
      for (let j = Math.floor((band * data.length) / 64) * 4; j < Math.floor(((band + 1) * data.length) / 64) * 4; j += 4) sum += data[j]! * 3 + data[j + 1]! * 5 + data[j + 2]! * 7;
      print.push(sum);
    }
    return { colours: seen.size, print };
  }, i);
}

describe('MuJoCo replay in Chromium', function () {
  this.timeout(90_000);
  const { panel } = panelSuite();
  let cheetah: Trajectory;
  let other: Trajectory;
  let push: Trajectory;
  before(async () => {
    push = await recordMujocoEpisode('FetchPush-v4', 0, 50);
    cheetah = await recordMujocoEpisode('HalfCheetah-v5', 0, 120);
    other = await recordMujocoEpisode('HalfCheetah-v5', 0, 80, (_o, t) => Float64Array.from({ length: 6 }, (_, i) => Math.cos(0.3 * t + i)));
  });

  it('draws the HalfCheetah from qpos in 3D, without CSP violations', async () => {
    const p = await panel('replay');
    await p.send(cheetahLoad([{ submission: 1, trajectory: cheetah }]));
    await p.rendered(1);
    const first = await canvasStats(p);
    assert.ok(first.colours > 12, `a shaded 3D scene, not a message (${first.colours} colours)`);
    const message = await p.page.evaluate(() => document.querySelector('canvas.scene-canvas')?.getAttribute('aria-label'));
    assert.ok(message);
    await seek(p, 60);
    const later = await canvasStats(p);
    assert.notDeepEqual(later.print, first.print, 'the pose changes with the step');
    assert.match(await p.page.textContent('dd[data-field="step"]') ?? '', /^60 of 120/);
    assert.deepEqual(cspViolations(p), []);
  });

  it('draws the Fetch robot, the table, the block and the red goal marker', async () => {
    const p = await panel('replay');
    await p.send(cheetahLoad([{ submission: 1, trajectory: push }], 'FetchPush-v4'));
    await p.rendered(1);
    await seek(p, 25);
    const stats = await canvasStats(p);
    assert.ok(stats.colours > 12, `${stats.colours} colours`);
    // The goal marker is pure red (the robot's e-stop button too, but it is a few pixels).
    const red = await p.page.evaluate(() => {
      const c = document.querySelector('canvas.scene-canvas') as HTMLCanvasElement;
      const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
      let n = 0;
      for (let j = 0; j < data.length; j += 4) if (data[j]! > 150 && data[j + 1]! < 60 && data[j + 2]! < 60) n++;
      return n;
    });
    assert.ok(red > 10, `${red} red pixels of the goal marker`);
    assert.deepEqual(cspViolations(p), []);
  });

  it('orbits on drag and zooms on the wheel', async () => {
    const p = await panel('replay');
    await p.send(cheetahLoad([{ submission: 1, trajectory: cheetah }]));
    await p.rendered(1);
    const canvas = p.page.locator('canvas.scene-canvas').first();
    const box = (await canvas.boundingBox())!;
    const before = await canvasStats(p);
    await p.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await p.page.mouse.down();
    await p.page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 30, { steps: 6 });
    await p.page.mouse.up();
    const orbited = await canvasStats(p);
    assert.notDeepEqual(orbited.print, before.print, 'dragging turns the view');
    await p.page.mouse.wheel(0, -400);
    // Playwright does not wait for the wheel event's handlers: poll for the redraw.
    let zoomed = await canvasStats(p);
    for (let i = 0; i < 20 && JSON.stringify(zoomed.print) === JSON.stringify(orbited.print); i++) {
      await p.page.waitForTimeout(100);
      zoomed = await canvasStats(p);
    }
    assert.notDeepEqual(zoomed.print, orbited.print, 'the wheel zooms');
    assert.deepEqual(cspViolations(p), []);
  });

  it('compares two episodes side by side, each drawn in 3D', async () => {
    const p = await panel('replay');
    await p.send(cheetahLoad([{ submission: 1, trajectory: cheetah }, { submission: 2, trajectory: other }]));
    await p.rendered(1);
    assert.equal(await p.page.locator('canvas.scene-canvas').count(), 2);
    await seek(p, 70);
    const [a, b] = [await canvasStats(p, 0), await canvasStats(p, 1)];
    assert.ok(a.colours > 12 && b.colours > 12);
    assert.notDeepEqual(a.print, b.print, 'different episodes, different poses');
    assert.deepEqual(cspViolations(p), []);
  });
});
