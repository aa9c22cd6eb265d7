import * as assert from 'node:assert/strict';
import { createRegistry } from '../../../src/envs';

const registry = createRegistry();

/** Gas along the start, then a gentle left, so the car keeps crossing new tiles. */
const action = (t: number): Float64Array => Float64Array.of(t > 40 ? -0.15 : 0, 0.4, 0);

describe('CarRacing-v3 getState/setState', () => {
  it('a restored mid-episode state continues with identical rewards, tiles not paid twice', () => {
    const a = registry.make('CarRacing-v3').env;
    a.reset({ seed: 5 });
    for (let t = 0; t < 50; t++) a.step(action(t));
    const saved = structuredClone(a.getState()) as { inner: { visited: boolean[]; tileVisitedCount: number } };
    assert.ok(saved.inner.tileVisitedCount > 3, `tiles visited before the save: ${saved.inner.tileVisitedCount}`);
    const original: number[] = [];
    for (let t = 50; t < 90; t++) original.push(a.step(action(t)).reward);

    const b = registry.make('CarRacing-v3').env;
    b.reset({ seed: 5 });
    b.setState(saved);
    const restored: number[] = [];
    for (let t = 50; t < 90; t++) restored.push(b.step(action(t)).reward);
    assert.deepEqual(restored, original);
    assert.ok(original.some((r) => r > 0), 'the continuation collects new tiles');
    const end = b.getState() as { inner: { tileVisitedCount: number; visited: boolean[] } };
    assert.equal(end.inner.tileVisitedCount, end.inner.visited.filter(Boolean).length);
  });

  it('refuses visited flags of another track', () => {
    const { env } = registry.make('CarRacing-v3');
    env.reset({ seed: 5 });
    const s = env.getState() as { inner: { visited: boolean[] } };
    s.inner.visited = s.inner.visited.slice(1);
    assert.throws(() => env.setState(s), /visited flags but this track has \d+ tiles/);
  });
});
