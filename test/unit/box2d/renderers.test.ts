import * as assert from 'node:assert/strict';
import { createRegistry } from '../../../src/envs';
import { rendererFor } from '../../../webview-ui/replay/renderers';
import { bipedalWalkerRenderer, carRacingRenderer, lunarLanderRenderer } from '../../../webview-ui/replay/renderers/box2d';
import { fallbackRenderer } from '../../../webview-ui/replay/renderers/fallback';
import type { SceneContext } from '../../../webview-ui/replay/renderers/registry';

/** A 2D context that records every filled path's colour and its points. */
function recordingContext(): { ctx: CanvasRenderingContext2D; fills: { style: string; points: [number, number][] }[]; strokes: () => number; messages: string[] } {
  const fills: { style: string; points: [number, number][] }[] = [];
  const messages: string[] = [];
  let path: [number, number][] = [];
  let strokes = 0;
  const ctx = {
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    font: '',
    textAlign: 'start',
    textBaseline: 'alphabetic',
    fillRect: (x: number, y: number, w: number, h: number) => fills.push({ style: String(ctx.fillStyle), points: [[x, y], [x + w, y + h]] }),
    beginPath: () => (path = []),
    moveTo: (x: number, y: number) => path.push([x, y]),
    lineTo: (x: number, y: number) => path.push([x, y]),
    arc: (x: number, y: number) => path.push([x, y]),
    closePath: () => undefined,
    fill: () => fills.push({ style: String(ctx.fillStyle), points: path }),
    stroke: () => strokes++,
    fillText: (text: string) => messages.push(text),
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, fills, strokes: () => strokes, messages };
}

const theme = { kind: 'dark', foreground: '#fff', muted: '#999', background: '#000', red: 'red', green: 'green', blue: 'blue', orange: 'orange', font: 'sans' } as unknown as SceneContext['theme'];
const registry = createRegistry();

function drawAfter(id: string, steps: number, action: (t: number) => unknown): ReturnType<typeof recordingContext> {
  const { env, definition } = registry.make(id);
  env.reset({ seed: 2 });
  for (let t = 0; t < steps; t++) {
    const r = env.step(action(t));
    if (r.terminated || r.truncated) break;
  }
  const snapshot = JSON.parse(JSON.stringify(env.snapshot()));
  const rec = recordingContext();
  const renderer = rendererFor(definition.family, fallbackRenderer);
  renderer.draw({ ctx: rec.ctx, width: 600, height: 400, theme }, snapshot, { index: steps, action: undefined, reward: 0 });
  assert.ok(renderer.describe(snapshot).length > 0);
  return rec;
}

const onCanvas = (p: [number, number]): boolean => p[0] >= -1 && p[0] <= 601 && p[1] >= -1 && p[1] <= 401;

describe('Box2D replay renderers', () => {
  it('each Box2D family has its renderer', () => {
    assert.equal(rendererFor('box2d/lunarlander', fallbackRenderer), lunarLanderRenderer);
    assert.equal(rendererFor('box2d/bipedalwalker', fallbackRenderer), bipedalWalkerRenderer);
    assert.equal(rendererFor('box2d/carracing', fallbackRenderer), carRacingRenderer);
  });

  it('lander: moon, flags, legs and lander inside the canvas', () => {
    const rec = drawAfter('LunarLander-v3', 20, () => 0);
    assert.deepEqual(rec.messages, []);
    const lander = rec.fills.filter((f) => f.style === 'blue');
    assert.equal(lander.length, 3, 'two legs and the body');
    assert.ok(lander.every((f) => f.points.every(onCanvas)));
    assert.equal(rec.fills.filter((f) => f.style === 'orange').length >= 2, true, 'two flags');
  });

  it('walker: terrain, lidar rays and the walker around the hull', () => {
    const rec = drawAfter('BipedalWalker-v3', 30, () => Float64Array.of(0.3, -0.3, -0.3, 0.3));
    assert.deepEqual(rec.messages, []);
    assert.ok(rec.strokes() >= 10, 'ten lidar rays');
    assert.ok(rec.fills.some((f) => f.style === 'green' && f.points.length > 20), 'a terrain window');
    const hull = rec.fills.find((f) => f.style === 'orange');
    assert.ok(hull && hull.points.every(onCanvas));
  });

  it('car: track tiles around the car and the car at the camera point', () => {
    const rec = drawAfter('CarRacing-v3', 60, () => Float64Array.of(0, 0.5, 0));
    assert.deepEqual(rec.messages, []);
    assert.ok(rec.fills.filter((f) => f.style === '#666666' || f.style === '#7a7a7a').length > 10);
    const car = rec.fills.find((f) => f.style === '#cc0000');
    assert.ok(car && car.points.every(([x, y]) => Math.abs(x - 300) < 40 && Math.abs(y - 280) < 40));
  });

  it('a malformed snapshot draws a message, not an exception', () => {
    for (const r of [lunarLanderRenderer, bipedalWalkerRenderer, carRacingRenderer]) {
      const rec = recordingContext();
      r.draw({ ctx: rec.ctx, width: 600, height: 400, theme }, { hull: 'nope' }, { index: 0, action: undefined, reward: undefined });
      assert.equal(rec.messages.length, 1);
    }
  });
});
