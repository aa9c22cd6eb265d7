/**
 * What the policy is told about its world: `ctx.maxEpisodeSteps` for every environment (the
 * level's max_steps for MiniGrid and BabyAI, known after the reset), and an env.d.ts under which
 * `console`, `performance` and the context type-check.
 */
import { strict as assert } from 'node:assert';
import { createRegistry } from '../../../src/envs';
import { starterFiles } from '../../../src/envs/core/starterFiles';
import { buildBundle } from '../../../src/sandbox';
import { bundleOf, episodes, usePool, workspace } from './helpers';

/** Environments nothing truncates: an episode ends when it terminates (or at the episode time limit). */
const NO_STEP_LIMIT = ['merge-v0'];

describe('sandbox: the policy view of its world', function () {
  this.timeout(120_000);
  const pool = usePool({ workers: 2 });
  const registry = createRegistry();

  it('every environment has a step limit once reset; MiniGrid and BabyAI give the level max_steps', () => {
    const defs = registry.list();
    assert.ok(defs.length > 50);
    const missing: string[] = [];
    for (const def of defs) {
      const { env } = registry.make(def.id);
      // Engines loaded asynchronously (MuJoCo) declare their limit in the definition.
      if (!def.load) env.reset({ seed: 3 });
      const limit = env.stepLimit();
      if (limit === null) {
        missing.push(def.id);
        continue;
      }
      assert.ok(Number.isInteger(limit) && limit > 0, `${def.id}: ${limit}`);
      if (def.maxEpisodeSteps !== null) assert.equal(limit, def.maxEpisodeSteps, def.id);
      const inner = env.inner as { maxSteps?: unknown };
      if (def.family.startsWith('minigrid')) assert.equal(limit, inner.maxSteps, def.id);
    }
    assert.deepEqual(missing, NO_STEP_LIMIT);
  });

  it('ctx.maxEpisodeSteps is the episode max_steps in the sandbox, and episodes truncate there', async () => {
    // BabyAI-GoToSeq derives max_steps from the instruction it draws at reset.
    const bundle = await bundleOf(`export class Policy {
  constructor(ctx: { maxEpisodeSteps: number | null }) { console.log(String(ctx.maxEpisodeSteps)); }
  act(): number { return 0; }
}`);
    for (const envId of ['MiniGrid-DoorKey-5x5-v0', 'BabyAI-GoToSeqS5R2-v0', 'CartPole-v1', 'highway-fast-v0']) {
      const specs = episodes(3);
      const records = await pool().runBatch({ bundle, envId, params: {}, episodes: specs, limits: { maxTrajectorySteps: 0 } });
      records.forEach((r, i) => {
        const { env } = registry.make(envId);
        env.reset({ seed: specs[i]?.envSeed });
        const expected = env.stepLimit();
        assert.equal(r.log.text, `${expected}\n`, envId);
        if (envId.startsWith('MiniGrid') || envId.startsWith('BabyAI')) assert.deepEqual([r.status, r.length, r.truncated], ['ok', expected, true], envId);
      });
    }
  });

  it('env.d.ts declares console, performance and a numeric ctx.maxEpisodeSteps', async () => {
    const policy = `export class Policy {
  private readonly budget: number;
  constructor(ctx: PolicyContext) {
    this.budget = ctx.maxEpisodeSteps - 1;
    console.log('budget', this.budget, { seed: ctx.seed });
    console.warn(performance.now(), Date.now(), performance.timeOrigin);
  }
  act(observation: Observation): Action {
    console.debug(observation);
    console.error('never');
    console.info(new Date().toISOString());
    return 0 as Action;
  }
}
`;
    for (const envId of ['CartPole-v1', 'MiniGrid-DoorKey-5x5-v0']) {
      const made = registry.make(envId);
      const root = workspace({ ...starterFiles(made.definition, made.params, made.env), 'policy/policy.ts': policy });
      const built = await buildBundle(root);
      assert.ok(built.ok, envId);
      assert.deepEqual(built.diagnostics.map((d) => `${d.file}:${d.line} ${d.message}`), [], envId);
    }
  });
});
