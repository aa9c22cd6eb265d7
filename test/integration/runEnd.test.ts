/**
 * The end of a run in a real VS Code (#24): a Submit… that spends the last of the budget starts
 * validation and assessment, and VS Code shows them as Finish Run does, in a notification with
 * candidates and episodes done, then the report's notification. Before, that path ended the run
 * with no sign of it until the views changed. The LM submit tool on the last episodes shows the
 * same progress in the status bar and returns the warning and the report with its result.
 *
 * The window's run belongs to run.test.ts, so this run lives in a scratch folder opened through
 * the extension's API (`openRun`); the window's run is reopened afterwards. Each act burns a
 * little CPU so the end lasts long enough to be seen; nothing asserts how long it takes.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PolicyForgeApi } from '../../src/extension/api/api';
import type { SubmitOutcome } from '../../src/extension/progress/submitWithProgress';
import type { RunReport } from '../../src/protocol/feedback';
import { policyForge, waitForStatus, writePolicy } from './support/api';
import { driverAvailable, screenshot, waitForText } from './support/ui';

const TOASTS = '.notifications-toasts';
const STATUS_BAR = '.part.statusbar';
const BUDGET = 2;
const POLICY = `export class Policy {
  constructor(_ctx: PolicyContext) {}

  act(o: Observation): Action {
    let x = 0;
    for (let i = 0; i < 150000; i++) x += Math.sqrt(i);
    if (x < 0) return 0;
    return o[2]! + 0.5 * o[3]! > 0 ? 1 : 0;
  }
}
`;

describe('the last submit ends the run with its progress in view', function () {
  this.timeout(300_000);
  let api: PolicyForgeApi;
  let windowRun: string | undefined;
  let folder = '';

  before(async () => {
    api = await policyForge();
    windowRun = api.workspaceRoot();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (windowRun) {
      await api.openRun(windowRun);
      for (const f of folders) fs.rmSync(f, { recursive: true, force: true });
    }
  });

  const folders: string[] = [];
  /** A scratch CartPole run with the slow policy, open in the window. */
  const scratchRun = async (): Promise<void> => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-end-'));
    folders.push(folder);
    const created = await vscode.commands.executeCommand('policyforge.newWorkspace', { folder, envId: 'CartPole-v1', budget: BUDGET, params: {}, openAfter: false });
    assert.equal(created, folder);
    await api.openRun(folder);
    assert.equal(api.workspaceRoot(), folder);
    await writePolicy(POLICY, path.join(folder, 'policy', 'policy.ts'));
  };

  it('Submit… of the last episodes: a notification with the validation and assessment counts, then the report', async () => {
    await scratchRun();
    const completed = new Promise<RunReport>((resolve) => {
      const sub = api.onDidComplete((r) => {
        sub.dispose();
        resolve(r);
      });
    });
    // `confirm: false`: the caller agreed to end the run (the question itself is tested with the CLI's).
    const outcome = await vscode.commands.executeCommand<SubmitOutcome>('policyforge.submit', { episodes: BUDGET, confirm: false });
    assert.ok(outcome?.ok, outcome && !outcome.ok ? outcome.message : 'no outcome');
    assert.equal(outcome.summary.budget.remaining, 0);
    if (driverAvailable) {
      await waitForText(TOASTS, /(?:validation: \d+\/1 candidates, \d+\/\d+ episodes|assessment of submission 1: \d+\/\d+ episodes)/, 120_000);
      await screenshot('60-last-submit-progress');
      await waitForText(TOASTS, 'PolicyForge: run finished; submission #1 selected', 180_000);
    }
    const report = await completed;
    assert.equal(report.selected, 1);
    assert.ok(report.heldOut, 'the selected submission was assessed on held-out cases');
    await waitForStatus(api, 'phase complete', (s) => s.phase === 'complete');
  });

  it('the LM submit tool on the last episodes: the progress in the status bar, the report in its result', async () => {
    await scratchRun();
    const token = new vscode.CancellationTokenSource().token;
    // Outside a chat the tool runs without its confirmation (which carries the warning; unit-tested).
    const pending = vscode.lm.invokeTool('policyforge_submit', { input: { episodes: BUDGET }, toolInvocationToken: undefined }, token);
    if (driverAvailable) {
      await waitForText(STATUS_BAR, /(?:validation: \d+\/1 candidates, \d+\/\d+ episodes|assessment of submission 1: \d+\/\d+ episodes)/, 120_000);
      await screenshot('61-lm-submit-last-progress');
    }
    const result = await pending;
    const text = (result.content[0] as vscode.LanguageModelTextPart).value;
    assert.match(text, /warning: this submit spends the last 2 episodes of the budget/);
    assert.match(text, /That submit spent the last of the budget, so the run has ended[^]*\nrun complete: CartPole-v1 {3}budget 2\/2 used/);
    await waitForStatus(api, 'phase complete', (s) => s.phase === 'complete');
  });
});
