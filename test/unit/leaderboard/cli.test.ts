import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pf } from '../cli/cliHelpers';
import { cleanupTmp, tmpDir } from '../runner/helpers';

describe('policyforge leaderboard (built CLI)', function () {
  this.timeout(60_000);
  after(() => cleanupTmp());

  const table = [
    'environment,entry,score,kind',
    'CartPole-v1,A,500,agent',
    'CartPole-v1,B,200,agent',
    'CartPole-v1,starter,300,baseline',
    'Acrobot-v1,A,-90,agent',
    'Acrobot-v1,B,-90,agent',
    'Acrobot-v1,starter,-500,baseline',
  ].join('\n');

  it('--json prints entries with rankScore, wins, podiums, averagePlacement and families', () => {
    const dir = tmpDir('lb');
    fs.writeFileSync(path.join(dir, 'r.csv'), table);
    const r = pf(dir, 'leaderboard', 'r.csv', '--json');
    assert.equal(r.code, 0, r.err);
    const entries = (r.json() as { entries: Record<string, unknown>[] }).entries;
    assert.deepEqual(entries[0], { entry: 'A', kind: 'agent', rankScore: 1, wins: 2, podiums: 2, averagePlacement: 1, families: { classic: 1 }, environments: 2 });
    assert.deepEqual(entries.map((e) => [e['entry'], e['rankScore']]), [
      ['A', 1],
      ['B', (0 + 1) / 2],
      ['starter', (0.5 + 0) / 2],
    ]);
  });

  it('--format csv and markdown; a bad file exits 1 naming the line; no source exits 2', () => {
    const dir = tmpDir('lb');
    fs.writeFileSync(path.join(dir, 'r.csv'), table);
    assert.match(pf(dir, 'leaderboard', 'r.csv', '--format', 'csv').out, /^place,entry,kind,rankScore/);
    assert.match(pf(dir, 'leaderboard', 'r.csv').out, /### Acrobot-v1 \(classic\)/);
    fs.writeFileSync(path.join(dir, 'bad.csv'), 'environment,entry,score,kind\nE,A,oops,agent\n');
    const bad = pf(dir, 'leaderboard', 'bad.csv');
    assert.equal(bad.code, 1);
    assert.match(bad.err, /bad\.csv:2: score is not a number/);
    assert.equal(pf(dir, 'leaderboard').code, 2);
    assert.equal(pf(dir, 'leaderboard', 'r.csv', '--format', 'html').code, 2);
  });
});
