/**
 * Why it fails (issue #21) in a real VS Code: a MiniGrid DoorKey-5x5 run made with New Policy
 * Workspace, a policy whose key branch throws when the agent faces south, submitted through the
 * extension. The editor marks the lines that ran in the failed episodes (read back from the
 * rendered editor) and their hover gives the failed/successful counts; then Submit for Practice…
 * takes the proposer's configuration, and the Run tree lists the practice row while only the
 * practice budget moves.
 *
 * The window's own run belongs to run.test.ts (finished by the time this file runs), so this
 * run lives in a scratch folder that the extension opens through its API (`openRun`); the
 * window's run is reopened afterwards. The run secret is pinned before its runner starts, so
 * which episodes fail is the same on every machine.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PolicyForgeApi } from '../../src/extension/api/api';
import { attributionMarks } from '../../src/extension/attribution/attributionMarks';
import type { SubmitOutcome } from '../../src/extension/progress/submitWithProgress';
import type { SubmissionSummary } from '../../src/protocol/feedback';
import type { TrainingConfig } from '../../src/protocol/training';
import { workspacePaths } from '../../src/runner/paths';
import { secretPath } from '../../src/runner/secret';
import { attributionFigures } from '../../src/stats/attributionText';
import { practiceParamsText } from '../../src/stats/practiceText';
import { pinSecret } from '../unit/runner/pinSecret';
import { policyForge, waitForStatus, writePolicy } from './support/api';
import { driverAvailable, pressKey, screenshot, typeText, visibleTexts, waitFor, waitForText, workbenchTexts } from './support/ui';

const ENV = 'MiniGrid-DoorKey-5x5-v0';
const BUDGET = 64;
const CASES = '0-15';
const PRACTICE_EPISODES = 8;
/** Chosen so that the 16 cases split into episodes that hit the bug and episodes that reach the goal. */
const SECRET = '5eed'.repeat(16);
const QUICK_INPUT = '.quick-input-widget';
const TREE_ROWS = '.pane-body .monaco-list-row';
const TOASTS = '.notifications-toasts';
/** The text editor in the editor area (one open), not the other Monaco editors of the workbench. */
const EDITOR = '.editor-group-container .monaco-editor';

const POLICY = `import { ACTION, OBJECT, STATE, frontCell, isWalkable } from './minigrid';

export class Policy {
  private readonly turnProbability = 0.2;

  constructor(_ctx: PolicyContext) {}

  act(observation: Observation): Action {
    const front = frontCell(observation.image);
    if (front.type === OBJECT.goal) return ACTION.forward;
    if (front.type === OBJECT.key) {
      if (observation.direction === 1) throw new Error('picked up the key facing south');
      return ACTION.pickup;
    }
    if (front.type === OBJECT.door && front.state !== STATE.open) return ACTION.toggle;
    if (isWalkable(front) && Math.random() > this.turnProbability) return ACTION.forward;
    return Math.random() < 0.5 ? ACTION.left : ACTION.right;
  }
}
`;
/** 1-based line of the deliberately failing branch. */
const BUG_LINE = POLICY.split('\n').findIndex((l) => l.includes('facing south')) + 1;

type Summary = Extract<SubmitOutcome, { ok: true }>['summary'];

function ok(outcome: SubmitOutcome | undefined): Summary {
  assert.ok(outcome, 'the command returned nothing (cancelled?)');
  if (!outcome.ok) assert.fail(`submit rejected: ${outcome.reason}: ${outcome.message}`);
  return outcome.summary;
}

/**
 * 1-based lines of the open editor whose rendered row carries one of the extension's decorations.
 * Monaco keeps rendered rows in DOM order of creation, not of line number (an edit appends), but
 * the margin's rows and the content's overlay rows are one row per line in the same order: the
 * margin's row k names the line of overlay row k.
 */
async function decoratedLines(): Promise<number[]> {
  const numbers = (await workbenchTexts(`${EDITOR} .margin-view-overlays > div`)) ?? [];
  const lines: number[] = [];
  for (let k = 1; k <= numbers.length; k++) {
    // Extension decoration types render as `ced-…TextEditorDecorationType…` classes in the row's overlay.
    const hit = await workbenchTexts(`${EDITOR} .view-overlays > div:nth-child(${k}):has(> [class*="TextEditorDecorationType"])`);
    if (hit && hit.length > 0) lines.push(Number(numbers[k - 1]));
  }
  return lines.sort((a, b) => a - b);
}

/** What the editor should mark for a submission: every line of a place in policy/policy.ts that ran more in failed/low episodes. */
function markedLines(s: SubmissionSummary): number[] {
  const marks = attributionMarks(s).get('policy/policy.ts') ?? [];
  return [...new Set(marks.flatMap((m) => Array.from({ length: m.endLine - m.line + 1 }, (_, i) => m.line + i)))].sort((x, y) => x - y);
}

/** Waits until the rendered marks are `expected` (none, too); fails naming what was on screen. */
async function waitForMarks(expected: number[], what: string): Promise<void> {
  let shown: number[] = [];
  await waitFor(what, async () => {
    shown = await decoratedLines();
    return shown.join() === expected.join() ? true : undefined;
  }).catch(() => assert.fail(`${what}: decorated lines ${shown.join(', ') || 'none'}; the attribution marks ${expected.join(', ') || 'none'}`));
}

describe('Why it fails in VS Code: attribution marks and practice submits', function () {
  this.timeout(240_000);
  let api: PolicyForgeApi;
  let windowRun: string | undefined;
  let folder = '';
  let policy = '';
  let first: Summary;

  before(async () => {
    api = await policyForge();
    windowRun = api.workspaceRoot();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // Reopening the window's run closes this one, which stops its runner; without a window run
    // this one stays open (its runner stops with the window) and its folder stays.
    if (windowRun && folder) {
      await api.openRun(windowRun);
      // The pinned secret lives in the user data directory, not in the folder.
      const { runId } = JSON.parse(fs.readFileSync(workspacePaths(folder).runJson, 'utf8')) as { runId: string };
      fs.rmSync(secretPath(runId), { force: true });
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('marks the lines that ran in failed episodes, and the hover gives the counts', async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-why-'));
    const created = await vscode.commands.executeCommand('policyforge.newWorkspace', { folder, envId: ENV, budget: BUDGET, params: {}, openAfter: false });
    assert.equal(created, folder);
    pinSecret(folder, SECRET);
    const opened = await api.openRun(folder);
    assert.equal(api.workspaceRoot(), folder);
    assert.deepEqual(opened?.budget, { total: BUDGET, used: 0, remaining: BUDGET });
    policy = path.join(folder, 'policy', 'policy.ts');
    await writePolicy(POLICY, policy);

    let outcome: SubmitOutcome | undefined;
    if (driverAvailable) {
      const pending = vscode.commands.executeCommand<SubmitOutcome>('policyforge.submit');
      await waitForText(QUICK_INPUT, 'case ranges');
      await pressKey('Control+A');
      await typeText(CASES);
      await waitForText(QUICK_INPUT, 'Runs 16 episodes');
      await pressKey('Enter');
      outcome = await pending;
    } else {
      outcome = await vscode.commands.executeCommand<SubmitOutcome>('policyforge.submit', CASES);
    }
    const s = ok(outcome);
    first = s;
    const thrown = s.episodes.filter((e) => e.status === 'exception');
    assert.ok(thrown.length > 0 && thrown.length < s.episodes.length, `some episodes hit the bug, not all (${thrown.length}/${s.episodes.length})`);
    const a = s.attribution;
    assert.ok(a && a.low > 0 && a.high > 0, `an attribution with both groups: ${JSON.stringify(a)}`);
    const bug = a.entries.find((e) => e.file === 'policy/policy.ts' && e.line === BUG_LINE && e.kind === 'then');
    assert.ok(bug, `the throwing branch at line ${BUG_LINE} is attributed: ${JSON.stringify(a.entries)}`);
    assert.equal(bug.highRate, 0, 'a branch that throws never runs in a successful episode');
    assert.equal(Math.round(bug.lowRate * a.low), thrown.length, 'it ran in every episode that threw');

    const expected = markedLines(s);
    // With the pinned secret every other place ran at least as often in successful episodes.
    assert.deepEqual(expected, [BUG_LINE], 'the editor marks the bug\'s line alone');
    if (!driverAvailable) return;

    const editor = await vscode.window.showTextDocument(vscode.Uri.file(policy), { selection: new vscode.Range(0, 0, 0, 0) });
    await waitForText(`${EDITOR} .view-lines`, /facing\s+south/);
    await waitForMarks(expected, 'the attribution decorations of submission 1');
    await screenshot('50-attribution-decorations');

    // The hover on the bug's line names the figures: failed/low and successful counts.
    editor.selection = new vscode.Selection(BUG_LINE - 1, 8, BUG_LINE - 1, 8);
    await vscode.commands.executeCommand('editor.action.showHover');
    const hover = await waitForText('.monaco-hover', 'PolicyForge attribution');
    assert.ok(hover.includes(`submission ${s.submission}`), hover);
    assert.ok(hover.includes(attributionFigures(bug, a)), `the hover gives "${attributionFigures(bug, a)}": ${hover}`);
    assert.match(hover, new RegExp(`\\(${thrown.length}/${a.low}\\) and 0% of successful ones \\(0/${a.high}\\)`));
    assert.ok(hover.includes(`Failed/low: failed, or score ≤ ${a.lowScore}`), hover);
    await screenshot('51-attribution-hover');
    await pressKey('Escape');
  });

  it('Submit for Practice… runs the proposer\'s configuration: a practice row, only the practice budget moves', async function () {
    if (!first) this.skip();
    const before = await waitForStatus(api, 'the run after its submit', (s) => s.history.length === 1);
    assert.ok(before.practice, 'the status carries the practice budget');
    assert.deepEqual(before.practice.budget, { total: BUDGET, used: 0, remaining: BUDGET }, 'the practice budget defaults to the main budget');

    let outcome: SubmitOutcome | undefined;
    if (driverAvailable) {
      const pending = vscode.commands.executeCommand<SubmitOutcome>('policyforge.submitPractice');
      const item = await waitForText(`${QUICK_INPUT} .monaco-list-row`, 'Proposer');
      assert.ok(!item.includes('unavailable'), `the proposer has a suggestion: ${item}`);
      await screenshot('52-practice-pick');
      await pressKey('Enter');
      await waitForText(QUICK_INPUT, 'left in the practice budget');
      await pressKey('Control+A');
      await typeText(String(PRACTICE_EPISODES));
      await pressKey('Enter');
      outcome = await pending;
    } else {
      outcome = await vscode.commands.executeCommand<SubmitOutcome>('policyforge.submitPractice', { config: 'proposal', episodes: PRACTICE_EPISODES });
    }
    const s: SubmissionSummary = ok(outcome);
    const proposal = JSON.parse(fs.readFileSync(path.join(folder, 'practice', 'proposal.json'), 'utf8')) as TrainingConfig;
    assert.ok(s.practice, 'the summary is marked practice');
    assert.deepEqual(s.practice.params, proposal.params, 'it ran the proposal written to practice/proposal.json');
    assert.equal(s.episodes.length, PRACTICE_EPISODES);
    assert.deepEqual(s.practice.budget, { total: BUDGET, used: PRACTICE_EPISODES, remaining: BUDGET - PRACTICE_EPISODES });

    const after = await waitForStatus(api, 'the practice submission in the status', (x) => (x.practice?.submissions.length ?? 0) === 1);
    assert.deepEqual(after.budget, before.budget, 'the main budget did not move');
    assert.deepEqual(after.practice?.budget, { total: BUDGET, used: PRACTICE_EPISODES, remaining: BUDGET - PRACTICE_EPISODES });
    assert.deepEqual(after.history.map((h) => h.submission), [first.submission], 'a practice submission is not one of the run\'s submissions');
    assert.equal(after.best?.submission, first.submission);

    if (driverAvailable) {
      const toasts = await waitFor('the practice result notification', async () => {
        const t = await visibleTexts(`${TOASTS} .notification-toast`);
        return t.some((x) => x.includes(`#${s.submission}`)) ? t : undefined;
      });
      const toast = toasts.find((x) => x.includes(`#${s.submission}`)) ?? '';
      assert.ok(toast.includes(`Practice submission #${s.submission}`), `the notification says it was practice: ${toast.slice(0, 300)}`);
      assert.ok(toast.includes(`${BUDGET - PRACTICE_EPISODES} of the practice budget left`), `…and gives the practice budget left: ${toast}`);
      await vscode.commands.executeCommand('workbench.view.extension.policyforge');
      const row = await waitForText(TREE_ROWS, `#${s.submission} practice`);
      assert.ok(row.includes(practiceParamsText(s.practice.params).slice(0, 6)), `the row shows the configuration: ${row}`);
      const marked = await visibleTexts(`${TREE_ROWS}:has(.codicon-mortar-board)`);
      assert.ok(marked.some((t) => t.includes(`#${s.submission} practice`)), `the practice row has the practice icon: ${marked.join(' | ')}`);
      await waitForText(TREE_ROWS, `#${first.submission}`);
      await screenshot('53-practice-row');
    }

    // A configuration outside the environment's bounds, given as the command's arguments: refused, nothing charged.
    const refused = await vscode.commands.executeCommand<SubmitOutcome>('policyforge.submitPractice', { config: { params: { size: 99 } }, episodes: 2 });
    assert.ok(refused && !refused.ok, 'the runner refused the configuration');
    assert.match(refused.message, /refused.*size/, refused.message);
    const still = await waitForStatus(api, 'status after the refusal', () => true);
    assert.deepEqual([still.budget, still.practice?.budget], [after.budget, after.practice?.budget], 'neither budget moved');
    if (driverAvailable) await waitForText(TOASTS, 'configuration refused');
  });

  it('the marks follow their code through edits, and a fixed policy\'s submit repaints them', async function () {
    if (!first || !driverAvailable) this.skip();
    await vscode.window.showTextDocument(vscode.Uri.file(policy), { selection: new vscode.Range(0, 0, 0, 0) });
    await waitForMarks([BUG_LINE], 'the marks of submission 1 after the practice submit');
    // Two lines added above the code: the mark moves with it, also when the editor is shown again.
    await writePolicy(['// Why it fails: the key branch.', '', ...POLICY.split('\n')].join('\n'), policy);
    await waitForMarks([BUG_LINE + 2], 'the mark after two lines were added above');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.window.showTextDocument(vscode.Uri.file(policy), { selection: new vscode.Range(0, 0, 0, 0) });
    await waitForMarks([BUG_LINE + 2], 'the mark when the edited file is shown again');
    await screenshot('54-attribution-follows-edit');
    // The bug's line deleted: its mark goes before any submit.
    const fixed = POLICY.split('\n').filter((l) => !l.includes('facing south')).join('\n');
    await writePolicy(fixed, policy);
    await waitForMarks([], 'no mark once the marked line is gone');
    const s = ok(await vscode.commands.executeCommand<SubmitOutcome>('policyforge.submit', CASES));
    assert.equal(s.statusCounts.exception ?? 0, 0, 'without the bug no episode throws');
    await waitForMarks(markedLines(s), `the marks of submission ${s.submission}`);
    await screenshot('55-attribution-after-fix');
  });
});
