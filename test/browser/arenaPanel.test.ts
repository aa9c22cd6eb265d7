/**
 * The arena panel in Chromium, from an arena run's documents (summaries, pool, ratings as the
 * runner writes them): the win-rate matrix sorted by any column and coloured by win rate, a cell
 * that opens its match, the pool's pins, drops and promotions with the buttons' typed messages,
 * and the ratings chart in both views.
 */
import assert from 'node:assert/strict';
import type { HostToWebview } from '../../src/protocol/webview';
import { winRateColors } from '../../webview-ui/arena/model';
import { arenaRunFixture } from './arenaFixtures';
import type { PanelPage } from './harness';
import { cspViolations, panelSuite } from './suite';

const run = arenaRunFixture(5);
const snapshot: HostToWebview = { type: 'arena.snapshot', envId: 'CaptureTheFlag-v0', submissions: run.submissions, pool: run.pool, ratings: run.ratings, report: null, problems: [] };

/** Submission numbers down the matrix, top to bottom. */
const order = (p: PanelPage): Promise<number[]> => p.page.$$eval('section[aria-label="Win rate matrix"] tbody tr', (trs) => trs.map((tr) => Number(tr.getAttribute('data-key'))));
/** Win rate of every row against one opponent (null where the submission did not play it). */
const column = (p: PanelPage, opponent: string): Promise<(number | null)[]> => p.page.$$eval('section[aria-label="Win rate matrix"] tbody tr', (trs, o) => trs.map((tr) => {
  const el = tr.querySelector(`.rate[data-opponent="${o}"]`);
  return el === null ? null : Number(el.getAttribute('data-rate'));
}), opponent);

describe('arena panel in Chromium', function () {
  this.timeout(60_000);
  const { panel } = panelSuite();

  it('sorts the matrix by overall win rate, then by any opponent column, and keeps the order across a reload', async () => {
    const p = await panel('arena');
    await p.send(snapshot);
    await p.rendered(1);
    const overall = new Map(run.submissions.map((s) => {
      const per = s.screen.perOpponent;
      return [s.submission, per.reduce((a, r) => a + r.W, 0) / per.reduce((a, r) => a + r.games, 0)] as const;
    }));
    const byAll = [...overall.entries()].sort((a, b) => b[1] - a[1]).map(([n]) => n);
    assert.deepEqual(await order(p), byAll, 'highest overall win rate first by default');

    await p.page.click('section[aria-label="Win rate matrix"] th button[data-key="vs:planner"]');
    const planner = await column(p, 'planner');
    assert.deepEqual(planner, [...planner].sort((a, b) => (a ?? 0) - (b ?? 0)), 'ascending by the planner column');
    assert.equal(await p.page.getAttribute('section[aria-label="Win rate matrix"] th:has(button[data-key="vs:planner"])', 'aria-sort'), 'ascending');
    await p.page.click('section[aria-label="Win rate matrix"] th button[data-key="vs:planner"]');
    const desc = await column(p, 'planner');
    assert.deepEqual(desc, [...desc].sort((a, b) => (b ?? 0) - (a ?? 0)), 'descending on a second click');
    // A champion only the later submissions met: rows that never played it sort last.
    await p.page.click('section[aria-label="Win rate matrix"] th button[data-key="vs:champion-1"]');
    const champ = await column(p, 'champion-1');
    assert.deepEqual(champ.slice(-3), [null, null, null], 'submissions 1–3 never played champion-1');

    const saved = await p.state() as { sortKey: string; sortDir: string };
    assert.deepEqual([saved.sortKey, saved.sortDir], ['vs:champion-1', 'asc']);
    await p.page.reload();
    await p.send(snapshot);
    await p.rendered(1);
    assert.equal(await p.page.getAttribute('section[aria-label="Win rate matrix"] th:has(button[data-key="vs:champion-1"])', 'aria-sort'), 'ascending', 'the sort survives a reload');
    assert.deepEqual(cspViolations(p), []);
  });

  it('colours each cell by its win rate on a diverging scale, in light, dark and high contrast', async () => {
    for (const theme of ['light', 'dark', 'high-contrast'] as const) {
      const p = await panel('arena', { theme });
      await p.send(snapshot);
      await p.rendered(1);
      const cells = await p.page.$$eval('section[aria-label="Win rate matrix"] .rate[data-opponent]', (els) => els.map((el) => ({ rate: Number(el.getAttribute('data-rate')), bg: getComputedStyle(el).backgroundColor, fg: getComputedStyle(el).color })));
      assert.ok(cells.length >= 20, `${cells.length} coloured cells`);
      const kind = theme === 'light' ? 'light' : theme;
      for (const c of cells) {
        const want = winRateColors(c.rate, kind);
        assert.equal(c.bg, want.background, `${theme}: cell at ${c.rate} has its scale colour`);
        assert.equal(c.fg, want.foreground === '#000000' ? 'rgb(0, 0, 0)' : 'rgb(255, 255, 255)');
      }
      // Blue grows and red shrinks with the win rate: the scale reads the same way everywhere.
      const blueness = (bg: string): number => {
        const [r, , b] = bg.match(/\d+/g)!.map(Number);
        return (b as number) - (r as number);
      };
      const sorted = [...cells].sort((a, b) => a.rate - b.rate);
      for (let i = 1; i < sorted.length; i++) {
        if (sorted[i]!.rate > sorted[i - 1]!.rate) assert.ok(blueness(sorted[i]!.bg) >= blueness(sorted[i - 1]!.bg), `${theme}: ${sorted[i]!.rate} is no less blue than ${sorted[i - 1]!.rate}`);
      }
      assert.ok(blueness(sorted[0]!.bg) < 0 && blueness(sorted.at(-1)!.bg) > 0, `${theme}: losses red, wins blue`);
      assert.deepEqual(cspViolations(p), []);
    }
  });

  it('opens a cell’s first game in the replay', async () => {
    const p = await panel('arena');
    await p.send(snapshot);
    await p.rendered(1);
    await p.page.click('section[aria-label="Win rate matrix"] tr[data-key="2"] button.rate[data-opponent="aggressive"]');
    const first = run.submissions[1]!.games.find((g) => g.opponent === 'aggressive')!;
    const sent = (await p.sent()).filter((m) => m.type === 'openReplay');
    assert.deepEqual(sent, [{ type: 'openReplay', submission: 2, caseIndex: first.game }]);
  });

  it('shows the pool with weights, pins, drops and promotions, and posts pin and drop', async () => {
    const p = await panel('arena');
    await p.send(snapshot);
    await p.rendered(1);
    const pool = 'section[aria-label="Opponent pool"]';
    const state = async (id: string): Promise<string | null> => p.page.textContent(`${pool} tr[data-key="${id}"] .pool-state`);
    assert.equal(await state('planner'), 'pinned');
    assert.equal(await state('random'), 'dropped', 'a dropped opponent stays listed');
    assert.equal(await state('champion-1'), 'in pool');
    assert.match((await p.page.textContent(`${pool} tr[data-key="champion-1"] .badge.promoted`)) ?? '', /promoted from #3 at game 36/);
    assert.match((await p.page.textContent(`${pool} tr[data-key="planner"] td:nth-child(4)`)) ?? '', /^2 \(hardest\)$/, 'weakness pressure shows');
    assert.match((await p.page.textContent('ol.pool-events')) ?? '', /game 36: champion-1 promoted into the pool from submission #3/);
    assert.match((await p.page.textContent('section[aria-label="Win rate matrix"] tr[data-key="3"]')) ?? '', /★ champion-1/, 'the promoted submission is marked in the matrix');

    await p.page.click(`${pool} tr[data-key="defensive"] vscode-button[data-action="pin"]`);
    await p.page.click(`${pool} tr[data-key="planner"] vscode-button[data-action="unpin"]`);
    await p.page.click(`${pool} tr[data-key="champion-1"] vscode-button[data-action="drop"]`);
    assert.equal(await p.page.getAttribute(`${pool} tr[data-key="planner"] vscode-button[data-action="drop"]`, 'disabled'), '', 'a pinned opponent cannot be dropped');
    const sent = (await p.sent()).filter((m) => m.type.startsWith('arena.'));
    assert.deepEqual(sent, [
      { type: 'arena.pin', opponent: 'defensive', pinned: true },
      { type: 'arena.pin', opponent: 'planner', pinned: false },
      { type: 'arena.drop', opponent: 'champion-1' },
    ]);
  });

  it('shows the assessment once the run is over: hidden opponents and the final pool', async () => {
    const p = await panel('arena');
    const stage = (winRate: number) => ({ games: 40, pointsRate: winRate, winRate, perOpponent: [] });
    await p.send({
      ...snapshot,
      report: {
        format: 'arena-report/1', runId: 'r', envId: 'CaptureTheFlag-v0', params: {}, budget: { total: 400, used: 400, remaining: 0 }, submissions: 5, trigger: 'budget',
        validation: { gamesPerOpponent: 6, candidates: [] }, selected: { submission: 5, checkpoint: 'sha256:5' },
        assessment: { hidden: { ...stage(0.625), opponents: [{ id: 'hidden-1', description: 'a planner with two attackers' }] }, finalPool: stage(0.8) },
        pool: run.pool.entries, ratings: run.ratings.table, completedAt: '2026-12-04T19:00:00.000Z',
      },
    });
    await p.rendered(1);
    const stats = (await p.page.textContent('div.stats')) ?? '';
    assert.match(stats, /Hidden opponents62\.5%selected #5, never seen in the run/);
    assert.match(stats, /Final pool80\.0%/);
  });

  it('charts the ratings over time as conservative ratings or mu ± sigma', async () => {
    const p = await panel('arena');
    await p.send(snapshot);
    await p.rendered(1);
    const chart = 'section[aria-label="Ratings over time"]';
    await p.page.waitForSelector(`${chart} canvas`);
    const players = [...new Set(run.ratings.history.map((h) => h.id))].sort();
    const legend = await p.page.$$eval(`${chart} .u-legend .u-series .u-label`, (els) => els.map((e) => e.textContent ?? ''));
    assert.deepEqual(legend.filter((l) => players.includes(l)).sort(), players, 'one line per submission and opponent');
    assert.match((await p.page.getAttribute(`${chart} .chart-body`, 'aria-label')) ?? '', /conservative rating/);
    await p.page.evaluate(() => {
      const sel = document.querySelector('vscode-single-select[data-role="rating-view"]') as HTMLElement & { value: string };
      sel.value = 'mu';
      sel.dispatchEvent(new Event('change'));
    });
    assert.match((await p.page.getAttribute(`${chart} .chart-body`, 'aria-label')) ?? '', /mu ± sigma/);
    assert.equal((await p.state() as { ratingView: string }).ratingView, 'mu');
    assert.deepEqual(cspViolations(p), []);
  });
});
