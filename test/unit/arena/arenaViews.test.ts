/** The Run view's rows and the status bar text on an arena run, from its arena.status. */
import assert from 'node:assert/strict';
import type { ArenaStatus } from '../../../src/protocol/arena';
import type { RunInfo } from '../../../src/protocol/run';
import { arenaStatusBarView } from '../../../src/extension/arena/arenaStatusBar';
import { arenaChildNodes, arenaRunNode } from '../../../src/extension/arena/arenaTree';

const info = { runId: 'r1', envId: 'ConnectFour-v0' } as RunInfo;

function status(over: Partial<ArenaStatus> = {}): ArenaStatus {
  return {
    phase: 'agent',
    envId: 'ConnectFour-v0',
    budget: { total: 200, used: 44, remaining: 156 },
    options: { screenGames: 3, deepGames: 20, screenPass: 0.5, promotionMargin: 0.25, maxPool: 8 },
    pool: [
      { id: 'random', kind: 'built-in', pinned: false, weight: 1, winRate: 1, games: 9, joinedAtGame: 0 },
      { id: 'minimax', kind: 'built-in', pinned: true, weight: 2, winRate: 0.4, games: 11, joinedAtGame: 0 },
      { id: 'champion-1', kind: 'champion', pinned: false, weight: 1, winRate: null, games: 0, joinedAtGame: 44, submission: 2, checkpoint: 'abc' },
    ],
    weights: { random: 1, minimax: 2, 'champion-1': 1 },
    events: [],
    ratings: [],
    history: [
      { submission: 1, checkpoint: 'c1', stage: 'screen', screenPointsRate: 0.25, deepPointsRate: null, promoted: null, gamesCharged: 12 },
      { submission: 2, checkpoint: 'c2', stage: 'deep', screenPointsRate: 0.92, deepPointsRate: 0.95, promoted: 'champion-1', gamesCharged: 32 },
    ],
    running: null,
    finishing: null,
    recovery: [],
    ...over,
  };
}

describe('arena run in the Run view and status bar', () => {
  it('the run row: games used, then the stage playing, then the finish', () => {
    assert.equal(arenaRunNode(info, status()).description, '44/200 games');
    assert.equal(arenaRunNode(info, status({ running: { submission: 3, stage: 'screen', done: 4, total: 9 } })).description, 'screen 4/9');
    const finishing = status({ phase: 'assessing', finishing: { phase: 'assessment', against: 'hidden', submission: 2, candidatesDone: 0, candidatesTotal: 0, gamesDone: 3, gamesTotal: 20 } });
    assert.equal(arenaRunNode(info, finishing).description, 'assessment 3/20');
    assert.equal(arenaRunNode(info, status({ phase: 'complete' })).contextValue, 'run.complete');
  });

  it('submissions newest first with stage, rates and promotion, then the pool with weights and pins', () => {
    const rows = arenaChildNodes(status()).map((n) => `${n.label} | ${n.description} | ${n.contextValue}`);
    assert.deepEqual(rows, [
      '#2 → champion-1 | deep · screen 0.92 · deep 0.95 | arenaSubmission',
      '#1 | screen · screen 0.25 | arenaSubmission',
      'vs random | built-in · weight 1 | arenaOpponent',
      'vs minimax | built-in · weight 2 · pinned | arenaOpponent.pinned',
      'vs champion-1 | champion · weight 1 | arenaOpponent',
    ]);
  });

  it('the status bar counts games, submissions and champions', () => {
    assert.equal(arenaStatusBarView('ConnectFour-v0', status()).text, '$(beaker) 156/200 games left · 2 submissions, 1 champion');
    assert.equal(arenaStatusBarView('ConnectFour-v0', status({ history: [], pool: [] })).text, '$(beaker) 156/200 games left · no submission yet');
    const done = arenaStatusBarView('ConnectFour-v0', status({ phase: 'complete' }));
    assert.match(done.text, /^\$\(pass\) .* · complete$/);
  });
});
