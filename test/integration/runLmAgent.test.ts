/**
 * Start LM Agent in a real VS Code, after run.test.ts made the workspace's run (files load in
 * name order). The build this suite runs in has no model provider (vscode.lm offers none without
 * one, such as Copilot), so what a user meets there is the clear "no language models" message;
 * with a provider, the model quick pick.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { NO_MODELS_MESSAGE, type StartResult } from '../../src/extension/agent/lmAgentCommands';
import { policyForge } from './support/api';
import { driverAvailable, pressKey, screenshot, waitForText } from './support/ui';

describe('the LM agent in VS Code', function () {
  this.timeout(60_000);

  it('Start LM Agent offers the models vscode.lm has, or says there are none', async () => {
    const api = await policyForge();
    // Alone (--grep), the suite has no run yet: make the one run.test.ts would have made.
    if (!api.status()) await vscode.commands.executeCommand('policyforge.newWorkspace', { envId: 'CartPole-v1', budget: 8, params: {} });
    const models = await vscode.lm.selectChatModels();
    const started = vscode.commands.executeCommand<StartResult>('policyforge.startLmAgent');
    if (models.length === 0) {
      assert.deepEqual(await started, { started: false, reason: 'no_models' });
      if (driverAvailable) {
        await waitForText('.notifications-toasts', 'no language models available');
        await screenshot('lm-agent-no-models');
      }
      assert.match(NO_MODELS_MESSAGE, /policyforge agent --base-url/, 'the message names the CLI path too');
      return;
    }
    if (!driverAvailable) return;
    await waitForText('.quick-input-widget', models[0]!.name);
    await screenshot('lm-agent-model-pick');
    await pressKey('Escape');
    assert.deepEqual(await started, { started: false, reason: 'not_picked' });
  });

  it('Open Agent Transcript says when no agent was launched on the run', async () => {
    const uri = await vscode.commands.executeCommand('policyforge.openAgentTranscript', { submission: 1 });
    assert.equal(uri, undefined, 'the command reports the missing transcript as an error message');
    if (driverAvailable) await waitForText('.notifications-toasts', 'no agent was launched on this run');
  });
});
