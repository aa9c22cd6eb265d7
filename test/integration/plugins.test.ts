/**
 * The extension API lets another extension add environment plugins: a registered plugin's
 * environments appear in New Policy Workspace, and the new run freezes the plugin path so its
 * runner loads it.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { policyForge } from './support/api';
import { driverAvailable, pressKey, typeText, visibleTexts, waitForText } from './support/ui';

const QUICK_INPUT = '.quick-input-widget';

describe('extension API: environment plugins', function () {
  this.timeout(120_000);

  it('a plugin registered through the API is offered by New Policy Workspace and frozen into the run', async () => {
    const api = await policyForge();
    const plugin = path.join(process.env.PF_TEST_REPO ?? path.resolve(__dirname, '../../..'), 'test', 'fixtures', 'extension', 'coin-plugin.js');
    assert.throws(() => api.registerEnvironmentPlugin('relative/plugin.js'), /must be absolute/);
    const registration = api.registerEnvironmentPlugin(plugin);
    assert.ok(api.environmentPlugins().includes(plugin));
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-coin-'));
    try {
      let created: Thenable<unknown>;
      if (driverAvailable) {
        created = vscode.commands.executeCommand('policyforge.newWorkspace', { folder, openAfter: false });
        await waitForText(QUICK_INPUT, 'CartPole-v1');
        await typeText('Coin-v0');
        const rows = await visibleTexts(`${QUICK_INPUT} .monaco-list-row`);
        assert.ok(rows.some((r) => r.includes('Coin-v0') && r.includes('single coin flip')), rows.join(' | '));
        await pressKey('Enter');
        await waitForText(QUICK_INPUT, 'episode budget');
        await typeText('8');
        await pressKey('Enter');
        await waitForText(QUICK_INPUT, 'bias = 1');
        await pressKey('Enter');
      } else {
        created = vscode.commands.executeCommand('policyforge.newWorkspace', { folder, openAfter: false, envId: 'Coin-v0', budget: 8, params: { bias: 1 } });
      }
      assert.equal(await created, folder);
      const run = JSON.parse(fs.readFileSync(path.join(folder, '.policyforge', 'run.json'), 'utf8')) as { envId: string; budget: number; plugins: string[] };
      assert.deepEqual([run.envId, run.budget, run.plugins], ['Coin-v0', 8, [plugin]]);
      assert.match(fs.readFileSync(path.join(folder, 'policy', 'policy.ts'), 'utf8'), /return 1/);
    } finally {
      registration.dispose();
      fs.rmSync(folder, { recursive: true, force: true });
    }
    assert.ok(!api.environmentPlugins().includes(plugin), 'disposing the registration removes the plugin');
  });
});
