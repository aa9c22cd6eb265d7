/**
 * The dashboard's and diagnostics' charts and colours: values on hover, return axes that do not
 * zoom into noise, one edit-class palette (the run tree's theme colour ids) in badges and chart
 * series, whole-number ticks for lines changed, and diagnostics while the run goes on.
 */
import assert from 'node:assert/strict';
import { liveDiagnostics } from '../../src/extension/panels/liveDiagnostics';
import { EDIT_CLASS_THEME_COLORS, themeColorVariable } from '../../src/protocol/editClassPalette';
import type { EditClass, SubmissionSummary } from '../../src/protocol/feedback';
import type { HostToWebview } from '../../src/protocol/webview';
import { runScoreFormat } from '../../src/stats/scoreFormat';
import { makeRun } from '../unit/webview/fixtures';
import { mapReturns, miniGridReturns } from './fixtures';
import type { PanelPage } from './harness';
import { cspViolations, panelSuite } from './suite';
import { THEME_VARS, type ThemeName } from './themes';

const subs = makeRun({ submissions: 12, episodes: 8, budget: 128, failRate: 0.1 });
const dashboard = (s: SubmissionSummary[], envId = 'CartPole-v1'): HostToWebview => ({ type: 'dashboard.snapshot', envId, budget: s.at(-1)?.budget ?? null, submissions: s, report: null, activity: null });
const ticks = async (p: PanelPage, chart: string, axis: 'x' | 'y'): Promise<number[]> =>
  ((await p.page.getAttribute(`section[aria-label="${chart}"] .chart-body`, `data-ticks-${axis}`)) ?? '').split(',').filter((v) => v !== '').map(Number);
/** A CSS colour as the browser computes it, to compare with computed styles. */
const canonical = (p: PanelPage, color: string): Promise<string> => p.page.evaluate((c) => {
  const el = document.createElement('span');
  el.style.color = c;
  document.body.appendChild(el);
  const out = getComputedStyle(el).color;
  el.remove();
  return out;
}, color);

describe('charts and the edit-class palette in Chromium', function () {
  this.timeout(60_000);
  const { panel } = panelSuite();

  it('shows the values under the cursor on a dashboard chart', async () => {
    const p = await panel('dashboard');
    await p.send(dashboard(subs));
    await p.rendered(1);
    const over = p.page.locator('section[aria-label="Best-so-far train mean"] .u-over');
    const box = (await over.boundingBox())!;
    await over.hover({ position: { x: box.width * 0.6, y: box.height / 2 } });
    await p.page.waitForSelector('section[aria-label="Best-so-far train mean"] .chart-tooltip:not([hidden])');
    const head = (await p.page.textContent('section[aria-label="Best-so-far train mean"] .chart-tooltip .head')) ?? '';
    const used = Number(/^budget used (\d+)$/.exec(head)?.[1]);
    const upTo = subs.filter((s) => s.budget.used <= used);
    assert.ok(upTo.length > 0, head);
    const rows = await p.page.$$eval('section[aria-label="Best-so-far train mean"] .chart-tooltip .row', (rs) => rs.map((r) => [r.querySelector('.label')?.textContent, r.querySelector('.value')?.textContent]));
    // Each row's swatch is its series' colour: the submission's edit class in the palette.
    const swatches = await p.page.$$eval('section[aria-label="Best-so-far train mean"] .chart-tooltip .row .swatch', (ss) => ss.map((x) => getComputedStyle(x).backgroundColor));
    const cls = rows.find((r) => r[0] !== 'best so far')?.[0] as EditClass;
    assert.equal(swatches[1], await canonical(p, THEME_VARS.light[themeColorVariable(EDIT_CLASS_THEME_COLORS[cls])]!));
    const fmt = runScoreFormat(subs.map((s) => s.stats.mean));
    const best = Math.max(...upTo.map((s) => s.stats.mean));
    assert.deepEqual(rows.find((r) => r[0] === 'best so far'), ['best so far', fmt.score(best)]);
    const at = subs.find((s) => s.budget.used === used)!;
    assert.deepEqual(rows.find((r) => r[0] !== 'best so far'), [at.edit!.class === 'initial' ? 'initial' : at.edit!.class, fmt.score(at.stats.mean)]);
    await p.page.mouse.move(1, 1);
    assert.equal(await p.page.isVisible('section[aria-label="Best-so-far train mean"] .chart-tooltip'), false);
    assert.deepEqual(cspViolations(p), []);
  });

  it('keeps a MiniGrid run’s return axes on 0..1, and a flat run’s axis wide', async () => {
    const p = await panel('dashboard');
    await p.send(dashboard(miniGridReturns(subs), 'MiniGrid-DoorKey-6x6-v0'));
    await p.rendered(1);
    for (const chart of ['Best-so-far train mean', 'Return distribution per submission']) {
      const ys = await ticks(p, chart, 'y');
      assert.equal(ys[0], 0, `${chart}: ${ys.join(', ')}`);
      assert.equal(ys.at(-1), 1, `${chart}: ${ys.join(', ')}`);
    }
    // Returns of 499..500 over a scale of 500: the axis spans at least a fifth of it.
    let k = 0;
    await p.send(dashboard(mapReturns(subs, () => 499 + (k++ % 7) / 7)));
    await p.rendered(2);
    const ys = await ticks(p, 'Best-so-far train mean', 'y');
    assert.ok(ys.at(-1)! - ys[0]! >= 80, `span of ${ys.join(', ')}`);
  });

  for (const theme of ['light', 'dark'] as ThemeName[]) {
    it(`gives each edit class the run tree's theme colour in badges and chart series (${theme})`, async () => {
      const expected = async (p: PanelPage, c: EditClass): Promise<string> => canonical(p, THEME_VARS[theme][themeColorVariable(EDIT_CLASS_THEME_COLORS[c])]!);
      const d = await panel('dashboard', { theme });
      await d.send(dashboard(subs));
      await d.rendered(1);
      const diag = await panel('diagnostics', { theme });
      await diag.send({ type: 'diagnostics.snapshot', envId: 'CartPole-v1', submissions: subs, report: null });
      await diag.rendered(1);
      for (const c of ['initial', 'identical', 'parametric', 'structural'] as EditClass[]) {
        const want = await expected(d, c);
        assert.equal(await d.page.$eval(`section[aria-label="Submissions"] .badge[data-edit-class="${c}"]`, (e) => getComputedStyle(e).color), want, `dashboard badge ${c}`);
        assert.equal(await diag.page.$eval(`section[aria-label="Lineage"] .badge[data-edit-class="${c}"]`, (e) => getComputedStyle(e).color), want, `diagnostics badge ${c}`);
        // uPlot's legend markers carry each series' stroke: the canvas series use the same colour.
        const marker = (p: PanelPage, chart: string): Promise<string | undefined> => p.page.$$eval(`section[aria-label="${chart}"] .u-legend .u-series`, (ss, cls) => {
          const s = ss.find((x) => x.querySelector('.u-label')?.textContent === cls);
          return s ? getComputedStyle(s.querySelector('.u-marker')!).borderLeftColor : undefined;
        }, c);
        assert.equal(await marker(d, 'Best-so-far train mean'), want, `dashboard series ${c}`);
        assert.equal(await marker(diag, 'Lineage of submissions'), want, `diagnostics series ${c}`);
      }
    });
  }

  it('puts whole numbers of lines on the lines-changed axis', async () => {
    const p = await panel('diagnostics');
    // Few, small edits: where a plain axis would tick at 0.5 lines.
    const small = subs.slice(0, 5).map((s) => (s.edit ? { ...s, edit: { ...s.edit, linesAdded: Math.min(2, s.edit.linesAdded), linesRemoved: 0 } } : s));
    await p.send({ type: 'diagnostics.snapshot', envId: 'CartPole-v1', submissions: small, report: null });
    await p.rendered(1);
    const xs = await ticks(p, 'Edit size vs improvement', 'x');
    assert.ok(xs.length >= 2, xs.join(', '));
    assert.ok(xs.every((x) => Number.isInteger(x)), `ticks ${xs.join(', ')}`);
  });

  it('shows the edit analysis during the run, before any report', async () => {
    const p = await panel('diagnostics');
    const running = subs.slice(0, 8);
    await p.send({ type: 'diagnostics.snapshot', envId: 'CartPole-v1', submissions: running, report: null, analysis: liveDiagnostics(running) });
    await p.rendered(1);
    assert.equal(await p.page.getAttribute('body', 'data-diagnostics'), 'live');
    assert.match((await p.page.textContent('main > p.muted')) ?? '', /Complexity metrics come with the report at the end of the run/);
    const edits = await p.page.$$eval('section[aria-label="Edit effectiveness per class"] tbody tr', (trs) => Object.fromEntries(trs.map((tr) => [tr.getAttribute('data-key'), Number(tr.querySelectorAll('td')[1]?.textContent)])));
    for (const c of ['initial', 'identical', 'parametric', 'structural']) {
      const n = running.filter((s) => s.edit?.class === c).length;
      if (n > 0) assert.equal(edits[c], n, `${c} edits`);
    }
    // Hover on the lineage: the submission and its train mean, in the run's format.
    const over = p.page.locator('section[aria-label="Lineage of submissions"] .u-over');
    const box = (await over.boundingBox())!;
    await over.hover({ position: { x: box.width * 0.5, y: box.height / 2 } });
    await p.page.waitForSelector('section[aria-label="Lineage of submissions"] .chart-tooltip:not([hidden])');
    const head = (await p.page.textContent('section[aria-label="Lineage of submissions"] .chart-tooltip .head')) ?? '';
    const n = Number(/^submission #(\d+)$/.exec(head)?.[1]);
    const s = running.find((x) => x.submission === n)!;
    assert.ok(s !== undefined, head);
    const value = await p.page.textContent('section[aria-label="Lineage of submissions"] .chart-tooltip .row .value');
    assert.equal(value, runScoreFormat(running.map((x) => x.stats.mean)).score(s.stats.mean));
    // A later submit: the host sends a new snapshot, the panel follows.
    await p.send({ type: 'diagnostics.snapshot', envId: 'CartPole-v1', submissions: subs, report: null, analysis: liveDiagnostics(subs) });
    await p.rendered(2);
    assert.equal(await p.page.locator('section[aria-label="Lineage"] tbody tr').count(), subs.length);
  });
});
