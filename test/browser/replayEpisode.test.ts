/**
 * The replay panel on a real MiniGrid episode: the step table, actions by name, the agent's 7×7
 * view, the readout of the drawn state, a failed episode's error, markers across a theme switch,
 * codicon playback buttons and the comparison control.
 */
import assert from 'node:assert/strict';
import { ACTION } from '../../src/envs/minigrid/constants';
import type { HostToWebview } from '../../src/protocol/webview';
import { makeTrajectory } from '../unit/webview/fixtures';
import { failedEpisode, recordMiniGridEpisode } from './fixtures';
import type { PanelPage } from './harness';
import { cspViolations, panelSuite } from './suite';

const ACTION_NAMES = Object.entries(ACTION).sort((a, b) => a[1] - b[1]).map(([n]) => n);
const episode = recordMiniGridEpisode();
const gridLoad = (o: Partial<Extract<HostToWebview, { type: 'replay.load' }>> = {}): HostToWebview => ({
  type: 'replay.load', envId: 'MiniGrid-DoorKey-6x6-v0', family: 'minigrid', caseIndex: 2,
  sides: [{ submission: 3, episode: null, trajectory: episode }], comparable: [], actionNames: ACTION_NAMES, returnScale: 1, ...o,
});
const DIRS = ['right', 'down', 'left', 'up'];

async function seek(p: PanelPage, t: number): Promise<void> {
  await p.page.locator('input[data-role="scrubber"]').fill(String(t));
}
const field = (p: PanelPage, f: string): Promise<string> => p.page.textContent(`dd[data-field="${f}"]`).then((t) => t ?? '');

describe('replay of an episode in Chromium', function () {
  this.timeout(60_000);
  const { panel } = panelSuite();

  it('lists every step in a table, actions by name, and seeks to a clicked row', async () => {
    const p = await panel('replay');
    await p.send(gridLoad());
    await p.rendered(1);
    const rows = p.page.locator('section[aria-label="Steps"] tbody tr');
    assert.equal(await rows.count(), episode.steps.length);
    const actions = await p.page.$$eval('section[aria-label="Steps"] tbody tr td:nth-child(4)', (tds) => tds.map((td) => td.textContent));
    assert.deepEqual(actions, episode.steps.map((s) => ACTION_NAMES[s.action as number]));
    for (const name of ['forward', 'left', 'right', 'pickup', 'toggle']) assert.ok(actions.includes(name), `${name} appears`);
    await p.page.click('section[aria-label="Steps"] tbody tr[data-key="3:7"] td:nth-child(2)');
    assert.equal(await field(p, 'step'), `7 of ${episode.steps.length}`);
    assert.equal(await field(p, 'action'), ACTION_NAMES[episode.steps[7]!.action as number]);
    assert.equal(await p.page.getAttribute('section[aria-label="Steps"] tbody tr.current', 'data-key'), '3:7');
    // The table counts act() calls from 1, as error messages do: state 7 is where the 8th act() ran.
    assert.equal(await p.page.textContent('section[aria-label="Steps"] tbody tr.current td:nth-child(2)'), '8');
    assert.deepEqual(cspViolations(p), []);
  });

  it('reads out what the policy observed in the drawn state, step 0 included', async () => {
    const p = await panel('replay');
    await p.send(gridLoad());
    await p.rendered(1);
    const last = episode.steps.length;
    for (const t of [0, 1, 2, 5, 9, 14, last - 1]) {
      await seek(p, t);
      await p.page.click('h1');
      const drawn = (t === 0 ? episode.initialSnapshot : episode.steps[t - 1]!.snapshot) as { agent: number[] };
      const obs = episode.steps[t]!.observation as { direction: number };
      assert.equal(obs.direction, drawn.agent[2], `fixture: observation ${t} is of state ${t}`);
      const readout = await field(p, 'observation');
      assert.match(readout, new RegExp(`direction: ${drawn.agent[2]}`), `step ${t}: ${readout}`);
      assert.match((await p.page.textContent('section.scene p.sr-only')) ?? '', new RegExp(`step ${t}: agent at \\(${drawn.agent[0]}, ${drawn.agent[1]}\\) facing ${DIRS[drawn.agent[2]!]}`));
      assert.equal(await field(p, 'action'), ACTION_NAMES[episode.steps[t]!.action as number]);
    }
    await seek(p, last);
    assert.match(await field(p, 'observation'), /final state/);
    assert.equal(await field(p, 'action'), '—');
    // Nothing was observed there: no empty 7×7 frame either.
    assert.equal(await p.page.isVisible('canvas[data-role="obs-view"]'), false);
    await seek(p, last - 1);
    assert.equal(await p.page.isVisible('canvas[data-role="obs-view"]'), true);
  });

  it('draws the observation as the agent’s 7×7 view, agent at the bottom centre', async () => {
    const p = await panel('replay');
    await p.send(gridLoad());
    await p.rendered(1);
    for (const t of [0, 6]) {
      await seek(p, t);
      assert.equal(await p.page.getAttribute('canvas[data-role="obs-view"]', 'data-drawn'), 'true');
      const image = (episode.steps[t]!.observation as { image: number[] }).image;
      // Tile centres of the 168×168 canvas (7 tiles of 24 px): walls grey, unseen black, the agent red.
      const px = await p.page.$eval('canvas[data-role="obs-view"]', (c) => {
        const cv = c as HTMLCanvasElement;
        const ctx = cv.getContext('2d')!;
        const s = cv.width / 7;
        const out: number[][] = [];
        for (let i = 0; i < 7; i++) for (let j = 0; j < 7; j++) out.push([...ctx.getImageData(Math.floor((i + 0.5) * s), Math.floor((j + 0.85) * s), 1, 1).data].slice(0, 3));
        const agent = [...ctx.getImageData(Math.floor(3.5 * s), Math.floor(6.5 * s), 1, 1).data].slice(0, 3);
        return { out, agent };
      });
      assert.deepEqual(px.agent, [255, 0, 0], 'agent drawn at the bottom centre');
      assert.notEqual(image[(3 * 7 + 6) * 3], 2, 'the agent’s own cell is not a wall');
      let walls = 0;
      for (let i = 0; i < 7; i++) for (let j = 0; j < 7; j++) {
        const type = image[(i * 7 + j) * 3];
        const got = px.out[i * 7 + j]!;
        if (type === 2) { walls++; assert.deepEqual(got, [100, 100, 100], `wall at (${i}, ${j}), step ${t}`); }
        if (type === 0) assert.deepEqual(got, [0, 0, 0], `unseen at (${i}, ${j}), step ${t}`);
      }
      assert.ok(walls > 0, 'walls in view');
    }
  });

  it('shows a failed episode’s error, links its source line and marks its last step', async () => {
    const p = await panel('replay');
    const failed = failedEpisode(episode, 9);
    await p.send(gridLoad({ sides: [{ submission: 3, episode: failed.episode, trajectory: failed.trajectory }] }));
    await p.rendered(1);
    const banner = (await p.page.textContent('[data-role="episode-error"]')) ?? '';
    assert.match(banner, /Episode failed: exception after 9 steps/);
    assert.match(banner, /Cannot read properties of undefined \(reading 'color'\)/);
    await p.page.click('[data-role="episode-error"] button.link');
    assert.deepEqual((await p.sent()).at(-1), { type: 'openSource', file: 'policy/policy.ts', line: 27, column: 14 });
    const lastRow = p.page.locator('section[aria-label="Steps"] tbody tr').last();
    assert.equal(await lastRow.getAttribute('class'), 'failed');
    const headers = await p.page.locator('section[aria-label="Steps"] thead th').allTextContents();
    const endColumn = headers.findIndex((t) => t.trim().startsWith('End'));
    assert.ok(endColumn >= 0, `an End column among ${headers.join(', ')}`);
    assert.equal(await lastRow.locator('td').nth(endColumn).textContent(), 'exception');
  });

  it('keeps the chart markers on the step after a theme switch', async () => {
    const p = await panel('replay');
    await p.send({ type: 'replay.load', envId: 'CartPole-v1', family: 'classic/cartpole', caseIndex: 3, sides: [{ submission: 4, episode: null, trajectory: makeTrajectory('classic/cartpole', 200) }], comparable: [2] });
    await p.rendered(1);
    await seek(p, 100);
    const marker = async (): Promise<{ n: number; step: string | null; x: number; width: number }> => p.page.$$eval('section[aria-label="Return so far"] .step-marker', (ms) => {
      const m = ms[0] as HTMLElement;
      const over = m.parentElement as HTMLElement;
      return { n: ms.length, step: m.dataset['step'] ?? null, x: Number(/translateX\((-?[\d.]+)px\)/.exec(m.style.transform)?.[1]), width: over.clientWidth };
    });
    const before = await marker();
    assert.equal(before.step, '100');
    assert.ok(Math.abs(before.x - before.width / 2) <= 2, `marker at ${before.x} of ${before.width}`);
    await p.setTheme('dark');
    await p.page.waitForTimeout(150);
    const after = await marker();
    assert.equal(after.n, 1, 'one marker, on the rebuilt chart');
    assert.equal(after.step, '100');
    assert.ok(Math.abs(after.x - after.width / 2) <= 2, `marker at ${after.x} of ${after.width} after the switch`);
  });

  it('uses codicons for playback, loaded under the CSP', async () => {
    const p = await panel('replay');
    await p.send(gridLoad());
    await p.rendered(1);
    const icons = await p.page.$$eval('.controls vscode-button .codicon', (els) => els.map((e) => e.className));
    assert.deepEqual(icons, ['codicon codicon-debug-reverse-continue', 'codicon codicon-chevron-left', 'codicon codicon-play', 'codicon codicon-chevron-right', 'codicon codicon-debug-continue']);
    await p.page.waitForFunction(() => document.fonts.check('16px codicon'), undefined, { timeout: 5000 });
    assert.equal(await p.page.$eval('.controls .codicon-play', (e) => getComputedStyle(e).fontFamily), 'codicon');
    assert.equal(await p.page.$eval('.controls', (e) => (e.textContent ?? '').replace(/\d+\s*\/\s*\d+|Speed|[\d.]+×/g, '').trim()), '', 'no text glyphs for the buttons');
    await p.page.click('vscode-button[data-role="play"]');
    await p.page.waitForFunction(() => document.querySelector('vscode-button[data-role="play"] .codicon')?.classList.contains('codicon-debug-pause') === true);
    assert.deepEqual(cspViolations(p), []);
  });

  it('says when no other submission ran the case', async () => {
    const p = await panel('replay');
    await p.send(gridLoad({ comparable: [] }));
    await p.rendered(1);
    assert.equal(await p.page.isVisible('[data-role="compare-none"]'), true);
    assert.equal(await p.page.textContent('[data-role="compare-none"]'), 'No other submission ran case 2');
    assert.equal(await p.page.isVisible('vscode-single-select[data-role="compare"]'), false);
    await p.send(gridLoad({ comparable: [1, 5] }));
    await p.rendered(2);
    assert.equal(await p.page.isVisible('[data-role="compare-none"]'), false);
    assert.equal(await p.page.isVisible('vscode-single-select[data-role="compare"]'), true);
  });
});
