/**
 * The webview panels in a real VS Code, after the run of run.test.ts has finished (files load in
 * name order): the dashboard opened from the command palette shows exactly what summary.json and
 * report.json say, a replay draws its episode, the panels follow a switch to a dark theme, and
 * screenshots of each go to test-results/integration/.
 *
 * Webview content lives two iframes deep; Playwright's frame-entering selector reaches it
 * through the driver's ordinary `/text` endpoint.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunReport, SubmissionSummary } from '../../src/protocol/feedback';
import { runScoreFormat } from '../../src/stats/scoreFormat';
import { policyForge, workspaceRoot } from './support/api';
import { driverAvailable, pressKey, screenshot, typeText, visibleTexts, waitFor, waitForText } from './support/ui';

/** An element inside the (single open) webview panel's document. */
const inWebview = (selector: string): string => `iframe.webview.ready >> internal:control=enter-frame >> iframe#active-frame >> internal:control=enter-frame >> ${selector}`;

function summariesOnDisk(): SubmissionSummary[] {
  const dir = path.join(workspaceRoot(), 'feedback');
  return fs.readdirSync(dir).filter((n) => /^submit-\d{4}$/.test(n)).sort()
    .map((n) => JSON.parse(fs.readFileSync(path.join(dir, n, 'summary.json'), 'utf8')) as SubmissionSummary);
}

const webviewTab = (viewType: string): vscode.Tab | undefined => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(viewType));

describe('webview panels in VS Code', function () {
  this.timeout(180_000);

  before(async function () {
    if (!driverAvailable) this.skip();
    await policyForge();
    // The run comes from run.test.ts; a --grep that leaves it out leaves nothing to show.
    if (!fs.existsSync(path.join(workspaceRoot(), 'feedback'))) this.skip();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    await vscode.workspace.getConfiguration('workbench').update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Show Dashboard from the palette: the table and numbers equal summary.json and report.json', async () => {
    await vscode.commands.executeCommand('workbench.action.showCommands');
    await waitForText('.quick-input-widget', 'Type the name of a command', 10_000).catch(() => undefined);
    await typeText('PolicyForge: Show Dashboard');
    await waitForText('.quick-input-widget .monaco-list-row', 'Show Dashboard');
    await pressKey('Enter');
    await waitFor('the dashboard tab', () => webviewTab('policyforge.dashboard'));

    const summaries = summariesOnDisk();
    assert.ok(summaries.length > 0, 'run.test.ts left submissions behind');
    const rows = await waitFor('the submissions table', async () => {
      const r = await visibleTexts(inWebview('section[aria-label="Submissions"] tbody tr'));
      return r.length === summaries.length ? r : undefined;
    }, 60_000);
    // Newest first; each row: number, time, cases, mean ± stderr, ok, failed, …, checkpoint.
    const newestFirst = [...summaries].reverse();
    // The run's one number format (src/stats/scoreFormat.ts), as every surface prints it.
    const format = runScoreFormat(summaries.map((s) => s.stats.mean));
    rows.forEach((row, i) => {
      const s = newestFirst[i] as SubmissionSummary;
      assert.ok(row.startsWith(String(s.submission)), `row ${i} is #${s.submission}: ${row}`);
      assert.ok(row.includes(format.meanStderr(s.stats.mean, s.stats.stderr)), `row #${s.submission} shows its mean ± stderr: ${row}`);
      assert.ok(row.includes(s.checkpoint.replace(/^sha256[:-]/, '').slice(0, 10)), `row #${s.submission} shows its checkpoint: ${row}`);
    });
    const last = summaries.at(-1) as SubmissionSummary;
    const budget = await visibleTexts(inWebview('[data-stat="budget"] .value'));
    assert.deepEqual(budget, [`${last.budget.remaining} left`]);

    const report = JSON.parse(fs.readFileSync(path.join(workspaceRoot(), '.policyforge', 'report.json'), 'utf8')) as RunReport;
    const selected = await visibleTexts(inWebview('[data-stat="selected"] .value'));
    assert.deepEqual(selected, [report.selected === null ? 'none' : `#${report.selected}`]);
    const candidates = await visibleTexts(inWebview('section[aria-label="Validation of candidates"] tbody tr'));
    assert.equal(candidates.length, report.candidates.length);
    await screenshot('11-dashboard-light');
  });

  it('follows a switch to a dark theme', async () => {
    await vscode.workspace.getConfiguration('workbench').update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
    await waitFor('the webview in dark', async () => ((await visibleTexts(inWebview('body.vscode-dark main#dashboard'))).length > 0 ? true : undefined));
    await new Promise((r) => setTimeout(r, 500));
    await screenshot('12-dashboard-dark');
  });

  it('Replay Episode draws the episode and its per-step readout', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const first = summariesOnDisk()[0] as SubmissionSummary;
    const caseIndex = first.episodes[0]?.caseIndex ?? 0;
    await vscode.commands.executeCommand('policyforge.replayEpisode', { submission: first.submission, caseIndex });
    await waitFor('the replay tab', () => webviewTab('policyforge.replay'));
    const length = first.episodes[0]?.length ?? 0;
    await waitForText(inWebview('dd[data-field="step"]'), `0 of ${length}`, 60_000);
    await waitForText(inWebview('section.scene h2'), `Submission #${first.submission}`);
    await screenshot('13-replay-dark');
  });

  it('Show Evolution Diagnostics renders the lineage of every submission', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('policyforge.showEvolutionDiagnostics');
    const n = summariesOnDisk().length;
    await waitFor('the lineage table', async () => ((await visibleTexts(inWebview('section[aria-label="Lineage"] tbody tr'))).length === n ? true : undefined), 60_000);
    await screenshot('14-diagnostics-dark');
  });
});
