import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseScoreRows, scoreRowsToCsv } from '../../../src/leaderboard/csv';
import { leaderboardCsv, leaderboardMarkdown } from '../../../src/leaderboard/format';
import { buildLeaderboard } from '../../../src/leaderboard/leaderboard';
import { competitionRanks, rankToScore } from '../../../src/leaderboard/rank';
import { readRows } from '../../../src/leaderboard/sources';
import type { ScoreRow } from '../../../src/leaderboard/types';

const row = (environment: string, entry: string, score: number | null, kind: 'agent' | 'baseline' = 'agent', family?: string): ScoreRow => ({
  environment,
  entry,
  score,
  kind,
  ...(family ? { family } : {}),
});

describe('leaderboard', () => {
  describe('competition ranking', () => {
    it('tied scores share the best rank and the next score skips the shared places (1224)', () => {
      assert.deepEqual(competitionRanks([10, 7, 7, 3]), [1, 2, 2, 4]);
      assert.deepEqual(competitionRanks([5, 5, 5]), [1, 1, 1]);
    });
    it('lower is better when the environment says so', () => {
      assert.deepEqual(competitionRanks([10, 7, 7, 3], true), [4, 2, 2, 1]);
    });
    it('a missing score ranks after every real one', () => {
      assert.deepEqual(competitionRanks([null, -500, NaN, 2]), [3, 2, 3, 1]);
    });
    it('rank score is (K − rank)/(K − 1)', () => {
      assert.equal(rankToScore(1, 4), 1);
      assert.equal(rankToScore(4, 4), 0);
      assert.equal(rankToScore(2, 4), 2 / 3);
      assert.throws(() => rankToScore(1, 1), /at least two/);
    });
  });

  describe('on a constructed table', () => {
    // Two classic environments, one grid environment; a baseline beats agent B on CartPole,
    // and A and B tie on Acrobot.
    const rows: ScoreRow[] = [
      row('CartPole-v1', 'A', 500),
      row('CartPole-v1', 'B', 200),
      row('CartPole-v1', 'starter', 300, 'baseline'),
      row('CartPole-v1', 'random', 20, 'baseline'),
      row('Acrobot-v1', 'A', -90),
      row('Acrobot-v1', 'B', -90),
      row('Acrobot-v1', 'starter', -500, 'baseline'),
      row('Acrobot-v1', 'random', -480, 'baseline'),
      row('MiniGrid-Empty-5x5-v0', 'A', 0.2),
      row('MiniGrid-Empty-5x5-v0', 'B', 0.9),
      row('MiniGrid-Empty-5x5-v0', 'starter', 0.5, 'baseline'),
      row('MiniGrid-Empty-5x5-v0', 'random', 0.1, 'baseline'),
    ];
    const familyOf = (env: string): string => (env.startsWith('MiniGrid') ? 'minigrid' : 'classic');
    const board = buildLeaderboard(rows, { familyOf });
    const entry = (name: string) => board.entries.find((e) => e.entry === name)!;

    it('ranks every environment with baselines included in K', () => {
      const cart = board.environments.find((e) => e.environment === 'CartPole-v1')!;
      assert.deepEqual(
        cart.ranking.map((r) => [r.entry, r.rank, r.rankScore]),
        [
          ['A', 1, 1],
          ['starter', 2, 2 / 3],
          ['B', 3, 1 / 3],
          ['random', 4, 0],
        ],
      );
      const acro = board.environments.find((e) => e.environment === 'Acrobot-v1')!;
      assert.deepEqual(
        acro.ranking.map((r) => [r.entry, r.rank]),
        [
          ['A', 1],
          ['B', 1],
          ['random', 3],
          ['starter', 4],
        ],
      );
    });

    it('averages the rank score over environments, and per family', () => {
      // A: CartPole 1, Acrobot 1, MiniGrid rank 3 of 4 → 1/3.
      assert.equal(entry('A').rankScore, (1 + 1 + 1 / 3) / 3);
      // B: 1/3, 1, 1.
      assert.equal(entry('B').rankScore, (1 / 3 + 1 + 1) / 3);
      assert.deepEqual(entry('A').families, { classic: 1, minigrid: 1 / 3 });
      assert.deepEqual(entry('B').families, { classic: (1 / 3 + 1) / 2, minigrid: 1 });
      assert.equal(entry('starter').rankScore, (2 / 3 + 0 + 2 / 3) / 3);
      assert.equal(entry('random').rankScore, (0 + 1 / 3 + 0) / 3);
      assert.deepEqual(
        board.entries.map((e) => e.entry),
        ['A', 'B', 'starter', 'random'],
        'A and B tie on the aggregate; the name breaks the tie for display',
      );
    });

    it('counts wins, podiums and placement among agents only', () => {
      // On CartPole B is third overall (behind the starter) but second among agents.
      assert.deepEqual([entry('A').wins, entry('A').podiums, entry('A').averagePlacement], [2, 3, (1 + 1 + 2) / 3]);
      assert.deepEqual([entry('B').wins, entry('B').podiums, entry('B').averagePlacement], [2, 3, (2 + 1 + 1) / 3]);
      assert.equal(entry('starter').wins, null);
      assert.equal(entry('starter').averagePlacement, null);
    });

    it('ranks a lower-is-better environment the other way', () => {
      const flipped = buildLeaderboard(rows, { familyOf, lowerIsBetter: (e) => e === 'CartPole-v1' });
      const cart = flipped.environments.find((e) => e.environment === 'CartPole-v1')!;
      assert.deepEqual(cart.ranking.map((r) => r.entry), ['random', 'B', 'starter', 'A']);
      assert.equal(cart.lowerIsBetter, true);
    });

    it('prints the table as CSV and Markdown', () => {
      const csv = leaderboardCsv(board);
      assert.equal(csv.split('\n')[0], 'place,entry,kind,rankScore,wins,podiums,averagePlacement,environments,family:classic,family:minigrid');
      assert.match(csv, /\n3,starter,baseline,0\.4444,,,,3,0\.3333,0\.6667\n/);
      const md = leaderboardMarkdown(board);
      assert.match(md, /\| 1 \| A \| agent \| 0\.7778 \| 2 \| 3 \| 1\.33 \| 3 \| 1 \| 0\.3333 \|/);
      assert.match(md, /### Acrobot-v1 \(classic\)/);
    });
  });

  it('averages repeats of one entry on one environment before ranking', () => {
    const board = buildLeaderboard([row('E', 'A', 10), row('E', 'A', 0), row('E', 'B', 6), row('E', 'B', null)]);
    const ranking = board.environments[0]!.ranking;
    assert.deepEqual(
      ranking.map((r) => [r.entry, r.score, r.repeats, r.rank]),
      [
        ['B', 6, 2, 1],
        ['A', 5, 2, 2],
      ],
    );
  });

  it('a run without a score ranks last', () => {
    const board = buildLeaderboard([row('E', 'A', null), row('E', 'B', -1000), row('E', 'starter', -2000, 'baseline')]);
    assert.deepEqual(board.environments[0]!.ranking.map((r) => r.entry), ['B', 'starter', 'A']);
  });

  it('leaves an environment with one entry out of the aggregate', () => {
    const board = buildLeaderboard([row('E', 'A', 1), row('E', 'B', 2), row('Lonely', 'A', 3)]);
    assert.deepEqual(board.skipped, ['Lonely']);
    assert.equal(board.entries.find((e) => e.entry === 'A')!.environments, 1);
  });

  it('refuses an entry that is an agent in one row and a baseline in another', () => {
    assert.throws(() => buildLeaderboard([row('E', 'A', 1), row('F', 'A', 2, 'baseline'), row('F', 'B', 1), row('E', 'B', 1)]), /both as an agent and as a baseline/);
  });

  describe('CSV input', () => {
    it('reads the columns in any order, with quotes and an optional family', () => {
      const rows = parseScoreRows('kind,score,entry,environment,family\nagent,1.5,"my, agent",CartPole-v1,classic\nbaseline,,starter,CartPole-v1,\n');
      assert.deepEqual(rows, [
        { environment: 'CartPole-v1', entry: 'my, agent', score: 1.5, kind: 'agent', family: 'classic' },
        { environment: 'CartPole-v1', entry: 'starter', score: null, kind: 'baseline' },
      ]);
      assert.deepEqual(parseScoreRows(scoreRowsToCsv(rows)), rows);
    });
    it('names the line of a bad row and the missing columns', () => {
      assert.throws(() => parseScoreRows('environment,entry,score\nE,A,1\n'), /missing column\(s\) kind/);
      assert.throws(() => parseScoreRows('environment,entry,score,kind\nE,A,1,agent\nE,B,x,agent\n', 't.csv'), /t\.csv:3: score is not a number/);
      assert.throws(() => parseScoreRows('environment,entry,score,kind\nE,A,1,human\n'), /kind must be agent or baseline/);
    });
  });

  describe('report folders', () => {
    let tmp: string;
    beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-lb-'))));
    afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

    it('a workspace gives its selected policy as an agent and its baselines, named after the folder', () => {
      const ws = path.join(tmp, 'my-agent');
      fs.mkdirSync(path.join(ws, '.policyforge'), { recursive: true });
      fs.writeFileSync(
        path.join(ws, '.policyforge', 'report.json'),
        JSON.stringify({ envId: 'CartPole-v1', heldOut: { mean: 480 }, starterHeldOut: { mean: 40 }, baselines: { random: { heldOut: { mean: 22 } } } }),
      );
      assert.deepEqual(readRows(ws), [
        { environment: 'CartPole-v1', entry: 'my-agent', score: 480, kind: 'agent' },
        { environment: 'CartPole-v1', entry: 'starter', score: 40, kind: 'baseline' },
        { environment: 'CartPole-v1', entry: 'random', score: 22, kind: 'baseline' },
      ]);
      assert.equal(readRows(ws, 'named')[0]!.entry, 'named');
    });
    it('a folder that is neither a suite nor a finished run is an error that says so', () => {
      assert.throws(() => readRows(tmp), /neither a suite folder \(results\.csv\) nor a finished run/);
    });
  });
});
