/**
 * AGENTS.md on an arena run explains the run an agent is in: games as the budget, the screen and
 * deep stages with this run's numbers, promotion, weights, pin/drop, the hidden-opponent
 * assessment, the side and ownAgents contract and the match files. A single-agent run keeps its
 * own text.
 */
import { strict as assert } from 'node:assert';
import { agentsMd } from '../../../src/agents/agentsMd';
import { createRegistry } from '../../../src/envs';
import { makeRunConfig, type RunConfig } from '../../../src/runner/config';

const registry = createRegistry();

function configOf(envId: string, extra: Record<string, unknown> = {}): RunConfig {
  const made = makeRunConfig({ envId, params: {}, ...extra } as Parameters<typeof makeRunConfig>[0]);
  if (!made.ok) throw new Error(made.error);
  return made.config;
}

describe('AGENTS.md for arena runs', () => {
  it('states the budget in games and the stages, promotion and weights with the run\'s own numbers', () => {
    const config = configOf('CaptureTheFlag-v0', { budget: 300, arena: { screenGames: 4, deepGames: 24, screenPass: 0.6, promotionMargin: 0.2 } });
    const text = agentsMd(registry.get('CaptureTheFlag-v0'), config, 'pf');
    assert.match(text, /arena run/);
    assert.match(text, /\*\*300 games\*\*/);
    assert.match(text, /4 games against every opponent in the pool\s+\(16 games with the 4 built-ins/);
    assert.match(text, /at least \*\*0.6\*\*/);
    assert.match(text, /plays 24 more games/);
    assert.match(text, /at least \*\*0.70\*\* \(½ \+ 0.2\)/);
    assert.match(text, /weighs 2/);
    assert.match(text, /`pf pool pin ID`/);
    assert.match(text, /`pf pool drop ID`/);
    assert.match(text, /hidden\s+opponents never seen during the run/);
    assert.match(text, /assessment\.hidden/);
    assert.match(text, /assessment\.finalPool/);
    for (const o of ['random', 'defensive', 'aggressive', 'planner']) assert.match(text, new RegExp(`\`${o}\``));
  });

  it('explains the side contract, the observation layout and the match files', () => {
    const text = agentsMd(registry.get('CaptureTheFlag-v0'), configOf('CaptureTheFlag-v0'), 'pf');
    assert.match(text, /ctx\.side/);
    assert.match(text, /ctx\.ownAgents/);
    assert.match(text, /record \*agent id → action\*/);
    assert.match(text, /\[x, y, cos heading, sin heading, speed fraction, tagged, carrying\]/, 'the game guide with the observation layout');
    assert.match(text, /games\/game-NNNNN\.jsonl/);
    assert.match(text, /submissionSide/);
    assert.match(text, /the whole game/);
    assert.doesNotMatch(text, /--cases/, 'no single-agent verbs');
    assert.doesNotMatch(text, /recorded trajectory \|/, 'a match file is kept whole');
  });

  it('uses the Connect Four seats and opponents', () => {
    const text = agentsMd(registry.get('ConnectFour-v0'), configOf('ConnectFour-v0'), 'pf');
    assert.match(text, /`red` or\s+`yellow`/);
    assert.match(text, /`minimax`/);
    assert.match(text, /called only when it is your move/);
  });

  it('leaves single-agent runs as they were', () => {
    const text = agentsMd(registry.get('CartPole-v1'), configOf('CartPole-v1'), 'pf');
    assert.doesNotMatch(text, /arena run/);
    assert.match(text, /`pf submit --cases 0-7`/);
    assert.match(text, /recorded trajectory \| the first 2000 steps of each episode/);
  });
});
