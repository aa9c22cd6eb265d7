import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRegistry } from '../../../src/envs';
import { replayGoldenFile } from '../../../src/envs/golden';
import { BabyAILevel } from '../../../src/envs/minigrid/babyai/level';

const dir = path.join(__dirname, '../../fixtures/golden');
const files = fs.readdirSync(dir).filter((f) => f.startsWith('babyai_') && f.endsWith('.json'));

interface Trace {
  name: string;
  initial: Record<string, unknown> & { mission: string; max_steps: number };
  task: Record<string, unknown>;
  actions: number[];
  steps: { verifier: string[]; seq_state?: unknown[]; reward: number[] };
}

describe('BabyAI golden traces (MiniGrid 3.1 recordings)', () => {
  const registry = createRegistry();

  it('ships the 13 recorded levels', () => {
    assert.equal(files.length, 13);
  });

  for (const file of files) {
    const golden = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as { env_id: string; traces: Trace[] };

    it(`${file} replays exactly (images, rewards, flags, pose, carried object, final grid)`, () => {
      const report = replayGoldenFile(registry, golden);
      const failed = report.traces.filter((t) => !t.passed);
      assert.deepEqual(failed, [], `${report.envId}: ${failed.map((f) => `${f.name}: ${f.failure}`).join('; ')}`);
      assert.equal(report.traces.length, 4);
    });

    it(`${file}: the verifier's verdict and sequence flags match at every step`, () => {
      for (const trace of golden.traces) {
        const env = registry.make(golden.env_id).env.inner as BabyAILevel;
        assert.ok(env instanceof BabyAILevel);
        env.reset({ seed: 0 });
        env.setState({ ...trace.initial, task: trace.task });
        // The instruction re-rendered from the tree must be the recorded mission.
        assert.equal(env.instrs.surface(), trace.initial.mission, trace.name);
        if (!env.fixedMaxSteps) assert.equal(env.instrs.navs() * env.roomSize ** 2 * env.numRows * env.numCols, trace.initial.max_steps, `${trace.name}: step budget`);
        trace.actions.forEach((a, t) => {
          const r = env.step(a);
          const info = r.info as { status: string };
          assert.equal(info.status, trace.steps.verifier[t], `${trace.name} step ${t + 1}: verifier`);
          if (trace.steps.seq_state) assert.deepEqual(env.sequenceState(), trace.steps.seq_state[t], `${trace.name} step ${t + 1}: seq_state`);
        });
      }
    });
  }
});
