import { strict as assert } from 'node:assert';
import { ConnectFourEnv } from '../../../src/envs/arena/connectFour/env';
import { CONNECT_FOUR_OPPONENTS, connectFourOpponent } from '../../../src/envs/arena/connectFour/opponents';
import { SideView, playMatch } from '../../../src/envs/core/multiAgent';

function winRate(a: string, b: string, games: number): number {
  let wins = 0;
  for (let g = 0; g < games; g++) {
    const aRed = g % 2 === 0;
    const pa = connectFourOpponent(a as never, g, 3);
    const pb = connectFourOpponent(b as never, 1000 + g, 3);
    const { scores } = playMatch(new ConnectFourEnv(), aRed ? { red: pa, yellow: pb } : { red: pb, yellow: pa }, g, 100);
    if ((aRed ? scores['red'] : scores['yellow']) === 1) wins++;
  }
  return wins / games;
}

describe('ConnectFour-v0', () => {
  it('is turn-based: one active agent, alternating', () => {
    const env = new ConnectFourEnv();
    env.reset();
    assert.deepEqual(env.activeAgents(), ['red']);
    env.step({ red: 3 });
    assert.deepEqual(env.activeAgents(), ['yellow']);
  });

  it('detects a vertical win and scores it', () => {
    const env = new ConnectFourEnv();
    env.reset();
    let r;
    for (let i = 0; i < 4; i++) {
      r = env.step({ red: 0 });
      if (r.terminated) break;
      env.step({ yellow: 1 });
    }
    assert.equal(r!.terminated, true);
    assert.deepEqual(env.scores(), { red: 1, yellow: -1 });
  });

  it('a move into a full column loses', () => {
    const env = new ConnectFourEnv();
    env.reset();
    for (let i = 0; i < 6; i++) env.step(i % 2 === 0 ? { red: 0 } : { yellow: 0 });
    const r = env.step({ red: 0 });
    assert.equal(r.terminated, true);
    assert.equal(env.scores()['yellow'], 1);
  });

  it('the side view plays the opponent turns inside step', () => {
    const view = new SideView(new ConnectFourEnv(), 'yellow', { red: connectFourOpponent('random', 1) });
    const first = view.reset({ seed: 1 });
    const board = first.observation['yellow'] as Int32Array;
    assert.equal([...board].filter((v) => v === -1).length, 1, 'red has already moved');
    assert.deepEqual(view.context().ownAgents, ['yellow']);
  });

  it('the built-in opponents are graded: each stronger one beats the one before', () => {
    for (let i = 1; i < CONNECT_FOUR_OPPONENTS.length; i++) {
      const strong = CONNECT_FOUR_OPPONENTS[i] as string, weak = CONNECT_FOUR_OPPONENTS[i - 1] as string;
      const rate = winRate(strong, weak, 10);
      assert.ok(rate >= 0.6, `${strong} beat ${weak} in only ${rate * 100}% of games`);
    }
  });
});
