/**
 * A run created from VS Code chooses its selection rule as `policyforge init --selection gated
 * --gate-delta X --elite K` does: New Policy Workspace's parameters step offers the selection
 * rule (mode, the gate's Δ, elite re-evaluation), and the run freezes the choice in run.json.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { policyForge } from './support/api';
import { driverAvailable, pressKey, screenshot, typeText, waitForText } from './support/ui';

const QUICK_INPUT = '.quick-input-widget';

interface RunJson {
  envId: string;
  selectionMode: string;
  gateDelta?: number;
  eliteK?: number;
}

describe('New Policy Workspace: the selection rule', function () {
  this.timeout(120_000);
  const folders: string[] = [];
  const newFolder = (): string => {
    const f = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-sel-'));
    folders.push(f);
    return f;
  };
  before(async () => {
    await policyForge();
  });
  after(() => {
    for (const f of folders) fs.rmSync(f, { recursive: true, force: true });
  });

  const runJson = (folder: string): RunJson => JSON.parse(fs.readFileSync(path.join(folder, '.policyforge', 'run.json'), 'utf8')) as RunJson;

  it('picks gated with Δ and an elite from the quick pick, and run.json keeps them', async function () {
    if (!driverAvailable) this.skip();
    const folder = newFolder();
    const created = vscode.commands.executeCommand('policyforge.newWorkspace', { folder, openAfter: false, envId: 'CartPole-v1', budget: 8 });
    await waitForText(QUICK_INPUT, 'selection: paper');
    await typeText('selection');
    await pressKey('Enter');
    await waitForText(QUICK_INPUT, 'Two-stage gate');
    await typeText('gated');
    await pressKey('Enter');
    await waitForText(QUICK_INPUT, 'gate threshold');
    await typeText('2.5');
    await pressKey('Enter');
    await waitForText(QUICK_INPUT, 'elite re-evaluation');
    await typeText('3');
    await pressKey('Enter');
    await waitForText(QUICK_INPUT, 'selection: gated (Δ = 2.5), elite re-evaluation of the top 3');
    await screenshot('40-new-workspace-selection');
    await pressKey('Enter');
    assert.equal(await created, folder);
    const run = runJson(folder);
    assert.deepEqual([run.envId, run.selectionMode, run.gateDelta, run.eliteK], ['CartPole-v1', 'gated', 2.5, 3]);
  });

  it('takes the rule as an argument too, the gate defaulting to one standard error', async () => {
    const folder = newFolder();
    const created = await vscode.commands.executeCommand('policyforge.newWorkspace', { folder, openAfter: false, envId: 'CartPole-v1', budget: 8, params: {}, selection: { selectionMode: 'gated', eliteK: 2 } });
    assert.equal(created, folder);
    const run = runJson(folder);
    assert.deepEqual([run.selectionMode, run.gateDelta, run.eliteK], ['gated', undefined, 2]);
  });
});
