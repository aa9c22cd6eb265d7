import * as assert from 'node:assert/strict';
import { Rng } from '../../../src/envs/core/rng';
import { Box, Dict, Discrete, MultiBinary, MultiDiscrete, Text, Tuple, spaceFromDescription, type Space } from '../../../src/envs/core/spaces';

describe('spaces', () => {
  it('Box checks shape, bounds (after float32 rounding) and NaN; never clips', () => {
    const box = new Box(-2, 2, [1], 'float32');
    assert.ok(box.contains(Float64Array.of(2)));
    assert.ok(box.contains([-2]));
    assert.ok(box.contains([2.0000001]), 'rounds to 2 in float32, as NumPy casts first');
    assert.ok(!box.contains([2.000001]));
    assert.ok(!box.contains([Number.NaN]));
    assert.ok(!box.contains([0, 0]));
    assert.ok(!box.contains('0'));
    const infBox = new Box([-1, -Infinity], [1, Infinity], [2], 'float64');
    assert.ok(infBox.contains([0.5, 1e300]));
    assert.throws(() => new Box([0, 0], [1], [2]), /Box high has 1 values/);
    assert.throws(() => new Box(1, 0, [1]), /low\[0\] > high\[0\]/);
  });

  it('uint8 boxes accept only integers in range', () => {
    const img = new Box<Uint8Array>(0, 255, [7, 7, 3], 'uint8');
    assert.equal(img.size, 147);
    assert.ok(img.contains(new Uint8Array(147)));
    const bad = new Array(147).fill(0);
    bad[3] = 1.5;
    assert.ok(!img.contains(bad));
  });

  it('Discrete, MultiDiscrete, MultiBinary and Text membership', () => {
    const d = new Discrete(3, 1);
    assert.ok(d.contains(1) && d.contains(3));
    assert.ok(!d.contains(0) && !d.contains(4) && !d.contains(1.5) && !d.contains('1'));
    assert.ok(new MultiDiscrete([2, 3]).contains([1, 2]));
    assert.ok(!new MultiDiscrete([2, 3]).contains([2, 0]));
    assert.ok(new MultiBinary(3).contains([0, 1, 1]));
    assert.ok(!new MultiBinary(3).contains([0, 2, 1]));
    assert.ok(new Text(10).contains('go'));
    assert.ok(!new Text(1).contains('go'));
    assert.throws(() => new Discrete(0), /positive integer/);
  });

  it('Dict sorts its keys like Gymnasium and checks every member', () => {
    const d = new Dict({ mission: new Text(100), image: new Box(0, 255, [2], 'uint8'), direction: new Discrete(4) });
    assert.deepEqual(Object.keys(d.spaces), ['direction', 'image', 'mission']);
    assert.ok(d.contains({ image: new Uint8Array(2), direction: 3, mission: 'x' }));
    assert.ok(!d.contains({ image: new Uint8Array(2), direction: 4, mission: 'x' }));
    assert.ok(!d.contains({ image: new Uint8Array(2), direction: 0 }));
    assert.equal(d.tsType(), '{ direction: 0 | 1 | 2 | 3; image: Uint8Array; mission: string; }');
  });

  it('samples are members, and descriptions round-trip (infinities included)', () => {
    const rng = new Rng(11);
    const spaces: Space[] = [
      new Box([-1, -Infinity], [1, Infinity], [2], 'float32'),
      new Box(0, 255, [4], 'uint8'),
      new Discrete(5, -2),
      new MultiDiscrete([3, 4]),
      new MultiBinary(4),
      new Text(8, 2),
      new Tuple([new Discrete(2), new Box(0, 1, [1])]),
      new Dict({ a: new Discrete(2), b: new Box(-1, 1, [3], 'float64') }),
    ];
    for (const s of spaces) {
      for (let i = 0; i < 20; i++) assert.ok(s.contains(s.sample(rng)), `${JSON.stringify(s.describe())} sample not contained`);
      const json = JSON.parse(JSON.stringify(s.describe()));
      assert.deepEqual(spaceFromDescription(json).describe(), s.describe());
    }
    assert.deepEqual((new Box([-1, -Infinity], [1, Infinity], [2]).describe() as { high: unknown[] }).high, [1, 'inf']);
  });
});
