import * as assert from 'node:assert/strict';
import { Rng, seedToUint32 } from '../../../src/envs/core/rng';

describe('Rng (xoshiro128**)', () => {
  it('gives the same stream for the same seed, and a different one for another seed', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const c = new Rng(43);
    const sa = Array.from({ length: 50 }, () => a.nextUint32());
    assert.deepEqual(sa, Array.from({ length: 50 }, () => b.nextUint32()));
    assert.notDeepEqual(sa, Array.from({ length: 50 }, () => c.nextUint32()));
  });

  it('is pinned to known values so streams never change across machines or releases', () => {
    // If this changes, every recorded case, layout and policy seed changes meaning.
    const r = new Rng(7);
    assert.deepEqual([r.nextUint32(), r.nextUint32(), r.nextUint32()], [1004282400, 2200021487, 1928073449]);
  });

  it('matches the xoshiro128** reference output from state {1, 2, 3, 4}', () => {
    const r = new Rng(0);
    r.setState([1, 2, 3, 4]);
    assert.deepEqual(Array.from({ length: 5 }, () => r.nextUint32()), [11520, 0, 5927040, 70819200, 2031721883]);
  });

  it('reseeding restarts the stream; getState/setState resume it exactly', () => {
    const r = new Rng(1);
    const first = [r.random(), r.random()];
    r.reseed(1);
    assert.deepEqual([r.random(), r.random()], first);
    const saved = r.getState();
    const next = [r.random(), r.integers(0, 100)];
    r.setState(saved);
    assert.deepEqual([r.random(), r.integers(0, 100)], next);
  });

  it('integers(lo, hi) stays in [lo, hi) and is close to uniform', () => {
    const r = new Rng(3);
    const counts = new Array<number>(6).fill(0);
    for (let i = 0; i < 60000; i++) {
      const v = r.integers(2, 8);
      assert.ok(v >= 2 && v < 8);
      counts[v - 2]!++;
    }
    for (const c of counts) assert.ok(Math.abs(c - 10000) < 500, `bucket count ${c}`);
  });

  it('random() is in [0,1) with mean ≈ 0.5; uniform respects its bounds', () => {
    const r = new Rng(9);
    let sum = 0;
    for (let i = 0; i < 20000; i++) {
      const v = r.random();
      assert.ok(v >= 0 && v < 1);
      sum += v;
      const u = r.uniform(-0.05, 0.05);
      assert.ok(u >= -0.05 && u < 0.05);
    }
    assert.ok(Math.abs(sum / 20000 - 0.5) < 0.01);
  });

  it('shuffle is a permutation; choice picks members; bad arguments are named', () => {
    const r = new Rng(5);
    const items = [1, 2, 3, 4, 5, 6, 7];
    assert.deepEqual([...r.shuffle([...items])].sort(), items);
    assert.ok(items.includes(r.choice(items)));
    assert.throws(() => r.choice([]), /empty/);
    assert.throws(() => r.integers(3, 3), /low < high/);
    assert.throws(() => r.integers(0.5, 3), /integers/);
  });

  it('accepts large and string seeds deterministically', () => {
    assert.equal(seedToUint32(2 ** 40 + 5), seedToUint32(2 ** 40 + 5));
    assert.notEqual(seedToUint32(2 ** 40 + 5), seedToUint32(5));
    assert.equal(seedToUint32('train/3'), seedToUint32('train/3'));
    assert.throws(() => seedToUint32(Number.NaN), /finite/);
  });
});

