/**
 * An episode's skills in the replay: each declared skill achieved, failed or not applicable, the
 * first pickup marked on the episode's track and in the step table, a click on the mark seeking
 * to it; in a comparison each side shows its own. Screenshots go to test-results/webview/.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ACTION } from '../../src/envs/minigrid/constants';
import type { EpisodeSummary } from '../../src/protocol/feedback';
import type { HostToWebview, ReplaySide } from '../../src/protocol/webview';
import { recordMiniGridEpisode } from './fixtures';
import { cspViolations, panelSuite } from './suite';

const OUT = resolve('test-results/webview');
const ACTION_NAMES = Object.entries(ACTION).sort((a, b) => a[1] - b[1]).map(([n]) => n);
const trajectory = recordMiniGridEpisode();
const DECLARED: NonNullable<ReplaySide['skills']> = [
  { id: 'reached_goal', label: 'reached the goal', kind: 'success' },
  { id: 'avoided_lava', label: 'avoided lava', kind: 'success' },
  { id: 'picked_up_key', label: 'picked up a key', kind: 'success' },
  { id: 'opened_door', label: 'opened a door', kind: 'success' },
  { id: 'steps_to_first_pickup', label: 'steps to the first pickup', kind: 'steps' },
];
const episode = (skills: EpisodeSummary['skills']): EpisodeSummary => ({ caseIndex: 2, status: 'ok', return: 0, length: trajectory.steps.length, terminated: false, truncated: true, wallMs: 4, skills });
const PICKUP = 12;
const load = (sides: ReplaySide[]): HostToWebview => ({ type: 'replay.load', envId: 'MiniGrid-DoorKey-6x6-v0', family: 'minigrid', caseIndex: 2, sides, comparable: [], actionNames: ACTION_NAMES, returnScale: 1 });
const keyFirst: ReplaySide = { submission: 3, episode: episode({ reached_goal: 0, avoided_lava: null, picked_up_key: 1, opened_door: 0, steps_to_first_pickup: PICKUP }), trajectory, skills: DECLARED };
const noKey: ReplaySide = { submission: 5, episode: episode({ reached_goal: 0, avoided_lava: null, picked_up_key: 0, opened_door: 0, steps_to_first_pickup: null }), trajectory, skills: DECLARED };

describe('replay: the episode’s skills', function () {
  this.timeout(60_000);
  const { panel } = panelSuite();
  before(() => mkdirSync(OUT, { recursive: true }));

  it('lists each skill’s outcome and marks the first pickup on the track and in the step table', async () => {
    const p = await panel('replay', { height: 1200 });
    await p.send(load([keyFirst]));
    await p.rendered(1);
    const skills = p.page.locator('section[data-submission="3"] [data-role="episode-skills"] li');
    const states = await skills.evaluateAll((lis) => lis.map((li) => [li.getAttribute('data-skill'), li.getAttribute('data-state'), li.textContent]));
    assert.deepEqual(states, [
      ['reached_goal', 'failed', '✗reached the goal: failed'],
      ['avoided_lava', 'not applicable', '–avoided lava: not applicable'],
      ['picked_up_key', 'achieved', '✓picked up a key: achieved'],
      ['opened_door', 'failed', '✗opened a door: failed'],
      ['steps_to_first_pickup', 'count', `#steps to the first pickup: ${PICKUP}`],
    ]);
    const mark = p.page.locator('section[data-submission="3"] .skill-track .skill-mark');
    assert.equal(await mark.count(), 1);
    assert.equal(await mark.textContent(), `first pickup · step ${PICKUP}`);
    // The mark sits at its share of the episode along the track.
    const left = await mark.evaluate((b) => parseFloat((b as HTMLElement).style.left));
    assert.ok(Math.abs(left - (PICKUP / trajectory.steps.length) * 100) < 1e-6, String(left));
    // The step table names the skill on the row of the act that did it (act 12 is row t = 11).
    const row = p.page.locator('section[aria-label="Steps"] tbody tr[data-key="3:11"]');
    assert.match((await row.textContent())!, /first pickup$/);
    assert.equal(await p.page.locator('section[aria-label="Steps"] tbody tr', { hasText: 'first pickup' }).count(), 1);
    // A click on the mark shows the state right after the pickup.
    await mark.click();
    assert.equal(await p.page.textContent('dd[data-field="step"]'), `${PICKUP} of ${trajectory.steps.length}`);
    assert.equal(await p.page.textContent(`section[data-submission="3"] dd[data-field="action"]`), ACTION_NAMES[trajectory.steps[PICKUP]!.action as number]);
    const cursor = await p.page.locator('section[data-submission="3"] .skill-cursor').evaluate((c) => parseFloat((c as HTMLElement).style.left));
    assert.ok(Math.abs(cursor - left) < 1e-6);
    await p.page.locator('section[data-submission="3"]').screenshot({ path: join(OUT, 'replay-skills-light.png') });
    assert.deepEqual(cspViolations(p), []);
  });

  it('shows each side’s own skills in a comparison, and no track where nothing happened at a step', async () => {
    const p = await panel('replay', { theme: 'dark', height: 1200 });
    await p.send(load([keyFirst, noKey]));
    await p.rendered(1);
    assert.equal(await p.page.getAttribute('section[data-submission="5"] li[data-skill="picked_up_key"]', 'data-state'), 'failed');
    assert.equal(await p.page.getAttribute('section[data-submission="5"] li[data-skill="steps_to_first_pickup"]', 'data-state'), 'not applicable');
    assert.equal(await p.page.locator('section[data-submission="5"] .skill-track').count(), 0);
    assert.equal(await p.page.locator('section[data-submission="3"] .skill-track .skill-mark').count(), 1);
    await p.page.screenshot({ path: join(OUT, 'replay-skills-compare-dark.png'), fullPage: false });
    assert.deepEqual(cspViolations(p), []);
  });

  it('shows nothing for an episode without skills (a family that declares none)', async () => {
    const p = await panel('replay');
    await p.send(load([{ submission: 3, episode: { ...episode(undefined) }, trajectory }]));
    await p.rendered(1);
    assert.equal(await p.page.locator('[data-role="episode-skills"]').count(), 0);
  });
});
