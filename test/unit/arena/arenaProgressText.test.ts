/** What progress displays and `status` say about an arena finish: the stage, against whom, the candidate. */
import assert from 'node:assert/strict';
import type { ArenaStatus } from '../../../src/protocol/arena';
import { arenaProgressText, formatArenaStatus } from '../../../src/stats/arenaText';

const status = (finishing: ArenaStatus['finishing'], phase: ArenaStatus['phase']): ArenaStatus => ({
  phase,
  envId: 'ConnectFour-v0',
  budget: { total: 100, used: 40, remaining: 60 },
  options: { screenGames: 3, deepGames: 20, screenPass: 0.5, promotionMargin: 0.25, maxPool: 8 },
  pool: [],
  weights: {},
  events: [],
  ratings: [],
  history: [],
  running: null,
  finishing,
  recovery: [],
});

describe('arena progress and status text', () => {
  it('names the submit stages as before', () => {
    assert.equal(arenaProgressText({ phase: 'screen', submission: 3, done: 5, total: 12 }), 'submission 3: screen 5/12 games');
  });

  it('names the finish stage, whom it plays and the candidate', () => {
    assert.equal(arenaProgressText({ phase: 'validation', submission: 2, done: 3, total: 8, against: 'pool', candidates: { done: 1, total: 3 } }), 'submission 2: validation against the final pool 3/8 games (candidate 2 of 3)');
    assert.equal(arenaProgressText({ phase: 'assessment', submission: 2, done: 4, total: 20, against: 'hidden' }), 'submission 2: assessment against the hidden opponents 4/20 games');
  });

  it('status shows the finish under way, or that it is starting', () => {
    const assessing = formatArenaStatus(status({ phase: 'assessment', against: 'pool', submission: 4, candidatesDone: 0, candidatesTotal: 0, gamesDone: 7, gamesTotal: 40 }, 'assessing'));
    assert.match(assessing, /phase assessing/);
    assert.match(assessing, /^finishing: submission 4: assessment against the final pool 7\/40 games$/m);
    const starting = formatArenaStatus(status({ phase: 'validation', against: 'pool', submission: 0, candidatesDone: 0, candidatesTotal: 0, gamesDone: 0, gamesTotal: 0 }, 'validating'));
    assert.match(starting, /^finishing: starting the validation$/m);
    assert.doesNotMatch(formatArenaStatus(status(null, 'agent')), /finishing/);
  });
});
