/**
 * Driving trajectories are stored as the road once plus vehicle rows and what else changed per
 * step (highway-delta/1). Recorded with the sandbox's own recorder on real episodes of every
 * driving task, the expansion must give exactly the plain steps as a file holds them.
 */
import * as assert from 'node:assert/strict';
import { expandTrajectory, parseRecordedTrajectory, type TrajectoryStep } from '../../../src/protocol/episodes';
import { HIGHWAY_DELTA_FORMAT } from '../../../src/protocol/highwayTrajectory';
import { agentsMd } from '../../../src/agents/agentsMd';
import { createRegistry } from '../../../src/envs';
import { makeRunConfig } from '../../../src/runner/config';
import { recordDriving, trajectoryBytes } from './deltaFixture';

const IDS = ['highway-v0', 'highway-fast-v0', 'merge-v0', 'roundabout-v0', 'intersection-v0', 'parking-v0'];

/** As a file holds it: JSON has no -0. */
const asFile = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('driving trajectories as road plus vehicle rows', () => {
  for (const id of IDS) {
    it(`${id}: expanding the stored rows gives every plain step exactly`, function () {
      this.timeout(60_000);
      let crashes = 0;
      const counts = new Set<number>();
      for (const seed of [1, 2, 3]) {
        const { plain, compact } = recordDriving(id, seed);
        assert.equal(compact.format, HIGHWAY_DELTA_FORMAT);
        const want = parseRecordedTrajectory(asFile(plain));
        const got = parseRecordedTrajectory(asFile(compact));
        assert.equal(got.format, undefined);
        assert.deepEqual(got.initialSnapshot, want.initialSnapshot);
        assert.equal(got.steps.length, want.steps.length);
        got.steps.forEach((s, i) => assert.deepEqual(s, want.steps[i], `${id} seed ${seed} step ${i + 1}`));
        for (const s of want.steps) {
          const vehicles = (s.snapshot as { vehicles: { c: boolean }[] }).vehicles;
          if (vehicles.some((v) => v.c)) crashes++;
          counts.add(vehicles.length);
        }
      }
      if (id !== 'parking-v0') assert.ok(crashes > 0 || counts.size > 1, 'crashes or a changing vehicle count were exercised');
    });
  }

  it('keeps a highway-v0 episode under 70% of the plain layout, lanes only in the header', function () {
    this.timeout(60_000);
    const { plain, compact } = recordDriving('highway-v0', 5);
    assert.ok(trajectoryBytes(compact) <= trajectoryBytes(plain) * 0.7, `${trajectoryBytes(compact)} bytes against ${trajectoryBytes(plain)} plain`);
    const lines = compact.stepsJsonl.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.ok(lines.every((l) => Array.isArray(l['vehicles']) && !('snapshot' in l) && !('lanes' in ((l['changed'] as object | undefined) ?? {}))));
  });

  it('refuses a step that does not fit the layout, naming the step', function () {
    const { compact } = recordDriving('highway-v0', 1, 5);
    const lines = compact.stepsJsonl.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const expand = (steps: unknown[], initialSnapshot = compact.initialSnapshot): unknown => expandTrajectory({ format: HIGHWAY_DELTA_FORMAT, initialSnapshot, steps: steps as TrajectoryStep[], truncated: false });
    const bad = lines.map((l) => ({ ...l }));
    bad[1]!['vehicles'] = [[1, 2, 3]];
    assert.throws(() => expand(bad), /step 2 is not a driving step \(vehicles\.0/);
    const fewer = lines.map((l) => ({ ...l }));
    fewer[2]!['vehicles'] = [[1, 2, 3, 4]];
    assert.throws(() => expand(fewer), /step 3 has 1 vehicles but \d+ sizes/);
    assert.throws(() => expand([], {}), /initialSnapshot is not a driving scene/);
  });

  it('AGENTS.md names every field of the stored header and step lines', function () {
    const registry = createRegistry();
    for (const id of ['highway-v0', 'parking-v0', 'intersection-v0']) {
      const made = makeRunConfig({ envId: id, params: {} } as Parameters<typeof makeRunConfig>[0]);
      if (!made.ok) throw new Error(made.error);
      const md = agentsMd(registry.get(id), made.config);
      assert.match(md, /"format": "highway-delta\/1"/);
      assert.match(md, /described under "Trajectory files" above/);
      const { compact } = recordDriving(id, 2, 60);
      const keys = new Set(Object.keys(compact.initialSnapshot as object));
      for (const line of compact.stepsJsonl.split('\n')) for (const k of Object.keys(JSON.parse(line) as object)) keys.add(k);
      assert.deepEqual([...keys].filter((k) => !md.includes(`\`${k}\``)), [], id);
    }
  });
});
