import { strict as assert } from 'node:assert';
import { captureTheFlagGame, connectFourGame } from '../../../src/envs/arena';
import { ArenaRun } from '../../../src/runner/arena/session';

const game = connectFourGame();
const builtin = (name: string) => (seed: number | string) => game.opponent(name, seed);

describe('arena run', () => {
  it('promotes a champion that beats the pool, and the next submission plays it', () => {
    const run = new ArenaRun(game, ['random', 'defensive'], { budgetGames: 200 });
    const fb = run.submit('sub-1', builtin('minimax'));
    assert.equal(fb.stage, 'deep');
    assert.equal(fb.promoted, 'champion-1', fb.reason);
    assert.ok(run.pool.list().some((e) => e.id === 'champion-1' && e.kind === 'champion'));
    const next = run.submit('sub-2', builtin('aggressive'));
    const vsChampion = next.screen.find((o) => o.opponent === 'champion-1');
    assert.equal(vsChampion?.games, 3, 'the promoted champion is played in the screen');
  });

  it('the screen stops a weak candidate before the deep evaluation; both stages are charged', () => {
    const run = new ArenaRun(game, ['aggressive', 'minimax'], { budgetGames: 200 });
    const fb = run.submit('weak', builtin('random'));
    assert.equal(fb.stage, 'screen');
    assert.match(fb.reason, /below the pass mark/);
    assert.equal(fb.deep.length, 0);
    assert.equal(fb.gamesCharged, 6);
    const strong = run.submit('strong', builtin('minimax'));
    assert.equal(strong.stage, 'deep');
    assert.equal(strong.gamesCharged, 6 + 20);
    assert.equal(run.gamesUsed, 32);
  });

  it('weakness pressure: the hardest opponent gets double weight and more deep games', () => {
    const run = new ArenaRun(game, ['random', 'defensive', 'minimax'], { budgetGames: 200, screenPass: 0 });
    const fb = run.submit('mid', builtin('aggressive'));
    assert.deepEqual(fb.weights, { random: 1, defensive: 1, minimax: 2 });
    const deep = Object.fromEntries(fb.deep.map((o) => [o.opponent, o.games]));
    assert.equal(deep['minimax'], 10);
    assert.equal(deep['random'], 5);
    assert.equal(run.status().pool.find((p) => p.id === 'minimax')?.weight, 2);
  });

  it('pin and drop opponents', () => {
    const run = new ArenaRun(game, ['random', 'defensive'], { budgetGames: 50 });
    run.pool.pin('random');
    assert.throws(() => run.pool.drop('random'), /pinned/);
    run.pool.drop('defensive');
    assert.deepEqual(run.pool.list().map((e) => e.id), ['random']);
  });

  it('a failing submission loses with its error in the feedback; the budget is enforced', () => {
    const run = new ArenaRun(game, ['random'], { budgetGames: 4 });
    const fb = run.submit('broken', () => () => { throw new Error('boom'); });
    assert.equal(fb.screen[0]?.L, 3);
    assert.match(fb.screen[0]?.errors[0] ?? '', /boom/);
    assert.throws(() => run.submit('again', builtin('random')), /games are left|needs 3 games/);
  });

  it('rates every participant over time and assesses against hidden opponents', () => {
    const run = new ArenaRun(game, ['random', 'defensive'], { budgetGames: 100 });
    run.submit('s', builtin('minimax'));
    const table = run.ratings.table();
    assert.equal(table[0]?.id, 's');
    assert.ok(run.ratings.history.length >= 2 * run.gamesUsed);
    const a = run.assess('s', [{ id: 'aggressive', make: builtin('aggressive') }], 4);
    assert.ok(a.hidden.winRate >= 0.5);
    assert.ok(a.finalPool.perOpponent.every((o) => o.opponent !== 'champion-1'), 'its own champion copy is not an opponent');
    assert.equal(run.gamesUsed, 26, 'assessment is not charged');
  });

  it('runs capture the flag too', () => {
    const ctf = captureTheFlagGame();
    const run = new ArenaRun(ctf, ['random'], { budgetGames: 3 });
    const fb = run.submit('planner', (s) => ctf.opponent('planner', s));
    assert.equal(fb.screen[0]?.W, 3);
  });
});
