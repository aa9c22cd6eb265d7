import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRegistry } from '../../../src/envs';
import { replayGoldenFile } from '../../../src/envs/golden';

const GOLDEN = path.resolve(__dirname, '../../fixtures/golden');
const CLASSIC = ['cartpole', 'mountaincar', 'mountaincar_continuous', 'pendulum', 'acrobot'];

describe('classic control matches Gymnasium 1.4 (golden traces, one step at a time)', () => {
  const registry = createRegistry();
  for (const name of CLASSIC) {
    const file = JSON.parse(fs.readFileSync(path.join(GOLDEN, `${name}.json`), 'utf8'));
    it(`${file.env_id}: all ${file.traces.length} traces`, () => {
      const report = replayGoldenFile(registry, file);
      const failures = report.traces.filter((t) => !t.passed).map((t) => `${t.name}: ${t.failure}`);
      assert.deepEqual(failures, []);
      assert.equal(report.traces.length, file.traces.length);
    });
  }

  it('free rollouts stay on the golden trajectory up to the ulp-sensitivity horizon', () => {
    for (const name of CLASSIC) {
      const file = JSON.parse(fs.readFileSync(path.join(GOLDEN, `${name}.json`), 'utf8'));
      for (const trace of file.traces) {
        const horizon = trace.ulp_sensitivity?.['first_step_dev_gt_1e-9'] ?? trace.actions.length;
        const { env } = registry.make(file.env_id);
        env.reset({ seed: 0 });
        env.setState(file.env_id.startsWith('MountainCarContinuous') ? { position: trace.initial_state[0], velocity: trace.initial_state[1], float32: false } : trace.initial_state);
        const steps = Math.min(horizon - 1, trace.actions.length);
        for (let t = 0; t < steps; t++) {
          const a = trace.actions[t];
          const r = env.step(env.actionSpace.describe().type === 'Box' ? Float64Array.of(Math.fround(Array.isArray(a) ? a[0] : a)) : a);
          const exp = trace.steps.state[t] as number[];
          const got = env.getState() as { inner: number[] | { position: number; velocity: number } };
          const inner = Array.isArray(got.inner) ? got.inner : [got.inner.position, got.inner.velocity];
          exp.forEach((v, i) => assert.ok(Math.abs((inner[i] as number) - v) <= 1e-9 * Math.max(1, Math.abs(v)), `${name} ${trace.name} step ${t + 1} state[${i}]`));
          assert.equal(r.terminated, trace.steps.terminated[t]);
        }
      }
    }
  });

  it('a corrupted trace fails with the step and field named', () => {
    const file = JSON.parse(fs.readFileSync(path.join(GOLDEN, 'cartpole.json'), 'utf8'));
    file.traces[0].steps.state[4][2] += 1e-6;
    file.traces[1].steps.terminated[3] = true;
    const report = replayGoldenFile(registry, file);
    assert.match(report.traces[0]!.failure ?? '', /^step 5: state\[2\] expected/);
    assert.match(report.traces[1]!.failure ?? '', /^step 4: terminated expected true got false/);
    assert.equal(report.traces.filter((t) => t.passed).length, file.traces.length - 2);
  });
});
