import assert from 'node:assert/strict';
import { createRegistry } from '../../../src/envs';
import { checkTrainingParams } from '../../../src/envs/core/trainingCheck';
import type { SkillRate } from '../../../src/protocol/skills';
import { focusSkill, proposeConfig, ProposalError } from '../../../src/skills/training/proposer';

const rate = (id: string, mean: number, kind: SkillRate['kind'] = 'success'): SkillRate => ({ id, label: id.replace(/_/g, ' '), kind, mean, stderr: 0.1, count: 16 });

describe('the proposer: the weakest skill leads to a configuration that isolates it', () => {
  const registry = createRegistry();
  const propose = (id: string, rates: SkillRate[], params: Record<string, unknown> = {}) => {
    const made = registry.make(id, params);
    return proposeConfig(made.definition, made.params, rates);
  };

  it('DoorKey weak at unlocking: a small grid with the key next to the door', () => {
    const p = propose('MiniGrid-DoorKey-8x8-v0', [rate('reached_goal', 0.1), rate('picked_up_key', 0.9), rate('opened_door', 0.2), rate('unlocked_door', 0.2), rate('steps_to_first_pickup', 12, 'steps')]);
    assert.equal(p.skill?.id, 'unlocked_door');
    assert.deepEqual(p.config.params, { size: 6, key_placement: 'near_door' });
    assert.equal(p.config.env, 'MiniGrid-DoorKey-8x8-v0');
    assert.match(p.reason, /key placed next to the door/);
    assert.equal(p.reason.split('. ').length, 1, 'one sentence');
  });

  it('a prerequisite comes first: a key not picked up outranks the goal not reached', () => {
    const p = propose('MiniGrid-DoorKey-16x16-v0', [rate('reached_goal', 0), rate('picked_up_key', 0.5), rate('unlocked_door', 0)]);
    assert.equal(p.skill?.id, 'picked_up_key');
    assert.deepEqual(p.config.params, { size: 11, key_placement: 'anywhere' });
  });

  it('LavaCrossing weak at avoiding lava: fewer rivers, then more as it improves', () => {
    const rates = (avoided: number): SkillRate[] => [rate('reached_goal', 0.1), rate('avoided_lava', avoided)];
    assert.deepEqual(propose('MiniGrid-LavaCrossingS9N3-v0', rates(0)).config.params, { num_crossings: 1 });
    assert.deepEqual(propose('MiniGrid-LavaCrossingS9N3-v0', rates(0.5)).config.params, { num_crossings: 2 });
    assert.deepEqual(propose('MiniGrid-LavaCrossingS9N3-v0', rates(0.75)).config.params, { num_crossings: 3 });
    assert.match(propose('MiniGrid-LavaCrossingS9N3-v0', rates(0)).reason, /fewer lava rivers/);
  });

  it('CartPole weak at time upright: narrower initial angles, widening as it improves', () => {
    const widths = [0, 0.3, 0.6].map((r) => propose('CartPole-v1', [rate('full_episode', r), rate('time_upright', r, 'fraction')]).config.params['reset_bound'] as number);
    assert.deepEqual(widths, [0.01, 0.037, 0.064]);
    assert.equal(propose('CartPole-v1', [rate('full_episode', 0.5), rate('time_upright', 0.2, 'fraction')]).skill?.id, 'time_upright');
  });

  it('KeyCorridor weak at the ball: one short row, the key across from the locked door', () => {
    const p = propose('MiniGrid-KeyCorridorS4R3-v0', [rate('picked_up_key', 0.9), rate('unlocked_door', 0.85), rate('picked_up_target', 0.1), rate('reached_goal', 0)]);
    assert.equal(p.skill?.id, 'picked_up_target');
    assert.deepEqual(p.config.params, { room_size: 3, num_rows: 1, key_placement: 'near_door' });
  });

  it('driving weak at avoiding collisions: lighter traffic', () => {
    const p = propose('highway-v0', [rate('avoided_collision', 0.25), rate('changed_lane', 0.9)]);
    assert.deepEqual(p.config.params, { vehicles_count: 16, vehicles_density: 0.625 });
  });

  it('every proposal stays inside its environment’s declared bounds', () => {
    for (const id of ['MiniGrid-DoorKey-5x5-v0', 'MiniGrid-MultiRoom-N6-v0', 'MiniGrid-LavaGapS5-v0', 'MiniGrid-SimpleCrossingS11N5-v0', 'Pendulum-v1', 'Acrobot-v1', 'MountainCar-v0', 'MountainCarContinuous-v0', 'highway-fast-v0']) {
      for (const r of [0, 0.33, 0.79]) {
        const all = ['picked_up_key', 'unlocked_door', 'opened_door', 'avoided_lava', 'reached_goal', 'swung_up', 'time_upright', 'half_height', 'avoided_collision'].map((s) => rate(s, r));
        const made = registry.make(id);
        const p = proposeConfig(made.definition, made.params, all);
        const checked = checkTrainingParams(made.definition, made.params, p.config.params);
        assert.ok(checked.ok, `${id} r=${r}: ${JSON.stringify(p.config.params)}`);
        assert.doesNotThrow(() => registry.make(id, checked.ok ? checked.params : {}), `${id} r=${r}`);
      }
    }
  });

  it('every skill strong: the unmodified environment', () => {
    const p = propose('MiniGrid-DoorKey-8x8-v0', [rate('reached_goal', 0.95), rate('picked_up_key', 1)]);
    assert.equal(p.skill, null);
    assert.deepEqual(p.config.params, {});
    assert.match(p.reason, /unmodified environment/);
  });

  it('is deterministic: the same inputs give the same configuration and sentence', () => {
    const rates = [rate('reached_goal', 0.3), rate('avoided_lava', 0.4)];
    const a = propose('MiniGrid-LavaGapS7-v0', rates);
    const b = propose('MiniGrid-LavaGapS7-v0', [...rates]);
    assert.deepEqual(a, b);
    assert.equal(JSON.stringify(a.config), JSON.stringify(b.config));
  });

  it('needs skill rates and a training schema', () => {
    assert.throws(() => propose('CartPole-v1', []), ProposalError);
    assert.throws(() => propose('CartPole-v1', [rate('steps_to_first_pickup', 3, 'steps')]), /no skill rates/);
    assert.throws(() => propose('Pusher-v5', [rate('stayed_healthy', 0.1)]), /declares no training configuration/);
  });

  it('focusSkill ignores step counts and keeps weakest-first among unordered skills', () => {
    assert.equal(focusSkill([rate('x', 0.5), rate('y', 0.2), rate('steps', 0, 'steps')], [])?.id, 'y');
    assert.equal(focusSkill([rate('x', 0.9)], []), null);
  });
});
