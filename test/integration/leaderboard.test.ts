/**
 * The Leaderboard panel in a real VS Code: PolicyForge: Open Leaderboard on a suite folder shows
 * the aggregate table and one bar chart per environment with the figures src/leaderboard computes
 * for that folder (what `policyforge leaderboard` prints), and Export Leaderboard writes the CLI's
 * JSON and CSV. A screenshot of the panel goes to test-results/integration/.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { leaderboardExport, loadLeaderboard } from '../../src/extension/leaderboard/leaderboardData';
import { policyForge } from './support/api';
import { driverAvailable, screenshot, visibleTexts, waitFor } from './support/ui';

const inWebview = (selector: string): string => `iframe.webview.ready >> internal:control=enter-frame >> iframe#active-frame >> internal:control=enter-frame >> ${selector}`;

const webviewTab = (viewType: string): vscode.Tab | undefined =>
  vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(viewType));

/** A suite folder as `policyforge suite run` leaves it: results.csv with agents and report baselines. */
function writeSuite(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'suite.json'), `${JSON.stringify({ id: 'demo', envs: ['CartPole-v1', 'Pendulum-v1', 'MiniGrid-Empty-5x5-v0'] })}\n`);
  fs.writeFileSync(path.join(dir, 'results.csv'), [
    'environment,entry,score,kind,family',
    'CartPole-v1,autotune,487.5,agent,classic', 'CartPole-v1,random,21.9,agent,classic', 'CartPole-v1,starter,9.3,baseline,classic', 'CartPole-v1,uniform-random,21.9,baseline,classic',
    'Pendulum-v1,autotune,-412.25,agent,classic', 'Pendulum-v1,random,-1210,agent,classic', 'Pendulum-v1,starter,-1180,baseline,classic', 'Pendulum-v1,uniform-random,-1225,baseline,classic',
    'MiniGrid-Empty-5x5-v0,autotune,0.81,agent,minigrid', 'MiniGrid-Empty-5x5-v0,random,0.05,agent,minigrid', 'MiniGrid-Empty-5x5-v0,uniform-random,0.05,baseline,minigrid',
  ].join('\n'));
}

describe('Leaderboard panel in VS Code', function () {
  this.timeout(180_000);
  let dir: string;

  before(async function () {
    if (!driverAvailable) this.skip();
    await policyForge();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-lb-'));
    writeSuite(path.join(dir, 'suite'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('Open Leaderboard on a suite folder shows the table and charts src/leaderboard computes', async () => {
    const suite = path.join(dir, 'suite');
    // The rows name their families and no environment here ranks lower-is-better: the panel's registry options change nothing.
    const { board } = loadLeaderboard([suite], { familyOf: () => 'other', lowerIsBetter: () => false });
    assert.ok(board);
    await vscode.commands.executeCommand('policyforge.openLeaderboard', { sources: [suite] });
    await waitFor('the leaderboard tab', () => webviewTab('policyforge.leaderboard'));

    const rows = await waitFor('the aggregate table', async () => {
      const r = await visibleTexts(inWebview('section[aria-label="Aggregate ranking"] tbody tr'));
      return r.length === board.entries.length ? r : undefined;
    }, 60_000);
    board.entries.forEach((e, i) => {
      assert.ok(rows[i]!.includes(e.entry), `row ${i} is ${e.entry}: ${rows[i]}`);
      assert.ok(rows[i]!.includes(e.rankScore.toFixed(3)), `${e.entry} shows its rank score ${e.rankScore.toFixed(3)}: ${rows[i]}`);
    });
    const charts = await visibleTexts(inWebview('section.env-card h2'));
    assert.deepEqual(charts, board.environments.map((e) => e.environment));
    const pendulumBars = await visibleTexts(inWebview('section[data-environment="Pendulum-v1"] g.bar-row text.label'));
    assert.deepEqual(pendulumBars, board.environments.find((e) => e.environment === 'Pendulum-v1')!.ranking.map((r) => `${r.rank}. ${r.entry}${r.kind === 'baseline' ? ' (baseline)' : ''}`));
    await screenshot('30-leaderboard');

    const json = await vscode.commands.executeCommand<string>('policyforge.exportLeaderboard', { format: 'json', file: path.join(dir, 'out.json') });
    const csv = await vscode.commands.executeCommand<string>('policyforge.exportLeaderboard', { format: 'csv', file: path.join(dir, 'out.csv') });
    assert.equal(fs.readFileSync(json, 'utf8'), leaderboardExport(board, 'json'));
    assert.equal(fs.readFileSync(csv, 'utf8'), leaderboardExport(board, 'csv'));
  });
});
