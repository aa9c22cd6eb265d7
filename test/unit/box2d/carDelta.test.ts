/**
 * CarRacing trajectories are stored as the track once plus the car per step
 * (carracing-delta/1); every reader expands them back. Recorded with the sandbox's own recorder
 * on real episodes (the pixel-reading starter, which drives along the track and collects
 * tiles), the expansion must give exactly the plain steps, which carry no frame either.
 */
import * as assert from 'node:assert/strict';
import { CAR_DELTA_FORMAT } from '../../../src/protocol/carTrajectory';
import { expandTrajectory, parseRecordedTrajectory, type TrajectoryStep } from '../../../src/protocol/episodes';
import { compactBytes, record } from './deltaFixture';

/** The plain step as CarRacing's plain layout keeps it: without the observation. */
function withoutObservation(s: TrajectoryStep): TrajectoryStep {
  const { observation: _frame, ...rest } = s;
  return rest;
}

type CarSnapshot = { tilesVisited: number; polygons: { visited: boolean }[] };

describe('CarRacing trajectories as track plus car', () => {
  const CASES: [Record<string, unknown>, number[]][] = [
    [{}, [1]],
    [{ continuous: false }, [3]],
    [{ domain_randomize: true }, [4]],
  ];
  for (const [params, seeds] of CASES) {
    it(`CarRacing-v3 ${JSON.stringify(params)}: expanding the recorded car gives every plain step exactly`, function () {
      this.timeout(120_000);
      for (const seed of seeds) {
        const { plain, compact } = record('CarRacing-v3', seed, 150, params);
        assert.equal(compact.format, CAR_DELTA_FORMAT);
        const expanded = parseRecordedTrajectory(compact);
        assert.equal(expanded.format, undefined);
        assert.deepEqual(expanded.initialSnapshot, plain.initialSnapshot);
        assert.equal(expanded.steps.length, plain.steps.length);
        expanded.steps.forEach((s, i) => assert.deepEqual(s, withoutObservation(plain.steps[i]!), `seed ${seed} step ${i + 1}`));
        // The car drove on and collected tiles, so the visited flags were checked both ways.
        const last = plain.steps.at(-1)!.snapshot as CarSnapshot;
        assert.ok(last.tilesVisited > (plain.initialSnapshot as CarSnapshot).tilesVisited + 10, `seed ${seed}: ${last.tilesVisited} tiles`);
        const mixed = plain.steps.some((s) => (s.snapshot as CarSnapshot).polygons.some((p) => p.visited) && (s.snapshot as CarSnapshot).polygons.some((p) => !p.visited));
        assert.ok(mixed, `seed ${seed}: visited and unvisited tiles in view together`);
      }
    });
  }

  it('keeps a step under a fifth of the plain (frameless) layout, with the track only in the header', function () {
    this.timeout(120_000);
    const { plain, compact } = record('CarRacing-v3', 5, 120);
    const plainStepBytes = plain.steps.map((s) => JSON.stringify(withoutObservation(s)).length + 1).reduce((a, b) => a + b, 0);
    const plainBytes = JSON.stringify(plain.initialSnapshot).length + plainStepBytes;
    // The header holds the whole track once (tens of KB), so the saving grows with the episode.
    assert.ok(compact.stepsJsonl.length <= plainStepBytes * 0.2, `${compact.stepsJsonl.length} step bytes against ${plainStepBytes} plain`);
    assert.ok(compactBytes(compact) <= plainBytes * 0.3, `${compactBytes(compact)} bytes against ${plainBytes} plain`);
    const lines = compact.stepsJsonl.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.ok(lines.every((l) => Array.isArray(l['hull']) && Array.isArray(l['wheels']) && !('observation' in l) && !('snapshot' in l) && !('track' in l)));
    assert.ok(lines.some((l) => Array.isArray(l['visited'])), 'new tiles are listed in the steps that touched them');
  });

  it('refuses a step that does not fit the layout, naming the step', function () {
    this.timeout(60_000);
    const { compact } = record('CarRacing-v3', 1, 5);
    const lines = compact.stepsJsonl.split('\n').map((l) => JSON.parse(l) as TrajectoryStep);
    (lines[2] as unknown as Record<string, unknown>)['wheels'] = [[0, 0, 0, 0, 0, 0]];
    assert.throws(() => expandTrajectory({ format: CAR_DELTA_FORMAT, initialSnapshot: compact.initialSnapshot, steps: lines, truncated: false }), /step 3 is not a CarRacing step \(wheels/);
    assert.throws(() => expandTrajectory({ format: CAR_DELTA_FORMAT, initialSnapshot: { track: [] }, steps: [], truncated: false }), /initialSnapshot is not a CarRacing track/);
  });
});
