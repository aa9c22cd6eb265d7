/**
 * The dashboard's skills heatmap (skills × submissions, weakest first, viridis colours, rate ±
 * stderr and n on hover) and the launched agent's spend against its caps, in Chromium, in the
 * light, dark and high-contrast themes. Screenshots go to test-results/webview/.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AgentRecord } from '../../src/protocol/agent';
import type { SubmissionSummary } from '../../src/protocol/feedback';
import type { SkillRate } from '../../src/protocol/skills';
import type { HostToWebview } from '../../src/protocol/webview';
import { makeRun } from '../unit/webview/fixtures';
import { cspViolations, panelSuite } from './suite';
import type { ThemeName } from './themes';

const OUT = resolve('test-results/webview');

const rate = (id: string, label: string, mean: number, count = 8, kind: SkillRate['kind'] = 'success'): SkillRate => ({ id, label, kind, mean, stderr: kind === 'steps' ? 0.5 : Math.sqrt((mean * (1 - mean)) / count), count });

/** A DoorKey-like run: the key is the weak skill until submission 4 fixes it; the goal follows. */
function withSkills(subs: SubmissionSummary[]): SubmissionSummary[] {
  return subs.map((s) => {
    const fixed = s.submission >= 4;
    const skills: SkillRate[] = [
      rate('reached_goal', 'reached the goal', fixed ? 0.875 : 0.25),
      rate('picked_up_key', 'picked up a key', fixed ? 1 : 0.25),
      rate('opened_door', 'opened a door', fixed ? 0.875 : 0.375),
      rate('steps_to_first_pickup', 'steps to the first pickup', 3.5, 6, 'steps'),
    ];
    // Submission 2 did not measure the door (an older summary, say).
    return { ...s, skills: s.submission === 2 ? skills.filter((r) => r.id !== 'opened_door') : skills };
  });
}

const subs = withSkills(makeRun({ submissions: 6, episodes: 8, budget: 64, failRate: 0.1 }));
const AGENT: AgentRecord = {
  kind: 'lm',
  agent: 'openai/gpt-test',
  startedAt: '2026-01-01T00:00:00Z',
  spend: { calls: 7, tokensIn: 41_200, tokensOut: 5_300, cost: 0.0421 },
  caps: { tokens: 100_000, cost: 0.5, timeLimitS: 1800 },
  submissions: [],
};
const snapshot = (agent: AgentRecord | null): HostToWebview => ({ type: 'dashboard.snapshot', envId: 'MiniGrid-DoorKey-5x5-v0', budget: subs.at(-1)!.budget, submissions: subs, report: null, activity: null, agent });

describe('dashboard: skills heatmap and agent spend', function () {
  this.timeout(60_000);
  const { panel } = panelSuite();
  before(() => mkdirSync(OUT, { recursive: true }));

  it('draws skills × submissions, weakest first, with each cell’s rate ± stderr and n on hover', async () => {
    const p = await panel('dashboard');
    await p.send(snapshot(null));
    await p.rendered(1);
    const heat = p.page.locator('section[aria-label="Skills by submission"]');
    assert.equal(await heat.isVisible(), true);
    // Rows by the latest submission's rates, lowest first; the step count is not a rate.
    const skills = await heat.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-skill')));
    assert.deepEqual(skills, ['reached_goal', 'opened_door', 'picked_up_key']);
    const columns = await heat.locator('thead th').allTextContents();
    assert.deepEqual(columns.slice(1), subs.map((s) => `#${s.submission}`));
    const cell = heat.locator('tr[data-skill="picked_up_key"] td[data-submission="1"]');
    assert.equal(await cell.textContent(), '25%');
    assert.equal(await cell.getAttribute('title'), 'picked up a key, submission #1: 25% ± 15% (n 8)');
    const missing = heat.locator('tr[data-skill="opened_door"] td[data-submission="2"]');
    assert.equal(await missing.textContent(), '—');
    // Weak is dark, strong is light, and the text stays readable on both.
    const look = async (sel: string): Promise<{ bg: string; fg: string }> => heat.locator(sel).evaluate((td) => ({ bg: getComputedStyle(td).backgroundColor, fg: getComputedStyle(td).color }));
    const weak = await look('tr[data-skill="picked_up_key"] td[data-submission="1"]');
    const strong = await look('tr[data-skill="picked_up_key"] td[data-submission="5"]');
    assert.notEqual(weak.bg, strong.bg);
    assert.equal(weak.fg, 'rgb(255, 255, 255)');
    assert.equal(strong.fg, 'rgb(0, 0, 0)');
    assert.equal(await p.page.locator('[data-stat="agent"]').count(), 0, 'no agent card without an agent');
    assert.deepEqual(cspViolations(p), []);
  });

  it('shows the agent’s tokens in and out and its cost so far against its caps', async () => {
    const p = await panel('dashboard');
    await p.send(snapshot(AGENT));
    await p.rendered(1);
    const card = p.page.locator('[data-stat="agent"]');
    assert.equal(await card.locator('.value').textContent(), '0.042 of 0.5');
    assert.match((await card.locator('.detail').first().textContent())!, /^7 calls, 41\.2k tokens in \/ 5300 out of 100\.0k, cost 0\.042 of 0\.5 · LM agent openai\/gpt-test, running$/);
    assert.equal(await card.locator('vscode-progress-bar[data-cap="tokens"]').getAttribute('value'), '46500');
    assert.equal(await card.locator('vscode-progress-bar[data-cap="cost"]').getAttribute('max'), '0.5');
    // The run ended: the card says why.
    await p.send(snapshot({ ...AGENT, ending: 'cost_cap', endedAt: '2026-01-01T00:10:00Z' }));
    await p.rendered(2);
    assert.match((await card.locator('.detail').first().textContent())!, /ended: the cost cap was reached$/);
    assert.deepEqual(cspViolations(p), []);
  });

  for (const theme of ['light', 'dark', 'high-contrast'] as ThemeName[]) {
    it(`keeps the heatmap and the agent card readable in the ${theme} theme (screenshot)`, async () => {
      const p = await panel('dashboard', { theme, height: 1400 });
      await p.send(snapshot(AGENT));
      await p.rendered(1);
      await p.page.locator('tr[data-skill="picked_up_key"] td[data-submission="1"]').hover();
      await p.page.locator('section[aria-label="Skills by submission"]').screenshot({ path: join(OUT, `dashboard-skills-${theme}.png`) });
      await p.page.screenshot({ path: join(OUT, `dashboard-skills-agent-${theme}.png`), fullPage: true });
      const heading = await p.page.locator('section[aria-label="Skills by submission"] h2').evaluate((e) => getComputedStyle(e).color);
      const body = await p.page.evaluate(() => getComputedStyle(document.body).color);
      assert.equal(heading, body, 'the heading takes the theme’s foreground');
      assert.deepEqual(cspViolations(p), []);
    });
  }
});
