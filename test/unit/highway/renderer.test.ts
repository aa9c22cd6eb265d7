import * as assert from 'node:assert/strict';
import { createRegistry } from '../../../src/envs';
import type { DrivingEnv } from '../../../src/envs/highway/drivingEnv';
import { highwayRenderer, lanePoint, laneLength, parseDrivingSnapshot, parkingRenderer } from '../../../webview-ui/replay/renderers/highway';
import { rendererFor } from '../../../webview-ui/replay/renderers';
import { fallbackRenderer } from '../../../webview-ui/replay/renderers/fallback';
import type { SceneContext } from '../../../webview-ui/replay/renderers/registry';

const registry = createRegistry();
const IDS = ['highway-v0', 'highway-fast-v0', 'merge-v0', 'roundabout-v0', 'intersection-v0', 'parking-v0'];

interface Recording {
  ctx: CanvasRenderingContext2D;
  fills: { style: string; x: number; y: number }[];
  strokes: () => number;
}

/** A 2D context that records fills with their colour and the transform's translation. */
function recordingContext(): Recording {
  const fills: { style: string; x: number; y: number }[] = [];
  const stack: [number, number][] = [];
  let [tx, ty] = [0, 0];
  let strokes = 0;
  const ctx = {
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    lineCap: 'butt',
    font: '',
    textAlign: 'start',
    textBaseline: 'alphabetic',
    save: () => stack.push([tx, ty]),
    restore: () => ([tx, ty] = stack.pop() ?? [0, 0]),
    translate: (x: number, y: number) => {
      tx += x;
      ty += y;
    },
    rotate: () => undefined,
    fillRect: () => fills.push({ style: String(ctx.fillStyle), x: tx, y: ty }),
    strokeRect: () => strokes++,
    beginPath: () => undefined,
    moveTo: () => undefined,
    lineTo: () => undefined,
    stroke: () => strokes++,
    setLineDash: () => undefined,
    fillText: () => undefined,
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, fills, strokes: () => strokes };
}

const theme = { kind: 'dark', foreground: '#fff', muted: '#999', background: '#000', grid: '#333', border: '#222', accent: '#07f', red: 'red', green: 'green', blue: 'blue', yellow: 'yellow', orange: 'orange', purple: 'purple', font: 'sans', editClasses: {} } as unknown as SceneContext['theme'];

describe('driving replay renderer', () => {
  it('is chosen for every driving id, parking at its 5 Hz decision rate', () => {
    for (const id of IDS) {
      const r = rendererFor(registry.get(id).family, fallbackRenderer);
      assert.equal(r, id === 'parking-v0' ? parkingRenderer : highwayRenderer, id);
    }
    assert.equal(parkingRenderer.stepsPerSecond, 5);
  });

  for (const id of IDS) {
    it(`${id}: the snapshot's lane shapes are the environment's lanes`, () => {
      const { env } = registry.make(id);
      env.reset({ seed: 1 });
      const snap = parseDrivingSnapshot(env.snapshot());
      assert.ok(snap && snap.lanes, 'first snapshot carries the lanes');
      const lanes = (env.inner as unknown as DrivingEnv<unknown>).road.network.lanes();
      assert.equal(snap.lanes.length, lanes.length);
      snap.lanes.forEach((shape, k) => {
        const lane = lanes[k]!.lane;
        assert.ok(Math.abs(laneLength(shape) - lane.length) < 1e-9);
        for (const [s, lat] of [
          [0, 0],
          [lane.length / 3, 1.5],
          [lane.length, -2],
        ] as const) {
          const [x, y] = lanePoint(shape, s, lat);
          const [ex, ey] = lane.position(s, lat);
          assert.ok(Math.hypot(x - ex, y - ey) < 1e-6, `${id} lane ${k} at (${s}, ${lat})`);
        }
      });
      const next = parseDrivingSnapshot(env.snapshot());
      assert.equal(next?.lanes, null, 'later snapshots only name the road');
      assert.equal(next?.road, snap.road);
    });
  }

  it('draws the road, the traffic and the highlighted ego vehicle at the centre', () => {
    const { env } = registry.make('roundabout-v0');
    env.reset({ seed: 2 });
    const first = env.snapshot();
    env.step(1);
    const later = env.snapshot();
    const rec = recordingContext();
    const sc: SceneContext = { ctx: rec.ctx, width: 400, height: 200, theme };
    highwayRenderer.draw(sc, first, { index: 0, action: undefined, reward: undefined });
    const rec2 = recordingContext();
    highwayRenderer.draw({ ...sc, ctx: rec2.ctx }, later, { index: 1, action: 1, reward: 0.5 });
    const egoFill = rec2.fills.find((f) => f.style === 'yellow');
    assert.ok(egoFill, 'ego drawn in the highlight colour');
    assert.deepEqual([egoFill.x, egoFill.y], [200, 100], 'the camera follows the ego vehicle');
    // The snapshot holds the vehicles within the view's width of the ego: three here (a fourth is farther).
    assert.equal((later as { vehicles: unknown[] }).vehicles.length, 4);
    assert.equal(rec2.fills.filter((f) => f.style === 'blue').length, 3, 'three other vehicles');
    assert.ok(rec2.strokes() > 32, 'lane surfaces and markings drawn from the remembered road');
    assert.match(highwayRenderer.describe(later), /^ego at \(-?\d+\.\d, -?\d+\.\d\) m, \d+\.\d m\/s; 3 other vehicles/);
  });

  it('frames the whole parking lot with the goal spot', () => {
    const { env } = registry.make('parking-v0');
    env.reset({ seed: 3 });
    const rec = recordingContext();
    parkingRenderer.draw({ ctx: rec.ctx, width: 320, height: 200, theme }, env.snapshot(), { index: 0, action: undefined, reward: undefined });
    assert.ok(rec.fills.some((f) => f.style.startsWith('rgba(56,138,52')), 'goal spot');
    assert.equal(rec.fills.filter((f) => f.style === '#999').length, 4, 'four walls');
    assert.match(parkingRenderer.describe(env.snapshot()), /goal at/);
  });

  it('draws parking from its observations when no snapshots were recorded', () => {
    const { env } = registry.make('parking-v0');
    const obs = env.reset({ seed: 3 }).observation as Record<string, Float64Array>;
    const json = Object.fromEntries(Object.entries(obs).map(([k, v]) => [k, Array.from(v)]));
    const scene = parseDrivingSnapshot(parkingRenderer.fromObservation?.(json, undefined));
    const truth = parseDrivingSnapshot(env.snapshot());
    assert.ok(scene && truth && scene.goal && truth.goal);
    // Snapshots keep millimetres and milliradians.
    assert.ok(Math.abs(scene.vehicles[0]!.x - truth.vehicles[0]!.x) <= 5e-4 && Math.abs(scene.goal.y - truth.goal.y) <= 5e-4);
    assert.ok(Math.abs(Math.cos(scene.vehicles[0]!.h - truth.vehicles[0]!.h) - 1) < 1e-6);
    assert.equal(parkingRenderer.fromObservation?.([1, 2, 3], undefined), null);
  });

  it('says so when the snapshot is not a driving scene', () => {
    assert.equal(parseDrivingSnapshot({ x: 1 }), null);
    assert.equal(highwayRenderer.describe(null), 'no driving scene');
  });
});
