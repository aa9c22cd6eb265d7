import * as assert from 'node:assert/strict';
import { agentsMd } from '../../../src/agents/agentsMd';
import { createRegistry } from '../../../src/envs';
import { failureReturnOf } from '../../../src/envs/core/failureReturn';
import { EnvRegistry } from '../../../src/envs/core/registry';
import { resolveParams } from '../../../src/envs/core/params';
import { Rng } from '../../../src/envs/core/rng';
import { makeRunConfig } from '../../../src/runner/config';

describe('failure return (the score of a failed episode)', () => {
  it('every registered environment declares a finite one, at or below 0 for the tasks that start from nothing', () => {
    const registry = createRegistry();
    const defs = registry.list();
    assert.ok(defs.length > 150);
    for (const def of defs) {
      assert.notEqual(def.failureReturn, undefined, `${def.id} declares no failureReturn`);
      const value = failureReturnOf(def, resolveParams(def.id, def.params, {}));
      assert.ok(Number.isFinite(value), `${def.id}: ${value}`);
      assert.ok(value <= 0, `${def.id}: a failure return above 0 (${value}) would beat an episode that earned nothing`);
    }
  });

  it('the issue’s figures: Acrobot −500, MountainCar −200, Pendulum its per-step minimum × 200, CartPole 0, MiniGrid 0', () => {
    const r = createRegistry();
    assert.equal(r.make('Acrobot-v1').failureReturn, -500);
    assert.equal(r.make('MountainCar-v0').failureReturn, -200);
    assert.equal(r.make('CartPole-v1').failureReturn, 0);
    assert.equal(r.make('MiniGrid-DoorKey-5x5-v0').failureReturn, 0);
    assert.equal(r.make('BabyAI-GoToLocal-v0').failureReturn, 0);
    const pendulum = r.make('Pendulum-v1');
    assert.ok(Math.abs(pendulum.failureReturn - pendulum.definition.rewardRange[0] * 200) < 1e-3, String(pendulum.failureReturn));
    assert.equal(r.make('MountainCarContinuous-v0').failureReturn, -99.9);
  });

  it('depends on the parameters where the reward does (highway duration, reward normalization)', () => {
    const r = createRegistry();
    assert.equal(r.make('highway-v0').failureReturn, 0);
    assert.equal(r.make('highway-v0', { normalize_reward: false }).failureReturn, -1);
    assert.ok(r.make('parking-v0', { duration: 50 }).failureReturn > r.make('parking-v0').failureReturn);
  });

  // A failure must never score above an episode that ran to its end, however badly.
  for (const [id, episodes] of [
    ['CartPole-v1', 20],
    ['Acrobot-v1', 5],
    ['MountainCar-v0', 5],
    ['MountainCarContinuous-v0', 3],
    ['Pendulum-v1', 10],
    ['MiniGrid-DoorKey-5x5-v0', 5],
    ['highway-fast-v0', 3],
    ['roundabout-v0', 3],
    ['parking-v0', 2],
    ['LunarLander-v3', 5],
  ] as const) {
    it(`${id}: random episodes never return less than the failure return`, () => {
      const made = createRegistry().make(id);
      const rng = new Rng(7);
      for (let e = 0; e < episodes; e++) {
        made.env.reset({ seed: e });
        let total = 0;
        for (;;) {
          const step = made.env.step(made.env.actionSpace.sample(rng));
          total += step.reward;
          if (step.terminated || step.truncated) break;
        }
        assert.ok(total >= made.failureReturn, `episode ${e}: return ${total} below ${made.failureReturn}`);
      }
    });
  }

  it('Pendulum: full torque at the bottom, the worst steps it can take, stays above the bound', () => {
    const made = createRegistry().make('Pendulum-v1');
    made.env.reset({ seed: 1 });
    let total = 0;
    for (let t = 0; t < 200; t++) total += made.env.step(Float64Array.of(t % 2 ? 2 : -2)).reward;
    assert.ok(total >= made.failureReturn && total < 0);
  });

  it('a plugin without one gets its per-step minimum × step limit, and is refused when that is not finite', () => {
    const registry = new EnvRegistry();
    const base = { family: 'test', description: 'd', params: {}, create: () => { throw new Error('unused'); }, starterPolicy: '' };
    registry.register({ ...base, id: 'Old-v0', maxEpisodeSteps: 10, rewardRange: [-2, 1] } as never);
    assert.equal(failureReturnOf(registry.get('Old-v0'), {}), -20);
    assert.throws(() => registry.register({ ...base, id: 'Unbounded-v0', maxEpisodeSteps: null, rewardRange: [-Infinity, 0] } as never), /Unbounded-v0 has no finite failureReturn/);
    assert.throws(() => registry.register({ ...base, id: 'Nan-v0', maxEpisodeSteps: 5, rewardRange: [0, 1], failureReturn: NaN } as never), /Nan-v0 has no finite failureReturn/);
  });
});

describe('AGENTS.md states the failure return and the best-train-mean rule', () => {
  it('with the parameters the run leaves at their defaults, and rounded', () => {
    const registry = createRegistry();
    for (const [id, text] of [
      ['highway-v0', '**0**'],
      ['Pendulum-v1', '**-3254.721**'],
      ['parking-v0', '**-505**'],
    ] as const) {
      const made = makeRunConfig({ envId: id });
      assert.ok(made.ok);
      const md = agentsMd(registry.get(id), made.config);
      assert.ok(md.replace(/\s+/g, ' ').includes(`failure return, ${text}`), `${id}: ${md.slice(md.indexOf('## Failed episodes'), md.indexOf('## Failed episodes') + 300)}`);
      assert.match(md.replace(/\s+/g, ' '), /only submissions of at least 8 episodes take part/);
      assert.match(md.replace(/\s+/g, ' '), /a run with any submission always selects one/);
    }
  });
});
