/**
 * The dashboard's report view places the selected policy beside its baselines on the same
 * held-out cases: the starter, the uniform random policy, and autotune with the run's budget when
 * `finish --baseline autotune` added it, each with the selected policy's difference against it.
 */
import assert from 'node:assert/strict';
import type { RunReport } from '../../src/protocol/feedback';
import { runScoreFormat } from '../../src/stats/scoreFormat';
import { makeReport, makeRun } from '../unit/webview/fixtures';
import { cspViolations, panelSuite } from './suite';

describe('dashboard report baselines in Chromium', function () {
  this.timeout(60_000);
  const { panel } = panelSuite();

  it('shows the starter, uniform-random and autotune baselines with the difference against each', async () => {
    const subs = makeRun({ submissions: 10, episodes: 8, budget: 128, failRate: 0 });
    const base = makeReport(subs);
    const stats = (mean: number) => ({ mean, std: 11.3, stderr: 2, count: 32, okCount: 32, min: mean - 5, max: mean + 5 });
    const report: RunReport = {
      ...base,
      heldOut: stats(180),
      starterHeldOut: stats(40),
      baselines: { 'uniform-random': { heldOut: stats(21) }, autotune: { heldOut: stats(150), budget: { used: 128, total: 128 }, selected: 14 } },
    };
    const fmt = runScoreFormat(subs.map((s) => s.stats.mean));
    const p = await panel('dashboard');
    await p.send({ type: 'dashboard.snapshot', envId: 'CartPole-v1', budget: subs.at(-1)!.budget, submissions: subs, report, activity: null });
    await p.rendered(1);
    const card = async (name: string): Promise<[string | null, string | null]> => [
      await p.page.textContent(`[data-stat="baseline-${name}"] .value`),
      await p.page.textContent(`[data-stat="baseline-${name}"] .detail`),
    ];
    assert.deepEqual(await card('starter'), [fmt.score(40), `selected ${fmt.delta(140)} against it`]);
    assert.deepEqual(await card('uniform-random'), [fmt.score(21), `selected ${fmt.delta(159)} against it`]);
    assert.deepEqual(await card('autotune'), [fmt.score(150), `128/128 episodes; selected ${fmt.delta(30)} against it`]);
    assert.deepEqual(cspViolations(p), []);
  });
});
