/**
 * Box2D golden files pass at their documented horizons: through the generic golden entry point
 * and `policyforge golden` (the README's command over every fixture), a recorded trace that
 * agrees up to its documented horizon passes with a note saying where it then leaves the
 * recording; one that leaves earlier fails and names the horizon; any other trace must agree to
 * its last step. Uses the built CLI.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRegistry } from '../../../src/envs';
import { replayBox2dTrace } from '../../../src/envs/box2d/golden';
import type { Box2dTrace } from '../../../src/envs/box2d/goldenTrace';
import { DOCUMENTED_HORIZONS, documentedHorizon } from '../../../src/envs/box2d/horizons';
import { replayGoldenFile } from '../../../src/envs/golden';
import { CLI } from '../runner/helpers';

const GOLDEN = path.resolve(__dirname, '../../fixtures/golden');
const FILES = fs.readdirSync(GOLDEN).filter((f) => /^box2d_.*\.json$/.test(f)).sort();
const load = (name: string): { env_id: string; traces: Box2dTrace[] } => JSON.parse(fs.readFileSync(path.join(GOLDEN, name), 'utf8'));

describe('box2d: golden files pass at their documented horizons', function () {
  this.timeout(120_000);
  const registry = createRegistry();

  it('every recorded trace has exactly one documented horizon, and every documented horizon a trace', () => {
    const recorded = FILES.flatMap((f) => {
      const data = load(f);
      return data.traces.map((t) => ({ envId: data.env_id, t }));
    });
    assert.equal(FILES.length, 4);
    assert.equal(recorded.length, DOCUMENTED_HORIZONS.length);
    for (const { envId, t } of recorded) {
      const d = documentedHorizon(envId, t);
      assert.ok(d, `${envId} ${t.name}`);
      assert.ok(d.horizon >= 1 && d.horizon <= t.steps.length, `${envId} ${t.name}`);
    }
  });

  it('replayGoldenFile passes each file; a trace short of its end says how far it agreed and where it left', () => {
    for (const f of FILES) {
      const data = load(f);
      const report = replayGoldenFile(registry, data);
      report.traces.forEach((r, i) => {
        const trace = data.traces[i]!;
        const horizon = documentedHorizon(data.env_id, trace)!.horizon;
        assert.equal(r.passed, true, `${f} ${r.name}: ${r.failure}`);
        assert.ok(r.steps >= horizon, `${f} ${r.name}`);
        assert.equal(r.failure, undefined);
        if (r.steps < trace.steps.length) assert.match(r.note ?? '', new RegExp(`^documented horizon ${horizon} of ${trace.steps.length} steps reached; then step ${r.steps + 1}: `));
        else assert.equal(r.note, undefined);
      });
    }
  });

  it('a trace that leaves before its documented horizon fails and names the horizon', () => {
    const data = load('box2d_bipedalwalker.json');
    const trace = data.traces.find((t) => t.name === 'random_0')!;
    const obs = trace.steps[19]!.obs as number[];
    obs[3] = (obs[3] as number) + 0.05;
    const r = replayBox2dTrace(registry, data.env_id, trace);
    assert.equal(r.passed, false);
    assert.equal(r.steps, 19);
    assert.match(r.failure ?? '', /^step 20: obs\[3\] expected .* \(documented horizon: 56 steps\)$/);
  });

  it('another trace, or tighter tolerances, must agree to the last step', () => {
    const data = load('box2d_lunarlander.json');
    const trace = data.traces.find((t) => t.name === 'heuristic_1')!;
    const renamed = replayBox2dTrace(registry, data.env_id, { ...trace, name: 'mine' });
    assert.equal(renamed.passed, false);
    assert.equal(renamed.horizon, trace.steps.length);
    assert.ok(renamed.steps >= 173 && renamed.steps < trace.steps.length);
    const otherSeed = replayBox2dTrace(registry, data.env_id, { ...trace, reset_seed: 1 });
    assert.equal(otherSeed.passed, false);
    const tight = replayBox2dTrace(registry, data.env_id, trace, { obs: 1e-6, reward: 1e-2 });
    assert.equal(tight.passed, false);
    assert.equal(tight.note, undefined);
  });

  it('`policyforge golden` over the Box2D fixtures exits 0 and prints each documented horizon', () => {
    const r = spawnSync(process.execPath, [CLI, 'golden', ...FILES.map((f) => path.join(GOLDEN, f))], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /golden: 13 passed, 0 failed/);
    assert.match(r.stdout, /^ok {3}BipedalWalker-v3 random_0 \(56 steps\): documented horizon 56 of 89 steps reached; then step 57: obs\[\d+\]/m);
    assert.doesNotMatch(r.stdout, /^FAIL/m);
  });
});
