/**
 * What the Leaderboard panel shows and exports is what `policyforge leaderboard` prints: the same
 * board from the same sources, the same JSON (`--json`) and CSV (`--format csv`), and an
 * unreadable source named without hiding the others.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { leaderboardExport, loadLeaderboard } from '../../../src/extension/leaderboard/leaderboardData';
import { optionsFromDefinitions } from '../../../src/leaderboard/options';
import { createRegistry } from '../../../src/envs';
import { leaderboardSchema } from '../../../src/protocol/leaderboard';
import { checkHostMessage } from '../../../src/protocol/webview';
import { pf } from '../cli/cliHelpers';

describe('leaderboard panel data', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-lb-panel-'));
    fs.mkdirSync(path.join(dir, 'suite'));
    fs.writeFileSync(path.join(dir, 'suite', 'results.csv'), [
      'environment,entry,score,kind',
      'CartPole-v1,alpha,500,agent', 'CartPole-v1,beta,500,agent', 'CartPole-v1,starter,9.5,baseline',
      'Pendulum-v1,alpha,-150,agent', 'Pendulum-v1,beta,-900,agent', 'Pendulum-v1,starter,-800,baseline',
      'MiniGrid-Empty-5x5-v0,alpha,,agent', 'MiniGrid-Empty-5x5-v0,beta,0.9,agent',
    ].join('\n'));
    fs.writeFileSync(path.join(dir, 'extra.csv'), 'environment,entry,score,kind\nAcrobot-v1,alpha,-90,agent\nAcrobot-v1,uniform-random,-500,baseline\n');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const registry = createRegistry();
  const options = optionsFromDefinitions((id) => (registry.has(id) ? registry.get(id) : undefined));

  it('ranks every readable source together and names the unreadable ones', () => {
    const { snapshot, board } = loadLeaderboard([path.join(dir, 'suite'), path.join(dir, 'extra.csv'), path.join(dir, 'missing')], options);
    assert.deepEqual(snapshot.sources.map((s) => [path.basename(s.path), s.kind, s.rows]), [['suite', 'suite', 8], ['extra.csv', 'csv', 2]]);
    assert.equal(snapshot.problems.length, 1);
    assert.match(snapshot.problems[0]!, /missing: no such file or folder/);
    assert.deepEqual(board!.entries.map((e) => e.entry), ['alpha', 'beta', 'starter', 'uniform-random']);
    assert.deepEqual(Object.keys(board!.entries[0]!.families), ['classic', 'minigrid']);
    // The snapshot passes the webview's own check, NaN-free or not.
    assert.ok(checkHostMessage(snapshot).ok);
  });

  it('exports exactly what the CLI writes for the same sources', function () {
    this.timeout(60_000);
    const sources = [path.join(dir, 'suite'), path.join(dir, 'extra.csv')];
    const { board } = loadLeaderboard(sources, options);
    const cli = (...args: string[]): string => {
      const r = pf(dir, 'leaderboard', ...sources, ...args);
      assert.equal(r.code, 0, r.err);
      return r.out;
    };
    assert.equal(leaderboardExport(board!, 'json'), cli('--json'));
    assert.equal(leaderboardExport(board!, 'csv'), cli('--format', 'csv'));
  });

  it('reads a board back from its JSON, where a missing rank score became null', () => {
    const { board } = loadLeaderboard([path.join(dir, 'extra.csv')], options);
    const lonely = { ...board!, environments: [...board!.environments, { environment: 'X', family: 'other', lowerIsBetter: false, ranking: [{ entry: 'a', kind: 'agent', score: 1, repeats: 1, rank: 1, rankScore: Number.NaN, placement: 1 }] }] };
    const parsed = leaderboardSchema.safeParse(JSON.parse(JSON.stringify(lonely)));
    assert.ok(parsed.success);
    assert.ok(Number.isNaN(parsed.data.environments[1]!.ranking[0]!.rankScore));
  });
});
