/** The dashboard's difference-from-parent chart: paired evidence from summary.json, drawn with its interval. */
import assert from 'node:assert/strict';
import type { SubmissionSummary } from '../../src/protocol/feedback';
import type { HostToWebview } from '../../src/protocol/webview';
import { makeRun } from '../unit/webview/fixtures';
import { cspViolations, panelSuite } from './suite';

const TITLE = 'Difference from parent on shared cases';

/** A recorded-shape run whose submissions carry paired evidence against their parent. */
function withPaired(subs: SubmissionSummary[]): SubmissionSummary[] {
  return subs.map((s, i) => {
    if (i === 0) return { ...s, paired: { parent: null, bestSoFar: null } };
    const parent = subs[i - 1]!.submission;
    if (i === 3) return { ...s, paired: { parent: { against: parent, shared: 0, meanDifference: null, ci95: null, resubmitCases: '0-7' }, bestSoFar: null } };
    const d = (i % 3) * 10 - 8;
    return { ...s, paired: { parent: { against: parent, shared: 8, meanDifference: d, ci95: [d - 3, d + 3] as [number, number] }, bestSoFar: null } };
  });
}

describe('difference-from-parent chart in Chromium', function () {
  this.timeout(60_000);
  const { panel } = panelSuite();

  it('plots each submission against its parent and names those that shared no case', async () => {
    const subs = withPaired(makeRun({ submissions: 8, episodes: 8, budget: 128, failRate: 0 }));
    const p = await panel('dashboard');
    const msg: HostToWebview = { type: 'dashboard.snapshot', envId: 'CartPole-v1', budget: subs.at(-1)!.budget, submissions: subs, report: null, activity: null };
    await p.send(msg);
    await p.rendered(1);
    const label = (await p.page.getAttribute(`section[aria-label="${TITLE}"] .chart-body`, 'aria-label')) ?? '';
    // Seven submissions have a parent; #4 shares no case with it. Differences: +2, +12, (none), +2, +12, -8, +2 with ±3 intervals: only +12 and -8 clear zero.
    assert.match(label, /6 submissions compared with their parent on shared cases: 2 better and 1 worse beyond the 95% interval\./);
    assert.match(label, /1 shared no case with their parent \(#4\): resubmit on the parent's cases to compare\./);
    assert.equal(await p.page.isVisible(`section[aria-label="${TITLE}"] .empty`), false);
    assert.deepEqual(cspViolations(p), []);
  });

  it('says so when no submission has a paired comparison yet', async () => {
    const subs = makeRun({ submissions: 1, episodes: 4, budget: 16, failRate: 0 });
    const p = await panel('dashboard');
    await p.send({ type: 'dashboard.snapshot', envId: 'CartPole-v1', budget: subs[0]!.budget, submissions: subs, report: null, activity: null });
    await p.rendered(1);
    assert.equal(await p.page.textContent(`section[aria-label="${TITLE}"] .empty`), 'No submission shares cases with its parent yet.');
  });
});
