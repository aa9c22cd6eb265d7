/**
 * The Leaderboard panel in Chromium, fed a board src/leaderboard computed from a constructed table
 * (a tie, a baseline ranked above an agent, a lower-is-better environment, one environment with a
 * single entry): the aggregate table prints the board's own figures in its order, each environment
 * gets a bar chart in rank order with its baselines drawn apart, and exports and source picks go to
 * the host. Screenshots (light and dark) go to test-results/webview/.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildLeaderboard } from '../../src/leaderboard/leaderboard';
import type { ScoreRow } from '../../src/leaderboard/types';
import type { LeaderboardSnapshot } from '../../src/protocol/webview';
import { cspViolations, panelSuite } from './suite';

const OUT = resolve('test-results/webview');

const row = (environment: string, entry: string, score: number | null, kind: 'agent' | 'baseline' = 'agent'): ScoreRow => ({ environment, entry, score, kind });

/** Three agents and two baselines over four environments; Pendulum's starter beats agent "gamma". */
function constructedRows(): ScoreRow[] {
  return [
    row('CartPole-v1', 'alpha', 500), row('CartPole-v1', 'beta', 500), row('CartPole-v1', 'gamma', 210),
    row('CartPole-v1', 'starter', 9.4, 'baseline'), row('CartPole-v1', 'uniform-random', 22.1, 'baseline'),
    row('Pendulum-v1', 'alpha', -160), row('Pendulum-v1', 'alpha', -180), row('Pendulum-v1', 'beta', -420), row('Pendulum-v1', 'gamma', -1250),
    row('Pendulum-v1', 'starter', -1100, 'baseline'), row('Pendulum-v1', 'uniform-random', -1230, 'baseline'),
    row('MiniGrid-Empty-5x5-v0', 'alpha', 0.91), row('MiniGrid-Empty-5x5-v0', 'beta', 0.95), row('MiniGrid-Empty-5x5-v0', 'gamma', null),
    row('MiniGrid-Empty-5x5-v0', 'uniform-random', 0.12, 'baseline'),
    row('CostToGo-v0', 'alpha', 12), row('CostToGo-v0', 'beta', 30), row('CostToGo-v0', 'uniform-random', 55, 'baseline'),
    row('Lonely-v0', 'alpha', 3),
  ];
}

const FAMILY: Record<string, string> = { 'CartPole-v1': 'classic', 'Pendulum-v1': 'classic', 'MiniGrid-Empty-5x5-v0': 'minigrid' };

function snapshot(): LeaderboardSnapshot {
  const board = buildLeaderboard(constructedRows(), { familyOf: (id) => FAMILY[id] ?? 'other', lowerIsBetter: (id) => id === 'CostToGo-v0' });
  return { type: 'leaderboard.snapshot', sources: [{ path: '/suites/demo', kind: 'suite', rows: constructedRows().length }], board, problems: [] };
}

describe('Leaderboard panel in Chromium', function () {
  this.timeout(60_000);
  const { panel } = panelSuite();

  it('shows the aggregate table with the board\'s figures, in its order, with family sub-scores', async () => {
    const snap = snapshot();
    const board = snap.board!;
    const p = await panel('leaderboard');
    await p.send(snap);
    await p.rendered(1);
    const rows = await p.page.$$eval('section[aria-label="Aggregate ranking"] tbody tr', (trs) => trs.map((tr) => ({
      entry: tr.getAttribute('data-entry'),
      rankScore: tr.querySelector('[data-col="rankScore"]')?.textContent,
      classic: tr.querySelector('[data-col="family:classic"]')?.textContent,
      wins: tr.querySelector('[data-col="wins"]')?.textContent,
      podiums: tr.querySelector('[data-col="podiums"]')?.textContent,
      avg: tr.querySelector('[data-col="averagePlacement"]')?.textContent,
    })));
    assert.deepEqual(rows.map((r) => r.entry), board.entries.map((e) => e.entry));
    for (const [i, e] of board.entries.entries()) {
      assert.equal(rows[i]!.rankScore, e.rankScore.toFixed(3), `${e.entry} rank score`);
      assert.equal(rows[i]!.classic, e.families['classic']!.toFixed(3), `${e.entry} classic sub-score`);
      assert.equal(rows[i]!.wins, e.wins === null ? '–' : String(e.wins));
      assert.equal(rows[i]!.podiums, e.podiums === null ? '–' : String(e.podiums));
      assert.equal(rows[i]!.avg, e.averagePlacement === null ? '–' : e.averagePlacement.toFixed(2));
    }
    // The starter outranks agent gamma on Pendulum, and alpha and beta tie on CartPole: both win there.
    const alpha = board.entries.find((e) => e.entry === 'alpha')!;
    assert.equal(alpha.wins, 3);
    assert.equal(rows.find((r) => r.entry === 'starter')!.wins, '–', 'baselines have no placement among agents');
    assert.match((await p.page.textContent('.subtitle')) ?? '', /5 entries · 4 environments ranked/);
    assert.match((await p.page.textContent('main')) ?? '', /Left out of the aggregate .*: Lonely-v0\./);
    assert.deepEqual(cspViolations(p), []);
  });

  it('draws each environment in rank order, baselines hatched and labelled, lower-is-better noted', async () => {
    const snap = snapshot();
    const p = await panel('leaderboard');
    await p.send(snap);
    await p.rendered(1);
    for (const env of snap.board!.environments) {
      const bars = await p.page.$$eval(`section[data-environment="${env.environment}"] g.bar-row`, (gs) => gs.map((g) => ({
        entry: g.getAttribute('data-entry'),
        rank: Number(g.getAttribute('data-rank')),
        baseline: g.classList.contains('baseline'),
        fill: g.querySelector('rect')?.getAttribute('fill') ?? null,
        hasBar: g.querySelector('rect') !== null,
        label: g.querySelector('text.label')?.textContent,
      })));
      assert.deepEqual(bars.map((b) => b.entry), env.ranking.map((r) => r.entry), env.environment);
      assert.deepEqual(bars.map((b) => b.rank), env.ranking.map((r) => r.rank));
      for (const b of bars) {
        const r = env.ranking.find((x) => x.entry === b.entry)!;
        assert.equal(b.baseline, r.kind === 'baseline');
        if (b.baseline && b.hasBar) assert.match(b.fill ?? '', /^url\(#pf-hatch-\d+\)$/, `${b.entry} on ${env.environment} is hatched`);
        if (!b.baseline) assert.equal(b.fill, null);
        assert.equal(b.label, `${r.rank}. ${r.entry}${b.baseline ? ' (baseline)' : ''}`);
        assert.equal(b.hasBar, r.score !== null, 'an entry without a score has no bar');
      }
    }
    const pendulum = await p.page.getAttribute('section[data-environment="Pendulum-v1"] svg', 'aria-label');
    assert.equal(pendulum, 'Pendulum-v1: 5 entries ranked; first alpha with -170; 2 baselines.');
    assert.match((await p.page.textContent('section[data-environment="CostToGo-v0"] .card-header')) ?? '', /lower is better/);
    mkdirSync(OUT, { recursive: true });
    await p.page.screenshot({ path: join(OUT, 'leaderboard-light.png'), fullPage: true });
    await p.setTheme('dark');
    await p.page.screenshot({ path: join(OUT, 'leaderboard-dark.png'), fullPage: true });
    assert.deepEqual(cspViolations(p), []);
  });

  it('asks the host to export, pick sources and reload; keeps its sources in the saved state', async () => {
    const p = await panel('leaderboard');
    await p.send(snapshot());
    await p.rendered(1);
    await p.page.click('section[aria-label="Aggregate ranking"] vscode-button[title^="Export the aggregate table as CSV"]');
    await p.page.click('section[aria-label="Aggregate ranking"] vscode-button[title^="Export the leaderboard as JSON"]');
    await p.page.click('vscode-button[title="Show the leaderboard of a suite folder"]');
    await p.page.click('vscode-button[title="Add more run workspaces to the current sources"]');
    await p.page.click('vscode-button[title="Read the sources again"]');
    const sent = (await p.sent()).filter((m) => m.type.startsWith('leaderboard.'));
    assert.deepEqual(sent, [
      { type: 'leaderboard.export', format: 'csv' },
      { type: 'leaderboard.export', format: 'json' },
      { type: 'leaderboard.pick', source: 'suite' },
      { type: 'leaderboard.pick', source: 'runs', add: true },
      { type: 'leaderboard.reload' },
    ]);
    assert.deepEqual(await p.state(), { panel: 'leaderboard', sources: ['/suites/demo'] });
  });

  it('names unreadable sources, and drops a malformed snapshot with a logged error', async () => {
    const p = await panel('leaderboard');
    await p.send({ type: 'leaderboard.snapshot', sources: [], board: null, problems: ['/x: no such file or folder'] });
    await p.rendered(1);
    assert.equal(await p.page.textContent('.banner.error'), '/x: no such file or folder');
    assert.match((await p.page.textContent('section[aria-label="Aggregate ranking"]')) ?? '', /Nothing loaded yet\./);
    await p.send({ type: 'leaderboard.snapshot', sources: [], board: { entries: 'no' }, problems: [] });
    const logs = await p.page.waitForFunction(() => (window as unknown as { __pf: { sent: { type: string; message?: string }[] } }).__pf.sent.some((m) => m.type === 'log' && /leaderboard\.snapshot/.test(m.message ?? '')));
    assert.ok(logs);
    assert.equal(await p.page.evaluate(() => document.body.dataset['rendered']), '1');
  });
});
