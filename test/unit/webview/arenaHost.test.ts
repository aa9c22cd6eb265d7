/**
 * The arena panel's host side on real games: a recorded match file becomes the replay's frames
 * (positions, captures and tags as the game had them; the Connect Four board rebuilt from the
 * moves), an arena run folder is read through the protocol's parsers, and a match pairs with
 * other submissions' games on the same opponent and seed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isArenaRun, readArenaFiles, readMatch } from '../../../src/extension/panels/arenaFiles';
import { matchToTrajectory } from '../../../src/extension/panels/arenaMatch';
import { arenaReplayMessage, comparableSubmissions, pairedGame } from '../../../src/extension/panels/arenaReplay';
import { parseMatchTrajectory, type CtfStep, type MatchTrajectory } from '../../../src/protocol/arenaMatch';
import type { ReplayLoad } from '../../../src/protocol/webview';
import { connectFourMatch, ctfMatchWithTag, matchLines, writeArenaRun } from '../../browser/arenaFixtures';

const roundTrip = (m: MatchTrajectory): MatchTrajectory => {
  const r = parseMatchTrajectory(matchLines(m));
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

describe('arena matches for the replay (host side)', () => {
  it('capture the flag: one frame per recorded state, agents, captures and tags as recorded', () => {
    const m = roundTrip(ctfMatchWithTag(1, 0, 7, 'planner'));
    const t = matchToTrajectory(m);
    const rows = m.steps as CtfStep[];
    assert.equal(rows[0]?.t, 0, 'the first line is the state after reset');
    assert.equal(t.steps.length, rows.length - 1);
    const initial = t.initialSnapshot as { agents: { id: string; team: string; x: number }[] };
    assert.deepEqual(initial.agents.map((a) => [a.id, a.team]), m.header.agents.map((id) => [id, id.split('_')[0]]));
    rows.slice(1).forEach((row, i) => {
      const snap = t.steps[i]!.snapshot as { step: number; agents: { x: number; y: number; tagged: boolean }[]; captures: Record<string, number> };
      assert.equal(snap.step, row.t);
      assert.deepEqual(snap.agents.map((a) => [a.x, a.y, a.tagged ? 1 : 0]), row.agents.map((a) => [a[0], a[1], a[3]]));
      assert.deepEqual(snap.captures, row.captures);
    });
    const own = m.header.submissionSide;
    const scores = m.outcome!.scores;
    const ret = t.steps.reduce((a, s) => a + s.reward, 0);
    assert.equal(ret, (scores[own] ?? 0) - Object.entries(scores).filter(([k]) => k !== own).reduce((a, [, v]) => a + v, 0), 'return = own captures − theirs');
    const tags = rows.flatMap((r) => (r.events ?? []).filter((e) => e.kind === 'tag'));
    const shown = t.steps.flatMap((s) => ((s.info?.['events'] ?? []) as { kind: string }[]).filter((e) => e.kind === 'tag'));
    assert.ok(tags.length > 0, 'the match has tags');
    assert.deepEqual(shown, tags);
    assert.equal(t.steps.at(-1)?.terminated || t.steps.at(-1)?.truncated, true, 'the last frame ends the match');
  });

  it('Connect Four: the board rebuilt from the moves is the game’s final board; the winner gets +1', () => {
    const m = roundTrip(connectFourMatch());
    const t = matchToTrajectory(m);
    const last = t.steps.at(-1)!.snapshot as { board: number[]; winner: string };
    assert.deepEqual(last.board, m.outcome!.board);
    assert.equal(last.winner, 'red');
    assert.equal(t.steps.reduce((a, s) => a + s.reward, 0), m.outcome!.outcome === 'W' ? 1 : -1);
    // The runner marks an illegal move with column -1: the board stays as it was.
    const illegal: MatchTrajectory = { ...m, steps: [...m.steps.slice(0, 3), { type: 'step', t: 3, mover: 'yellow', column: -1 }], outcome: { type: 'outcome', outcome: 'W', scores: { red: 1, yellow: -1 }, steps: 4, truncated: false } };
    const ti = matchToTrajectory(illegal);
    assert.deepEqual((ti.steps[3]!.snapshot as { board: number[] }).board, (ti.steps[2]!.snapshot as { board: number[] }).board);
  });
});

describe('arena run files (host side)', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'pf-arena-host-'));
    writeArenaRun(dir, 'ConnectFour-v0', [
      { submission: 1, plays: 'defensive', games: [{ opponent: 'aggressive', seed: 3 }, { opponent: 'random', seed: 4 }] },
      { submission: 2, plays: 'minimax', games: [{ opponent: 'aggressive', seed: 3, side: 'yellow' }, { opponent: 'aggressive', seed: 3 }] },
      { submission: 3, plays: 'random', games: [{ opponent: 'random', seed: 3 }] },
    ]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads summaries, pool and ratings through the protocol, and says which files are bad', async () => {
    assert.equal(await isArenaRun(dir), true);
    const f = await readArenaFiles(dir);
    assert.deepEqual(f.submissions.map((s) => s.submission), [1, 2, 3]);
    assert.equal(f.envId, 'ConnectFour-v0');
    assert.deepEqual(f.pool?.entries.map((e) => e.id), ['aggressive', 'random']);
    assert.equal(f.ratings, null, 'no ratings file yet');
    writeFileSync(join(dir, 'feedback', 'arena', 'ratings.json'), '{"format":"arena-ratings/1","table":[]}');
    const g = await readArenaFiles(dir);
    assert.equal(g.problems.length, 1);
    assert.match(g.problems[0]!, /ratings\.json: .*history/);
    rmSync(join(dir, 'feedback', 'arena', 'ratings.json'));
  });

  it('pairs a game with other submissions’ games on the same opponent and seed, same seat first', async () => {
    const f = await readArenaFiles(dir);
    const base = f.submissions[0]!.games[0]!;
    assert.deepEqual(comparableSubmissions(f.submissions, base, 1), [2], '#3 played random, not aggressive, on seed 3');
    assert.equal(pairedGame(f.submissions, base, 2)?.side, base.side, 'the game in the same seat, though the other one came first');
    const load = await arenaReplayMessage(dir, { submission: 1, caseIndex: base.game, compareWith: 2 }) as ReplayLoad;
    assert.equal(load.type, 'replay.load');
    assert.equal(load.family, 'arena/connect-four');
    assert.deepEqual(load.match?.games.map((g) => g.side), [base.side, base.side]);
    assert.equal(load.sides.length, 2);
    assert.ok(load.sides.every((s) => s.trajectory !== null));
    const missing = await arenaReplayMessage(dir, { submission: 1, caseIndex: 999 });
    assert.deepEqual(missing, { type: 'host.error', message: 'Submission #1 has no game 999 on disk.' });
  });

  it('never reads a match file outside the run folder', async () => {
    const f = await readArenaFiles(dir);
    const game = { ...f.submissions[0]!.games[0]!, trajectory: '../../etc/passwd' };
    const r = await readMatch(dir, 1, game);
    assert.ok('problem' in r && /leaves the run folder/.test(r.problem));
  });
});
