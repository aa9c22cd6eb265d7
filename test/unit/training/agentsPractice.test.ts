import assert from 'node:assert/strict';
import { agentsMd } from '../../../src/agents/agentsMd';
import { createRegistry } from '../../../src/envs';
import { makeRunConfig } from '../../../src/runner/config';

describe('AGENTS.md explains practice submits', () => {
  const registry = createRegistry();
  const md = (envId: string, extra: Record<string, unknown> = {}): string => {
    const c = makeRunConfig({ envId, budget: 64, ...extra });
    assert.ok(c.ok);
    return agentsMd(registry.get(envId), c.config, 'policyforge');
  };

  it('names the practice budget, the knobs with their bounds, propose and submit --config', () => {
    const text = md('MiniGrid-DoorKey-8x8-v0', { practiceBudget: 32 });
    assert.match(text, /## Practice submits/);
    assert.match(text, /practice budget of 32 episodes/);
    assert.match(text, /- size: integer 5\.\.16 — Grid side, walls included\n- key_placement: one of anywhere, near_door, far_from_door — Where the key lies/);
    assert.match(text, /policyforge propose/);
    assert.match(text, /policyforge submit --config practice\/proposal\.json --episodes 8/);
    assert.match(text, /never selected/);
  });

  it('defaults the practice budget to the budget, and leaves the section out where nothing is configurable', () => {
    assert.match(md('CartPole-v1'), /practice budget of 64 episodes/);
    assert.doesNotMatch(md('Pusher-v5'), /Practice submits/);
  });
});
