/**
 * The panel bundles in headless Chromium under the real CSP, driven by a fake VS Code host that
 * records postMessage and replays recorded host messages.
 */
import assert from 'node:assert/strict';
import type { HostToWebview } from '../../src/protocol/webview';
import { runScoreFormat } from '../../src/stats/scoreFormat';
import { makeGridTrajectory, makeReport, makeRun, makeTrajectory } from '../unit/webview/fixtures';
import type { PanelPage } from './harness';
import { cspViolations, panelSuite } from './suite';

const subs = makeRun({ submissions: 12, episodes: 8, budget: 128, failRate: 0.1 });
const report = makeReport(subs);
/** The run's number format, as every view prints returns (src/stats/scoreFormat.ts). */
const fmt = runScoreFormat(subs.map((s) => s.stats.mean));
const snapshot = (n = subs.length, withReport = false): HostToWebview => ({
  type: 'dashboard.snapshot', envId: 'CartPole-v1', budget: subs[n - 1]?.budget ?? null, submissions: subs.slice(0, n), report: withReport ? report : null, activity: null,
});

describe('webview panels in Chromium', function () {
  this.timeout(60_000);
  const { panel } = panelSuite();

  describe('dashboard', () => {
    it('says ready first, then renders the table and numbers from a snapshot', async () => {
      const p = await panel('dashboard');
      await p.page.waitForFunction(() => (window as unknown as { __pf: { sent: unknown[] } }).__pf.sent.length > 0);
      assert.deepEqual((await p.sent())[0], { type: 'ready', panel: 'dashboard' });
      await p.send(snapshot());
      await p.rendered(1);
      const rows = await p.page.$$eval('section[aria-label="Submissions"] tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
      assert.equal(rows.length, subs.length);
      const last = subs.at(-1)!;
      const first = rows[0]!; // default sort: newest first
      assert.equal(first[0], String(last.submission));
      assert.equal(first[3], fmt.meanStderr(last.stats.mean, last.stats.stderr));
      assert.equal(first[4], String(last.statusCounts.ok ?? 0));
      const budget = await p.page.textContent('[data-stat="budget"] .value');
      assert.equal(budget, `${last.budget.remaining} left`);
      assert.equal(await p.page.locator('.chart-card canvas').count() >= 2, true, 'charts drawn');
      assert.deepEqual(cspViolations(p), []);
    });

    it('sorts by a column on click, marks aria-sort, and keeps the sort across a reload', async () => {
      const p = await panel('dashboard');
      await p.send(snapshot());
      await p.rendered(1);
      await p.page.click('section[aria-label="Submissions"] button.sort[data-key="mean"]');
      const means = async (): Promise<number[]> => p.page.$$eval('section[aria-label="Submissions"] tbody tr td:nth-child(4)', (tds) => tds.map((td) => Number((td.textContent ?? '').split(' ')[0])));
      const asc = await means();
      assert.deepEqual(asc, [...asc].sort((a, b) => a - b));
      assert.equal(await p.page.getAttribute('section[aria-label="Submissions"] th:nth-child(4)', 'aria-sort'), 'ascending');
      await p.page.click('section[aria-label="Submissions"] button.sort[data-key="mean"]');
      const desc = await means();
      assert.deepEqual(desc, [...asc].reverse());
      assert.deepEqual(await p.state(), { panel: 'dashboard', sortKey: 'mean', sortDir: 'desc' });
      await p.page.reload();
      await p.send(snapshot());
      await p.rendered(1);
      assert.deepEqual(await means(), desc);
      assert.equal(await p.page.getAttribute('section[aria-label="Submissions"] th:nth-child(4)', 'aria-sort'), 'descending');
    });

    it('posts openFeedback for a clicked row or Enter, and openDiff / openReplay / export from its buttons', async () => {
      const p = await panel('dashboard');
      await p.send(snapshot());
      await p.rendered(1);
      await p.page.click('section[aria-label="Submissions"] tbody tr[data-key="5"] td:nth-child(2)');
      await p.page.focus('section[aria-label="Submissions"] tbody tr[data-key="7"]');
      await p.page.keyboard.press('Enter');
      await p.page.click('section[aria-label="Submissions"] tbody tr[data-key="6"] button[aria-label^="Compare"]');
      await p.page.click('section[aria-label="Submissions"] tbody tr[data-key="6"] button[aria-label^="Replay"]');
      await p.page.click('vscode-button[aria-label="Export table \\"Submissions\\" as CSV"]');
      const sent = (await p.sent()).slice(1);
      assert.deepEqual(sent.slice(0, 4), [
        { type: 'openFeedback', submission: 5 },
        { type: 'openFeedback', submission: 7 },
        { type: 'openDiff', submission: 6 },
        { type: 'openReplay', submission: 6, caseIndex: subs[5]!.episodes[0]!.caseIndex },
      ]);
      const exp = sent[4] as { type: string; format: string; filename: string; content: string };
      assert.equal(exp.type, 'export');
      assert.equal(exp.format, 'csv');
      assert.equal(exp.filename, 'submissions.csv');
      const lines = exp.content.trim().split('\r\n');
      assert.equal(lines.length, subs.length + 1);
      assert.match(lines[0]!, /^#,Time,Cases,Mean ± stderr,OK,Failed,Edit,Size,Checkpoint/);
    });

    it('links a grouped error to its source line', async () => {
      const p = await panel('dashboard');
      await p.send(snapshot());
      await p.rendered(1);
      const link = p.page.locator('section[aria-label="Errors by message"] button[aria-label^="Open policy/policy.ts"]').first();
      const label = await link.getAttribute('aria-label');
      await link.click();
      const m = (await p.sent()).at(-1) as { type: string; file: string; line: number };
      assert.equal(m.type, 'openSource');
      assert.equal(m.file, 'policy/policy.ts');
      assert.equal(label, `Open policy/policy.ts at line ${m.line}`);
    });

    it('adds live submissions and shows run progress', async () => {
      const p = await panel('dashboard');
      await p.send(snapshot(10));
      await p.rendered(1);
      await p.send({ type: 'dashboard.activity', activity: { submission: 11, done: 3, total: 8 } });
      await p.page.waitForSelector('.banner[role="status"]:not([hidden])');
      assert.match((await p.page.textContent('.banner[role="status"]')) ?? '', /submission #11: 3 of 8 episodes/);
      await p.send({ type: 'dashboard.submission', summary: subs[10] });
      await p.rendered(2);
      assert.equal(await p.page.locator('section[aria-label="Submissions"] tbody tr').count(), 11);
      assert.equal(await p.page.textContent('[data-stat="budget"] .value'), `${subs[10]!.budget.remaining} left`);
    });

    it('ignores a malformed message with a logged error and keeps working', async () => {
      const p = await panel('dashboard');
      await p.send(snapshot(4));
      await p.rendered(1);
      await p.send({ type: 'dashboard.snapshot', envId: 'x', budget: null, submissions: [{ submission: 'one' }], report: null, activity: null });
      await p.send({ type: 'no.such.message' });
      await p.send('garbage');
      await p.page.waitForFunction(() => (window as unknown as { __pf: { sent: { type: string }[] } }).__pf.sent.filter((m) => m.type === 'log').length >= 3);
      const logs = (await p.sent()).filter((m) => m.type === 'log') as unknown as { level: string; message: string }[];
      assert.equal(logs.length, 3);
      assert.ok(logs.every((l) => l.level === 'error' && l.message.startsWith('ignored malformed message')));
      assert.match(logs[0]!.message, /submissions\.0/);
      assert.ok(p.console.some((l) => l.startsWith('error: [policyforge dashboard] ignored malformed message')));
      assert.equal(await p.page.locator('section[aria-label="Submissions"] tbody tr').count(), 4, 'previous data still shown');
      await p.send(snapshot(6));
      await p.rendered(2);
      assert.equal(await p.page.locator('section[aria-label="Submissions"] tbody tr').count(), 6);
    });

    it('shows validation, the selected candidate and the held-out interval after the run', async () => {
      const p = await panel('dashboard');
      await p.send(snapshot(subs.length, true));
      await p.rendered(1);
      assert.equal(await p.page.isVisible('section.after-run'), true);
      assert.equal(await p.page.textContent('[data-stat="selected"] .value'), `#${report.selected}`);
      const held = report.heldOut!;
      assert.equal(await p.page.textContent('[data-stat="heldout"] .detail'), `95% CI [${fmt.score(held.mean - 1.96 * held.stderr)}, ${fmt.score(held.mean + 1.96 * held.stderr)}] over ${held.count} episodes`);
      assert.equal(await p.page.locator('section[aria-label="Validation of candidates"] tbody tr').count(), report.candidates.length);
      assert.equal(await p.page.getAttribute('section[aria-label="Validation of candidates"] tr.selected', 'data-key'), String(report.selected));
    });

    it('exports a chart as PNG and follows a theme switch', async () => {
      const p = await panel('dashboard');
      await p.send(snapshot());
      await p.rendered(1);
      await p.setTheme('dark');
      await p.page.waitForTimeout(100);
      await p.page.click('vscode-button[aria-label="Export chart \\"Best-so-far train mean\\" as PNG"]');
      const m = (await p.sent()).at(-1) as { type: string; format: string; encoding: string; content: string; filename: string };
      assert.equal(m.format, 'png');
      assert.equal(m.filename, 'best-so-far-train-mean.png');
      const png = Buffer.from(m.content, 'base64');
      assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
      // Background of the exported image is the dark editor background (#1f1f1f).
      const bg = await p.page.evaluate(async (b64) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width; c.height = img.height;
        const ctx = c.getContext('2d')!;
        ctx.drawImage(img, 0, 0);
        return [...ctx.getImageData(2, 2, 1, 1).data];
      }, m.content);
      assert.deepEqual(bg, [0x1f, 0x1f, 0x1f, 255]);
      assert.deepEqual(cspViolations(p), []);
    });
  });

  describe('replay', () => {
    const load = (steps = 200): HostToWebview => ({ type: 'replay.load', envId: 'CartPole-v1', family: 'classic/cartpole', caseIndex: 3, sides: [{ submission: 4, episode: null, trajectory: makeTrajectory('classic/cartpole', steps) }], comparable: [2, 9] });
    const stepText = (p: PanelPage): Promise<string | null> => p.page.textContent('dd[data-field="step"]');

    it('scrubs, steps with the keyboard and shows the step’s observation, action, reward and return', async () => {
      const p = await panel('replay');
      await p.send(load());
      await p.rendered(1);
      assert.equal(await p.page.getAttribute('input[data-role="scrubber"]', 'max'), '200');
      await p.page.locator('input[data-role="scrubber"]').fill('50');
      assert.equal(await stepText(p), '50 of 200');
      assert.equal(await p.page.textContent('dd[data-field="return"]'), '50.000');
      await p.page.click('h1');
      await p.page.keyboard.press('ArrowRight');
      assert.equal(await stepText(p), '51 of 200');
      const traj = (load() as { sides: { trajectory: { steps: { action: unknown }[] } }[] }).sides[0]!.trajectory;
      // Frame 51 reads out the action chosen in that state: the 52nd step's.
      assert.equal(await p.page.textContent('dd[data-field="action"]'), String(traj.steps[51]!.action));
      await p.page.keyboard.press('End');
      assert.equal(await stepText(p), '200 of 200');
      await p.page.keyboard.press('Home');
      assert.equal(await stepText(p), '0 of 200 (after reset)');
      assert.deepEqual(cspViolations(p), []);
    });

    it('plays and pauses, and restores the step after a reload', async () => {
      const p = await panel('replay');
      await p.send(load(400));
      await p.rendered(1);
      await p.page.click('vscode-button[data-role="play"]');
      await p.page.waitForFunction(() => document.body.dataset['playing'] === 'true');
      await p.page.waitForTimeout(300);
      await p.page.click('vscode-button[data-role="play"]');
      await p.page.waitForFunction(() => document.body.dataset['playing'] === 'false');
      const at = Number(((await stepText(p)) ?? '').split(' ')[0]);
      assert.ok(at > 3 && at < 400, `played to step ${at}`);
      const state = (await p.state()) as { step: number; target: unknown };
      assert.equal(state.step, at);
      assert.deepEqual(state.target, { submission: 4, caseIndex: 3 });
      await p.page.reload();
      await p.send(load(400));
      await p.rendered(1);
      assert.equal(await stepText(p), `${at} of 400`);
    });

    it('replays the same case under two submissions side by side and asks for another comparison', async () => {
      const p = await panel('replay');
      await p.send({ type: 'replay.load', envId: 'CartPole-v1', family: 'classic/cartpole', caseIndex: 3, sides: [{ submission: 4, episode: null, trajectory: makeTrajectory('classic/cartpole', 120) }, { submission: 9, episode: null, trajectory: makeTrajectory('classic/cartpole', 300) }], comparable: [2, 9] });
      await p.rendered(1);
      assert.equal(await p.page.locator('section.scene').count(), 2);
      await p.page.locator('input[data-role="scrubber"]').fill('200');
      const steps = await p.page.$$eval('dd[data-field="step"]', (d) => d.map((x) => x.textContent));
      assert.deepEqual(steps, ['120 of 120', '200 of 300']);
      await p.page.evaluate(() => {
        const sel = document.querySelector('vscode-single-select[data-role="compare"]') as HTMLElement & { value: string };
        sel.value = '2';
        sel.dispatchEvent(new Event('change'));
      });
      assert.deepEqual((await p.sent()).at(-1), { type: 'openReplay', submission: 4, caseIndex: 3, compareWith: 2 });
    });

    it('draws every built-in family and falls back for unknown ones', async () => {
      const p = await panel('replay');
      const families: [string, ReturnType<typeof makeTrajectory>][] = [
        ['classic/mountaincar', makeTrajectory('classic/mountaincar', 30)],
        ['classic/pendulum', makeTrajectory('classic/pendulum', 30)],
        ['classic/acrobot', makeTrajectory('classic/acrobot', 30)],
        ['minigrid', makeGridTrajectory(10)],
        ['someone/else', makeTrajectory('classic/cartpole', 30)],
      ];
      let n = 0;
      for (const [family, trajectory] of families) {
        await p.send({ type: 'replay.load', envId: 'X-v0', family, caseIndex: 0, sides: [{ submission: 1, episode: null, trajectory }] });
        await p.rendered(++n);
        await p.page.keyboard.press('End');
        await p.page.click('h1');
        // The canvas has something other than background drawn on it.
        const inked = await p.page.$eval('canvas.scene-canvas', (c) => {
          const cv = c as HTMLCanvasElement;
          const d = cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height).data;
          let k = 0;
          for (let i = 0; i < d.length; i += 4 * 17) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) k++;
          return k;
        });
        assert.ok(inked > 20, `${family}: ${inked} inked samples`);
      }
      assert.deepEqual(cspViolations(p), []);
    });

    it('draws from the observations when no snapshots were recorded, and says so', async () => {
      const p = await panel('replay');
      const strip = (t: ReturnType<typeof makeTrajectory>): ReturnType<typeof makeTrajectory> => ({ truncated: t.truncated, steps: t.steps.map(({ snapshot: _s, ...rest }) => rest) });
      let n = 0;
      for (const [family, trajectory] of [['classic/cartpole', strip(makeTrajectory('classic/cartpole', 40))], ['minigrid', strip(makeGridTrajectory(10))]] as const) {
        await p.page.keyboard.press('Home');
        await p.send({ type: 'replay.load', envId: 'X-v0', family, caseIndex: 0, sides: [{ submission: 1, episode: null, trajectory }] });
        await p.rendered(++n);
        assert.match((await p.page.textContent('section.scene p.note')) ?? '', /drawn from what the policy observed/);
        // The screen-reader description comes from the same snapshot the canvas was drawn from.
        const desc = (await p.page.textContent('section.scene p.sr-only')) ?? '';
        assert.match(desc, family === 'minigrid' ? /agent at \(3, 6\) facing up/ : /cart at x=-?\d\.\d{3}, pole angle -?\d\.\d{3} rad/, desc);
      }
    });

    it('says why there is no trajectory', async () => {
      const p = await panel('replay');
      await p.send({ type: 'replay.load', envId: 'CartPole-v1', family: 'classic/cartpole', caseIndex: 3, sides: [{ submission: 4, episode: null, trajectory: null, problem: 'The trajectories of submission #4 were evicted.' }] });
      await p.rendered(1);
      assert.match((await p.page.textContent('section.scene .banner')) ?? '', /evicted/);
    });
  });

  describe('diagnostics', () => {
    it('renders effectiveness per class and the lineage from summaries alone', async () => {
      const p = await panel('diagnostics');
      await p.send({ type: 'diagnostics.snapshot', envId: 'CartPole-v1', submissions: subs, report: null });
      await p.rendered(1);
      const classes = await p.page.$$eval('section[aria-label="Edit effectiveness per class"] tbody tr', (trs) => trs.map((tr) => [tr.getAttribute('data-key'), tr.querySelectorAll('td')[1]?.textContent]));
      const count = (c: string): number => subs.filter((s) => s.edit?.class === c).length;
      for (const [c, n] of classes) assert.equal(Number(n), count(c ?? ''), `${c} edits`);
      assert.equal(await p.page.locator('section[aria-label="Lineage"] tbody tr').count(), subs.length);
      assert.equal(await p.page.isVisible('p.muted >> text=not available'), true);
      assert.equal(await p.page.locator('.chart-card canvas').count() >= 5, true);
      assert.deepEqual(cspViolations(p), []);
    });
  });
});
