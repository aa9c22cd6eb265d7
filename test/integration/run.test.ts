/**
 * A whole run as a new user meets it, in order, in a real VS Code: create a CartPole workspace
 * from the palette, submit, read the feedback in the tree, status bar, CodeLens and Problems,
 * compare and restore a checkpoint, use the LM tools, survive a killed runner, finish.
 * Each step builds on the previous one (one run, one budget), like a user session.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PolicyForgeApi } from '../../src/extension/api/api';
import type { SubmitOutcome } from '../../src/extension/progress/submitWithProgress';
import type { RunReport } from '../../src/protocol/feedback';
import type { RestoreResult } from '../../src/protocol/run';
import { historyScoreFormat } from '../../src/stats/scoreFormat';
import { policyFile, policyForge, runnerPid, waitForStatus, workspaceRoot, writePolicy } from './support/api';
import { click, driverAvailable, pressKey, screenshot, typeText, visibleTexts, waitFor, waitForText } from './support/ui';

const BUDGET = 48;
const QUICK_INPUT = '.quick-input-widget';
const STATUS_ITEM = '.statusbar-item';
const TREE_ROWS = '.pane-body .monaco-list-row';
/** Confirmations are notifications under test (VS Code refuses modal dialogs there; see shared/confirm.ts). */
const TOASTS = '.notifications-toasts';
/** An element inside the (single open) webview panel's document. */
const inWebview = (selector: string): string => `iframe.webview.ready >> internal:control=enter-frame >> iframe#active-frame >> internal:control=enter-frame >> ${selector}`;

function ok(outcome: SubmitOutcome | undefined): Extract<SubmitOutcome, { ok: true }>['summary'] {
  assert.ok(outcome, 'the submit command returned nothing (cancelled?)');
  if (!outcome.ok) assert.fail(`submit rejected: ${outcome.reason}: ${outcome.message}`);
  return outcome.summary;
}

describe('a PolicyForge run in VS Code', function () {
  this.timeout(180_000);
  let api: PolicyForgeApi;
  let starterSource: string;

  before(async () => {
    api = await policyForge();
  });

  it('shows the welcome view with New Policy Workspace when there is no run', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.policyforge');
    if (driverAvailable) {
      await waitForText('.welcome-view-content', 'New Policy Workspace');
      await screenshot('01-welcome-view');
    }
    assert.equal(api.status(), undefined);
  });

  it('New Policy Workspace: environment quick pick, budget, parameters → starter files and a runner', async () => {
    let created: Thenable<unknown>;
    if (driverAvailable) {
      created = vscode.commands.executeCommand('policyforge.newWorkspace');
      await waitForText(QUICK_INPUT, 'MountainCar');
      const items = await visibleTexts(`${QUICK_INPUT} .monaco-list-row`);
      assert.ok(items.some((t) => t.includes('CartPole-v1') && /pole/i.test(t)), `environments listed with descriptions: ${items.join(' | ')}`);
      await screenshot('02-new-workspace-environments');
      await typeText('CartPole-v1');
      await pressKey('Enter');
      await waitForText(QUICK_INPUT, 'episode budget');
      await typeText(String(BUDGET));
      await pressKey('Enter');
      await waitForText(QUICK_INPUT, 'Create the workspace with these parameters');
      await pressKey('Enter');
    } else {
      created = vscode.commands.executeCommand('policyforge.newWorkspace', { envId: 'CartPole-v1', budget: BUDGET, params: {} });
    }
    assert.equal(await created, workspaceRoot());
    for (const f of ['policy/policy.ts', 'policy/env.d.ts', 'AGENTS.md', '.policyforge/run.json']) assert.ok(fs.existsSync(path.join(workspaceRoot(), f)), `${f} exists`);
    const st = await waitForStatus(api, 'the runner status', () => true);
    assert.deepEqual(st.budget, { total: BUDGET, used: 0, remaining: BUDGET });
    const pid = runnerPid();
    assert.ok(pid && pid !== process.pid, 'a runner child process registered in runner.json');
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, policyFile());
    starterSource = fs.readFileSync(policyFile(), 'utf8');
  });
  let first: Extract<SubmitOutcome, { ok: true }>['summary'];

  it('Submit… validates as you type and runs the cases; tree and status bar show the result', async () => {
    let outcome: SubmitOutcome | undefined;
    if (driverAvailable) {
      const pending = vscode.commands.executeCommand<SubmitOutcome>('policyforge.submit');
      await waitForText(QUICK_INPUT, 'case ranges');
      await typeText('0-999');
      await waitForText(QUICK_INPUT, `case 999 is outside the pool 0-${BUDGET - 1}`);
      await screenshot('03-submit-validation');
      await pressKey('Control+A');
      await typeText('0-7');
      await waitForText(QUICK_INPUT, 'Runs 8 episodes');
      await pressKey('Enter');
      outcome = await pending;
    } else {
      outcome = await vscode.commands.executeCommand<SubmitOutcome>('policyforge.submit', '0-7');
    }
    const s = ok(outcome);
    first = s;
    if (driverAvailable) {
      // One notification per submit: the result. The progress notification has closed.
      const toasts = await waitFor('the result notification', async () => {
        const t = await visibleTexts(`${TOASTS} .notification-toast`);
        return t.some((x) => x.includes('Submission #1:')) ? t : undefined;
      });
      assert.equal(toasts.filter((t) => t.includes('Submission #1')).length, 1, toasts.join(' | '));
      assert.ok(!toasts.some((t) => t.includes('PolicyForge: running')), `the progress notification closed: ${toasts.join(' | ')}`);
      await screenshot('03b-one-notification');
    }
    assert.equal(s.submission, 1);
    assert.deepEqual(s.cases, [0, 1, 2, 3, 4, 5, 6, 7]);
    assert.equal(s.budget.remaining, BUDGET - 8);
    const st = await waitForStatus(api, 'status after the submit', (x) => x.history.length === 1);
    assert.equal(st.best?.submission, 1);
    if (driverAvailable) {
      await vscode.commands.executeCommand('workbench.view.extension.policyforge');
      const status = await waitForText(STATUS_ITEM, `${BUDGET - 8}/${BUDGET} left`);
      assert.ok(status.includes(`best ${historyScoreFormat(st.history).score(s.stats.mean)}`), status);
      await waitForText(TREE_ROWS, `${historyScoreFormat(st.history).meanStderr(s.stats.mean, s.stats.stderr)} · 8/8 ok`);
      await waitForText(TREE_ROWS, 'CartPole-v1');
      await screenshot('04-after-submit-tree-status');
    }
  });

  it('Open Feedback opens a panel, not summary.json: the dashboard when every episode succeeded', async () => {
    const webviewTab = (viewType: string) => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(viewType));
    if (driverAvailable) {
      // The toast may have timed out by now; then its button is in the notification center.
      if (!(await visibleTexts(`${TOASTS} .notification-toast`)).some((t) => t.includes('Submission #1'))) await vscode.commands.executeCommand('notifications.showList');
      await click('.monaco-button', 'Open Feedback', { selector: '.notification-list-item', text: 'Submission #1' });
    }
    else await vscode.commands.executeCommand('policyforge.openFeedback', { submission: 1 });
    await waitFor('the dashboard tab', () => webviewTab('policyforge.dashboard'));
    assert.ok(!vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.input instanceof vscode.TabInputText && t.input.uri.fsPath.endsWith('summary.json')), 'no summary.json tab');
    if (driverAvailable) {
      await waitFor('the submissions table', async () => ((await visibleTexts(inWebview('section[aria-label="Submissions"] tbody tr'))).length > 0 ? true : undefined), 60_000);
      await screenshot('04b-open-feedback-dashboard');
      await vscode.commands.executeCommand('notifications.hideList');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('CodeLens once, above class Policy: submit with budget left, and the last result', async () => {
    const uri = vscode.Uri.file(policyFile());
    const lenses = await waitFor('PolicyForge CodeLenses', async () => {
      const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
      const titles = l.map((x) => x.command?.title ?? '');
      return titles.some((t) => t.includes(`${BUDGET - 8} left`)) ? titles : undefined;
    });
    assert.ok(lenses.includes(`$(play) Submit 8 episodes · ${BUDGET - 8} left`), lenses.join(' | '));
    assert.ok(lenses.includes(`#1: ${historyScoreFormat([first.stats]).meanStderr(first.stats.mean, first.stats.stderr)} · initial`), lenses.join(' | '));
    assert.equal(lenses.length, 2, `one Submit lens and one result lens: ${lenses.join(' | ')}`);
    const classLine = starterSource.split('\n').findIndex((l) => /class Policy/.test(l));
    const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
    assert.deepEqual([...new Set(l.map((x) => x.range.start.line))], [classLine], 'both on the class Policy line');
    if (driverAvailable) {
      await vscode.window.showTextDocument(uri);
      await waitForText('.codelens-decoration', `Submit 8 episodes · ${BUDGET - 8} left`);
      const shown = (await visibleTexts('.codelens-decoration')).filter((t) => t.includes('Submit'));
      assert.equal(shown.length, 1, `one lens line on screen: ${shown.join(' | ')}`);
      await screenshot('05-codelens');
    }
  });

  it('Ctrl+Alt+Enter in the policy opens Submit…', async function () {
    if (!driverAvailable) this.skip();
    await vscode.window.showTextDocument(vscode.Uri.file(policyFile()));
    await pressKey('Control+Alt+Enter');
    await waitForText(QUICK_INPUT, 'case ranges');
    await pressKey('Escape');
  });

  it('Show Dashboard and Replay Episode open their webview panels', async () => {
    const webviewTab = (viewType: string) => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(viewType));
    if (driverAvailable) await click(STATUS_ITEM, `${BUDGET - 8}/${BUDGET} left`);
    else await vscode.commands.executeCommand('policyforge.showDashboard');
    await waitFor('the dashboard tab (the status bar item opens it)', () => webviewTab('policyforge.dashboard'));
    const target = await vscode.commands.executeCommand<{ submission: number; caseIndex: number }>('policyforge.replayEpisode', { submission: 1, caseIndex: 3 });
    assert.deepEqual(target, { submission: 1, caseIndex: 3 });
    const tab = await waitFor('the replay tab', () => webviewTab('policyforge.replay'));
    assert.match(tab.label, /#1.*case 3/);
    if (driverAvailable) await screenshot('05b-replay-panel');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.window.showTextDocument(vscode.Uri.file(policyFile()));
  });

  it('diagnostics: exceptions of a failing policy at their source line, with episodes and cases', async () => {
    const failing = starterSource.replace(/act\(([^)]*)\)[^{]*\{/, (m) => `${m}\n    if (observation[2] > 0.05) throw new Error('pole leaned right');`);
    assert.notEqual(failing, starterSource, 'the starter policy has an act method to instrument');
    await writePolicy(failing);
    const throwLine = failing.split('\n').findIndex((l) => l.includes('pole leaned right'));
    const s = ok(await vscode.commands.executeCommand<SubmitOutcome>('policyforge.submit', { cases: '8-11' }));
    const failed = s.episodes.filter((e) => e.status === 'exception');
    assert.ok(failed.length > 0, 'some episodes hit the exception');
    const diags = await waitFor('a PolicyForge diagnostic', () => {
      const d = vscode.languages.getDiagnostics(vscode.Uri.file(policyFile())).filter((x) => x.source === 'PolicyForge');
      return d.length ? d : undefined;
    });
    assert.equal(diags[0]?.range.start.line, throwLine, `diagnostic on line ${throwLine + 1}`);
    assert.equal(diags.length, 1, 'one problem for one error, however many episodes hit it');
    assert.match(diags[0]?.message ?? '', new RegExp(`^act\\(\\) threw: Error: pole leaned right \\(${failed.length} episodes? of submission #2; cases `));
    const target = await vscode.commands.executeCommand<{ panel: string; caseIndex?: number }>('policyforge.openFeedback', { submission: 2 });
    assert.deepEqual(target, { panel: 'replay', submission: 2, caseIndex: failed[0]?.caseIndex });
    const replayTab = await waitFor('the replay tab', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('policyforge.replay')));
    assert.match(replayTab.label, new RegExp(`#2.*case ${failed[0]?.caseIndex}`));
    if (driverAvailable) {
      await waitForText(inWebview('section.scene h2'), 'Submission #2', 60_000);
      await screenshot('06a-open-feedback-replay');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.window.showTextDocument(vscode.Uri.file(policyFile()));
    if (driverAvailable) {
      await vscode.commands.executeCommand('workbench.actions.view.problems');
      await waitForText('.markers-panel .monaco-list-row', 'pole leaned right');
      await screenshot('06-problems');
    }
  });

  it('a submit whose policy does not build is rejected for free, with build diagnostics', async () => {
    await writePolicy(`${starterSource}\nexport const broken = ;\n`);
    const before = api.status()?.budget.used;
    const outcome = await vscode.commands.executeCommand<SubmitOutcome>('policyforge.submit', { episodes: 2 });
    assert.ok(outcome && !outcome.ok, 'the submit was rejected');
    assert.equal(outcome.reason, 'bundle_does_not_build');
    const build = await waitFor('a build diagnostic', () => {
      const d = vscode.languages.getDiagnostics(vscode.Uri.file(policyFile())).filter((x) => x.source === 'PolicyForge build');
      return d.length ? d : undefined;
    });
    assert.equal(build[0]?.range.start.line, starterSource.split('\n').length, 'at the broken line');
    await waitForStatus(api, 'status refreshed', () => true);
    assert.equal(api.status()?.budget.used, before, 'nothing charged');
  });

  it('Compare with Checkpoint opens a diff against the read-only checkpoint document', async () => {
    await writePolicy(starterSource.replace(/(\d+\.\d+)/, (m) => String(Number(m) + 0.25)));
    const left = await vscode.commands.executeCommand<vscode.Uri>('policyforge.compareWithCheckpoint', { submission: 1 });
    assert.equal(left?.scheme, 'policyforge-checkpoint');
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'the active tab is a diff');
    assert.equal(tab.input.original.scheme, 'policyforge-checkpoint');
    assert.equal(tab.input.modified.fsPath, policyFile());
    const original = await vscode.workspace.openTextDocument(tab.input.original);
    assert.equal(original.getText(), starterSource);
    if (driverAvailable) {
      await waitForText('.tabs-container .tab', '#1 ↔ workspace');
      await screenshot('07-checkpoint-diff');
    }
  });

  it('hovering a numeric literal shows its value and score at each checkpoint', async () => {
    const s = ok(await vscode.commands.executeCommand<SubmitOutcome>('policyforge.submit', { cases: '0-3' }));
    assert.equal(s.submission, 3);
    const src = fs.readFileSync(policyFile(), 'utf8');
    const m = /\d+\.\d+/.exec(src);
    assert.ok(m);
    const doc = await vscode.workspace.openTextDocument(policyFile());
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, doc.positionAt(m.index + 1));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join('\n');
    assert.match(text, /history of `[\d.]+` across checkpoints/);
    const three = await waitForStatus(api, 'status after three submissions', (x) => x.history.length === 3);
    assert.ok(text.includes(`| #1 | \`0.0\` | ${historyScoreFormat(three.history).score(first.stats.mean)} | initial |`), text);
    // #2 added a throw to act() (a structural edit); the literal survived it with the same value.
    assert.ok(text.includes('| #2 | `0.0` |'), text);
    assert.ok(!text.includes('different shape') && !text.includes('not in this checkpoint'), text);
    assert.match(text, new RegExp(`\\| #3 \\| \`${m[0].replace('.', '\\.')}\` \\|`));
  });

  it('Restore Checkpoint asks for confirmation, restores policy/ and records the restore', async () => {
    let result: RestoreResult | undefined;
    if (driverAvailable) {
      const pending = vscode.commands.executeCommand<RestoreResult>('policyforge.restoreCheckpoint', { submission: 2 });
      await waitForText(TOASTS, 'Restore the checkpoint of submission #2');
      await screenshot('08-restore-confirmation');
      await click(`${TOASTS} .monaco-button`, 'Restore');
      result = await pending;
    } else {
      result = await vscode.commands.executeCommand<RestoreResult>('policyforge.restoreCheckpoint', { submission: 2 });
    }
    assert.ok(result, 'restored');
    assert.ok(result.files.includes('policy/policy.ts'));
    assert.match(fs.readFileSync(policyFile(), 'utf8'), /pole leaned right/);
    await waitForStatus(api, 'restoredFrom = 2', (s) => s.restoredFrom === 2);
  });

  it('LM tools are contributed and answer with the protocol documents', async () => {
    // The summary text comes first where there is one; the protocol's JSON document is the last part.
    const lastPart = (r: vscode.LanguageModelToolResult): string => (r.content.at(-1) as vscode.LanguageModelTextPart).value;
    const names = vscode.lm.tools.map((t) => t.name).filter((n) => n.startsWith('policyforge_')).sort();
    assert.deepEqual(names, ['policyforge_feedback', 'policyforge_finish', 'policyforge_pool', 'policyforge_status', 'policyforge_submit']);
    const token = new vscode.CancellationTokenSource().token;
    const status = await vscode.lm.invokeTool('policyforge_status', { input: {}, toolInvocationToken: undefined }, token);
    const st = JSON.parse(lastPart(status)) as { envId: string; budget: { remaining: number }; submissions: number };
    assert.equal(st.envId, 'CartPole-v1');
    assert.equal(st.submissions, 3);
    assert.equal(st.budget.remaining, BUDGET - 16);
    const fb = await vscode.lm.invokeTool('policyforge_feedback', { input: { submission: 2 }, toolInvocationToken: undefined }, token);
    assert.match((fb.content[0] as vscode.LanguageModelTextPart).value, /^submission 2 .*\n[\s\S]*per case:/);
    const summary = JSON.parse(lastPart(fb)) as { submission: number; cases: number[] };
    assert.deepEqual([summary.submission, summary.cases], [2, [8, 9, 10, 11]]);
    // Budget-spending tool: confirmation is prepared for chat; invoked outside a chat it runs directly.
    const submitted = await vscode.lm.invokeTool('policyforge_submit', { input: { cases: [20, 21], note: 'from the LM tool' }, toolInvocationToken: undefined }, token);
    const s = JSON.parse(lastPart(submitted)) as { submission: number; cases: number[]; budget: { used: number } };
    assert.deepEqual([s.submission, s.cases, s.budget.used], [4, [20, 21], 18]);
    const rejected = await vscode.lm.invokeTool('policyforge_submit', { input: { cases: '0-999' }, toolInvocationToken: undefined }, token);
    const r = JSON.parse(lastPart(rejected)) as { rejected: boolean; reason: string; charged: number };
    assert.deepEqual([r.rejected, r.reason, r.charged], [true, 'index_out_of_pool', 0]);
  });

  it('restarts a runner that was killed, says so, and keeps the run', async () => {
    const pid = runnerPid();
    assert.ok(pid);
    process.kill(pid, 'SIGKILL');
    if (driverAvailable) await waitForText(TOASTS, 'stopped unexpectedly');
    const newPid = await waitFor('a new runner', () => {
      const p = runnerPid();
      return p !== undefined && p !== pid && api.status() !== undefined ? p : undefined;
    }, 60_000);
    assert.notEqual(newPid, pid);
    if (driverAvailable) await screenshot('09-runner-restarted');
    const s = ok(await vscode.commands.executeCommand<SubmitOutcome>('policyforge.submit', { episodes: 4 }));
    assert.equal(s.submission, 5);
    const restarted = await vscode.commands.executeCommand<number>('policyforge.restartRunner');
    assert.ok(restarted && restarted !== newPid && runnerPid() === restarted, 'Restart Runner replaced the runner');
    assert.equal(s.budget.used, 22);
  });

  it('a running submission shows its progress in the status bar and the Run view, not a notification; the view\'s stop button cancels it for free', async function () {
    if (!driverAvailable) this.skip();
    const slow = starterSource.replace(/act\(([^)]*)\)[^{]*\{/, (m) => `${m}\n    let spin = 0;\n    for (let k = 0; k < 30000000; k++) spin += k;\n    if (spin < 0) return 0;`);
    await writePolicy(slow);
    const used = api.status()?.budget.used;
    await vscode.commands.executeCommand('workbench.view.extension.policyforge');
    const pending = vscode.commands.executeCommand<SubmitOutcome>('policyforge.submit', { episodes: 16 });
    await waitForText(STATUS_ITEM, 'PolicyForge: running 16 episodes', 60_000);
    await waitForStatus(api, 'episodes running', (s) => s.running !== null, 60_000);
    await screenshot('09b-progress');
    const toasts = await visibleTexts(`${TOASTS} .notification-toast`);
    assert.ok(!toasts.some((t) => t.includes('running 16 episodes')), `no progress notification: ${toasts.join(' | ')}`);
    await click('.action-label[aria-label^="Cancel Submission"]');
    const outcome = await pending;
    assert.ok(outcome && !outcome.ok, 'the submit did not complete');
    assert.equal(outcome.reason, 'cancelled');
    const st = await waitForStatus(api, 'nothing running', (s) => s.running === null);
    assert.equal(st.budget.used, used, 'a cancelled submission costs nothing');
    assert.equal(st.history.length, 5);
  });

  it('Resubmit Same Cases sits on submission rows and asks, naming the cases and the cost', async () => {
    await writePolicy(starterSource);
    const before = api.status()?.budget.used ?? 0;
    let outcome: SubmitOutcome | undefined;
    if (driverAvailable) {
      // Declining spends nothing.
      const declined = vscode.commands.executeCommand<SubmitOutcome>('policyforge.resubmit', { submission: 1 });
      const question = await waitForText(TOASTS, 'Resubmit the cases of #1?');
      assert.match(question, /cases 0-7 again\. This charges 8 episodes of budget: \d+ left now, \d+ after\./);
      await click('.monaco-button', 'Cancel', { selector: '.notification-toast-container', text: 'Resubmit the cases of #1?' });
      assert.equal(await declined, undefined);
      assert.equal(api.status()?.budget.used, before, 'declined: nothing charged');
      // The row's inline action asks the same question.
      await vscode.commands.executeCommand('workbench.view.extension.policyforge');
      // The label of row #1 alone holds "#1" (the run row says "best #1" in its description).
      const row = `${TREE_ROWS}:has(.label-name:has-text("#1"))`;
      await click(row);
      await click(`${row} .action-label[aria-label*="Resubmit"]`);
      await waitForText(TOASTS, 'Resubmit the cases of #1?');
      await screenshot('09c-resubmit-confirmation');
      const done = new Promise<SubmitOutcome>((resolve) => {
        const sub = api.onDidSubmit((summary) => {
          sub.dispose();
          resolve({ ok: true, summary });
        });
      });
      await click('.monaco-button', 'Resubmit 8 episodes', { selector: '.notification-toast-container', text: 'Resubmit the cases of #1?' });
      outcome = await done;
    } else {
      outcome = await vscode.commands.executeCommand<SubmitOutcome>('policyforge.resubmit', { submission: 1, confirm: false });
    }
    const s = ok(outcome);
    assert.deepEqual(s.cases, first.cases);
    assert.equal(s.budget.used, before + 8);
    await waitForStatus(api, 'six submissions', (x) => x.history.length === 6);
  });

  it('Finish Run validates and assesses, writes the report, and the views show the selection', async () => {
    let report: RunReport | undefined;
    if (driverAvailable) {
      const pending = vscode.commands.executeCommand<RunReport>('policyforge.finishRun');
      await waitForText(TOASTS, 'Finish the run?');
      await click(`${TOASTS} .monaco-button`, 'Finish Run');
      report = await pending;
    } else {
      report = await vscode.commands.executeCommand<RunReport>('policyforge.finishRun', { confirm: false });
    }
    assert.ok(report);
    assert.ok(fs.existsSync(path.join(workspaceRoot(), '.policyforge', 'report.json')));
    const selected = report.selected === null ? undefined : JSON.parse(fs.readFileSync(path.join(workspaceRoot(), 'feedback', `submit-${String(report.selected).padStart(4, '0')}`, 'summary.json'), 'utf8')) as { stats: { okCount: number; count: number } };
    assert.ok(selected && selected.stats.okCount === selected.stats.count, `a submission whose episodes all succeeded is selected (got ${report.selected}: ${report.reason ?? ''})`);
    assert.ok(report.heldOut, 'the selected submission was assessed on held-out cases');
    await waitForStatus(api, 'phase complete', (s) => s.phase === 'complete');
    if (driverAvailable) {
      await vscode.commands.executeCommand('workbench.view.extension.policyforge');
      await waitForText(TREE_ROWS, `#${report.selected} ★`);
      await waitForText(STATUS_ITEM, 'complete');
      await screenshot('10-finished');
    }
  });
});
