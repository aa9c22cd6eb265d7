import * as assert from 'node:assert/strict';
import { createRegistry } from '../../../src/envs';
import { InvalidActionError } from '../../../src/envs/highway/actions';
import type { DrivingEnv } from '../../../src/envs/highway/drivingEnv';
import { CircularLane, SineLane, StraightLane } from '../../../src/envs/highway/lanes';
import { pyMod, roundHalfEven, wrapToPi } from '../../../src/envs/highway/math';
import { RoadNetwork } from '../../../src/envs/highway/network';
import { polygonsIntersecting } from '../../../src/envs/highway/objects';

const IDS = ['highway-v0', 'highway-fast-v0', 'merge-v0', 'roundabout-v0', 'intersection-v0', 'parking-v0'];
const registry = createRegistry();

const actionFor = (id: string, t: number): unknown => (id === 'parking-v0' ? Float64Array.of(Math.fround(Math.sin(t)), Math.fround(Math.cos(0.7 * t))) : id === 'intersection-v0' ? t % 3 : t % 5);

describe('driving environments', () => {
  it('lists the six HighwayEnv ids in the highway family', () => {
    for (const id of IDS) assert.equal(registry.get(id).family, id === 'parking-v0' ? 'highway/parking' : 'highway', id);
  });

  for (const id of IDS) {
    it(`${id}: a seed fixes the episode, another seed changes it`, () => {
      const a = registry.make(id).env;
      const b = registry.make(id).env;
      a.reset({ seed: 3 });
      b.reset({ seed: 3 });
      assert.deepEqual(a.getState(), b.getState());
      b.reset({ seed: 4 });
      assert.notDeepEqual(a.getState(), b.getState());
    });

    it(`${id}: a saved state resumes the episode exactly (pending impacts and yielding included)`, () => {
      const { env } = registry.make(id);
      env.reset({ seed: 11 });
      for (let t = 0; t < 2; t++) env.step(actionFor(id, t));
      const saved = JSON.parse(JSON.stringify(env.getState())) as unknown;
      const first: unknown[] = [];
      for (let t = 2; t < 5; t++) {
        const r = env.step(actionFor(id, t));
        first.push(JSON.parse(JSON.stringify({ ...r, observation: ArrayBuffer.isView(r.observation) ? Array.from(r.observation as Float64Array) : r.observation, state: env.getState() })));
        if (r.terminated || r.truncated) break;
      }
      const { env: other } = registry.make(id);
      other.reset({ seed: 99 });
      other.setState(saved);
      const second: unknown[] = [];
      for (let t = 2; t < 2 + first.length; t++) {
        const r = other.step(actionFor(id, t));
        second.push(JSON.parse(JSON.stringify({ ...r, observation: ArrayBuffer.isView(r.observation) ? Array.from(r.observation as Float64Array) : r.observation, state: other.getState() })));
      }
      assert.deepEqual(second, first);
    });

    it(`${id}: an invalid action is refused before anything moves`, () => {
      const { env } = registry.make(id);
      env.reset({ seed: 1 });
      const before = JSON.stringify(env.getState());
      assert.throws(() => env.step(id === 'parking-v0' ? [0.5] : 7), InvalidActionError);
      assert.throws(() => env.step(id === 'parking-v0' ? 'left' : 1.5), InvalidActionError);
      assert.equal(JSON.stringify(env.getState()), before);
    });
  }

  it('highway-v0: 4 lanes, 50 others, 15 Hz: one decision is 15 simulation steps, truncation at duration', () => {
    const { env } = registry.make('highway-v0', { duration: 2 });
    env.reset({ seed: 5 });
    const state = env.getState() as { inner: { vehicles: unknown[] } };
    assert.equal(state.inner.vehicles.length, 51);
    const first = env.step(1);
    assert.equal((env.getState() as { inner: { sim_steps: number } }).inner.sim_steps, 15);
    const obs = first.observation as Float64Array;
    assert.equal(obs.length, 25);
    assert.equal(obs[0], 1, 'row 0 presence');
    if (!first.terminated) assert.equal(env.step(1).truncated, true);
  });

  it('Kinematics options are parameters: rows, absolute coordinates, normalization, order', () => {
    const rows = (params: Record<string, unknown>): number[][] => {
      const { env } = registry.make('highway-fast-v0', params);
      const obs = env.reset({ seed: 9 }).observation as Float64Array;
      const out: number[][] = [];
      for (let r = 0; r < obs.length / 5; r++) out.push(Array.from(obs.subarray(r * 5, r * 5 + 5)));
      return out;
    };
    const plain = rows({ observation_normalize: false });
    const absolute = rows({ observation_normalize: false, observation_absolute: true });
    assert.equal(plain.length, 5);
    assert.equal(rows({ observation_vehicles: 8 }).length, 8);
    assert.deepEqual(absolute[0], plain[0], 'row 0 is absolute either way');
    const ego = plain[0]!;
    for (let r = 1; r < 5; r++) if (plain[r]![0] === 1) assert.ok(Math.abs(absolute[r]![1]! - (plain[r]![1]! + ego[1]!)) < 1e-3, `row ${r} x`);
    const normalized = rows({});
    assert.ok(normalized.every((row) => row.every((v) => v >= -1 && v <= 1)));
    assert.throws(() => registry.make('highway-fast-v0', { observation_order: 'random' }), /observation_order/);
  });

  it('highway-v0: the ego vehicle can start on a chosen lane', () => {
    const { env } = registry.make('highway-v0', { initial_lane_id: 2, vehicles_count: 3 });
    env.reset({ seed: 4 });
    const inner = env.inner as unknown as DrivingEnv<Float64Array>;
    assert.deepEqual(inner.ego.laneIndex, ['0', '1', 2]);
    assert.throws(() => registry.make('highway-v0', { initial_lane_id: 4 }), /initial_lane_id" must be below lanes_count \(4\), got 4/);
  });

  it('highway-fast-v0: traffic does not test its own collisions, the ego vehicle does', () => {
    const { env } = registry.make('highway-fast-v0');
    env.reset({ seed: 2 });
    const inner = env.inner as unknown as DrivingEnv<Float64Array>;
    for (const v of inner.road.vehicles) assert.equal(v.checkCollisions, v === inner.ego);
  });

  it('parking-v0: out-of-range actions act like their clipped values; the observation is the goal dictionary', () => {
    const a = registry.make('parking-v0').env;
    const b = registry.make('parking-v0').env;
    a.reset({ seed: 8 });
    b.reset({ seed: 8 });
    const ra = a.step(Float64Array.of(3, -7));
    const rb = b.step(Float64Array.of(1, -1));
    assert.deepEqual(a.getState(), b.getState());
    assert.equal(ra.reward, rb.reward);
    const obs = ra.observation as { observation: Float64Array; achieved_goal: Float64Array; desired_goal: Float64Array };
    assert.deepEqual(Object.keys(obs).sort(), ['achieved_goal', 'desired_goal', 'observation']);
    assert.deepEqual(Array.from(obs.observation), Array.from(obs.achieved_goal));
    assert.equal(typeof ra.info['is_success'], 'boolean');
  });

  it('merge-v0: passing x = 370 m ends the episode', () => {
    const { env } = registry.make('merge-v0');
    env.reset({ seed: 0 });
    const inner = env.inner as unknown as DrivingEnv<Float64Array>;
    for (const v of inner.road.vehicles) if (v !== inner.ego) v.position[1] = 500;
    let r = env.step(1);
    for (let t = 0; t < 30 && !r.terminated; t++) r = env.step(1);
    assert.equal(r.terminated, true);
    assert.ok(inner.ego.position[0] > 370);
    assert.equal(inner.ego.crashed, false);
  });
});

describe('driving geometry', () => {
  it('wraps angles and rounds like NumPy', () => {
    assert.equal(pyMod(-1, 3), 2);
    assert.equal(wrapToPi(Math.PI), -Math.PI);
    assert.equal(roundHalfEven(2.5), 2);
    assert.equal(roundHalfEven(-1.5), -2);
    assert.equal(roundHalfEven(0.5000001), 1);
  });

  it('lanes convert between world and local coordinates both ways', () => {
    const lanes = [new StraightLane([0, 0], [100, 50]), new SineLane([0, 10], [200, 10], 3, 0.05, 0.3), new CircularLane([0, 0], 20, 0.2, 1.5, false)];
    for (const lane of lanes) {
      const [x, y] = lane.position(7, 1.5);
      const [s, r] = lane.localCoordinates(x, y);
      assert.ok(Math.abs(s - 7) < 1e-9 && (lane instanceof SineLane ? Math.abs(r - 1.5) < 0.2 : Math.abs(r - 1.5) < 1e-9), lane.constructor.name);
    }
  });

  it('the closest lane takes the heading into account', () => {
    const net = RoadNetwork.straight(2);
    net.addLane('1', '0', new StraightLane([10000, 4], [0, 4]));
    assert.deepEqual(net.closestLaneIndex(50, 4, 0), ['0', '1', 1]);
    assert.deepEqual(net.closestLaneIndex(50, 4, Math.PI), ['1', '0', 0]);
  });

  it('separating axes: overlapping, about to overlap, and apart', () => {
    const box = (cx: number): number[][] => [
      [cx - 2.5, -1],
      [cx - 2.5, 1],
      [cx + 2.5, 1],
      [cx + 2.5, -1],
      [cx - 2.5, -1],
    ];
    assert.deepEqual(polygonsIntersecting(box(0), box(4), 0, 0, 0, 0).slice(0, 2), [true, true]);
    const [now, soon, push] = polygonsIntersecting(box(0), box(6), 2, 0, 0, 0);
    assert.deepEqual([now, soon], [false, true]);
    assert.ok(push && push[0] < 0, 'pushed back away from the other box');
    assert.deepEqual(polygonsIntersecting(box(0), box(20), 1, 0, 0, 0), [false, false, null]);
  });
});
