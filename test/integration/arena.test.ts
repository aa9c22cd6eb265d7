/**
 * Arena runs in a real VS Code.
 *
 * First, the arena panel and a match replay: New Policy Workspace makes a Connect
 * Four arena run in a scratch folder, the `policyforge` CLI submits its starter policy (the real
 * runner plays the opponent pool in the sandbox and writes summaries, pool, ratings and match
 * files), and the extension's arena panel shows that run: its matrix row, the pool, the ratings.
 * A click on a matrix cell opens the match in the replay panel, which plays it to its end.
 *
 * The scratch run is not the window's run (run.test.ts owns that), so the panels are the
 * extension's SingletonPanels fed from that folder by the host's own readers (arenaSnapshot,
 * arenaReplayMessage), the way the registered arena panel and replay are fed.
 *
 * Then a whole arena run through the extension's own commands (see the second suite): the
 * window opens a scratch arena run for the time of the test (the API's openRun), and lets go of
 * it afterwards so run.test.ts still starts from a window without a run.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { readArenaFiles } from '../../src/extension/panels/arenaFiles';
import { arenaSnapshot, watchArenaFiles } from '../../src/extension/panels/arenaPanel';
import { arenaReplayMessage } from '../../src/extension/panels/arenaReplay';
import type { PanelAction } from '../../src/extension/panels/panelActions';
import { SingletonPanel } from '../../src/extension/panels/singletonPanel';
import type { HostToWebview } from '../../src/protocol/webview';
import type { PolicyForgeApi } from '../../src/extension/api/api';
import { parseArenaReport, type ArenaRunReport, type ArenaSubmissionSummary } from '../../src/protocol/arena';
import { policyForge } from './support/api';
import { click, driverAvailable, pressKey, screenshot, typeText, visibleTexts, waitFor, waitForText } from './support/ui';

const run = promisify(execFile);
const inWebview = (selector: string): string => `iframe.webview.ready >> internal:control=enter-frame >> iframe#active-frame >> internal:control=enter-frame >> ${selector}`;
const log = { info: () => undefined, warn: (m: string) => console.warn(m), error: (m: string) => console.error(m) };

/** The CLI started the scratch run's runner detached: stop that process (only if it is a runner) before removing its folder. */
function stopRunner(dir: string): void {
  try {
    const { pid } = JSON.parse(fs.readFileSync(path.join(dir, '.policyforge', 'runner.json'), 'utf8')) as { pid: number };
    if (typeof pid === 'number' && pid !== process.pid && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('runner')) process.kill(pid, 'SIGTERM');
  } catch {
    // No runner file, or the runner is already gone.
  }
}

describe('Arena panel and match replay in VS Code', function () {
  this.timeout(300_000);
  let folder = '';
  let cli = '';
  let extensionUri: vscode.Uri;
  const panels: SingletonPanel[] = [];

  before(async function () {
    if (!driverAvailable) this.skip();
    await policyForge();
    const ext = vscode.extensions.getExtension('policyforge.policyforge');
    if (!ext) throw new Error('extension policyforge.policyforge is not loaded');
    extensionUri = ext.extensionUri;
    cli = path.join(ext.extensionPath, 'bin', 'policyforge.js');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    for (const p of panels) p.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (folder) {
      stopRunner(folder);
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('an arena run opens in the arena panel, and a match from its matrix replays', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('policyforge.openArena'), 'Open Arena is registered');
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-arena-'));
    const created = await vscode.commands.executeCommand('policyforge.newWorkspace', { folder, envId: 'ConnectFour-v0', budget: 60, params: {}, openAfter: false });
    assert.equal(created, folder);
    const runJson = JSON.parse(fs.readFileSync(path.join(folder, '.policyforge', 'run.json'), 'utf8')) as { arena?: unknown };
    assert.equal(typeof runJson.arena, 'object', 'an arena workspace: run.json carries arena options');
    await run(process.execPath, [cli, 'submit', '--dir', folder, '--json'], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, timeout: 180_000, maxBuffer: 16 << 20 });

    const files = await readArenaFiles(folder);
    assert.deepEqual(files.problems, []);
    const summary = files.submissions[0];
    assert.ok(summary, 'submission #1 is on disk');
    assert.ok(files.pool !== null && files.pool.entries.length >= 4, 'the pool file lists the built-in opponents');
    const played = summary.games.find((g) => g.trajectory !== undefined);
    assert.ok(played, 'a game with a match file');

    const replays: { submission: number; caseIndex: number }[] = [];
    const replay = new SingletonPanel({
      kind: 'replay', title: 'Replay arena match', extensionUri, log,
      snapshot: async () => (replays.length ? [await arenaReplayMessage(folder, replays.at(-1)!)] : []),
      onAction: () => undefined,
    });
    const arena = new SingletonPanel({
      kind: 'arena', title: 'Arena', extensionUri, log,
      snapshot: async () => [await arenaSnapshot(folder)],
      onAction: (a: PanelAction) => {
        if (a.type !== 'openReplay') return;
        replays.push({ submission: a.submission, caseIndex: a.caseIndex });
        replay.show();
      },
    });
    panels.push(arena, replay);
    const watching = watchArenaFiles(folder, () => void arenaSnapshot(folder).then((m) => arena.post(m)));

    arena.show();
    await waitForText(inWebview('section[aria-label="Win rate matrix"] tbody tr'), '#1', 60_000);
    await waitForText(inWebview('section[aria-label="Opponent pool"] tbody'), files.pool.entries[0]!.id);
    await waitForText(inWebview('section[aria-label="Ratings over time"] .u-legend'), played.opponent, 30_000);
    await screenshot('30-arena-panel');

    await click(inWebview(`section[aria-label="Win rate matrix"] button.rate[data-opponent="${played.opponent}"]`));
    await waitFor('the matrix cell to open its match', () => (replays.length > 0 ? true : undefined), 20_000);
    assert.equal(replays[0]!.submission, 1);
    const game = summary.games.find((g) => g.game === replays[0]!.caseIndex);
    assert.ok(game && game.opponent === played.opponent, 'the cell opened a game against its opponent');
    const load = (await arenaReplayMessage(folder, replays[0]!)) as Extract<HostToWebview, { type: 'replay.load' }>;
    assert.equal(load.type, 'replay.load');
    const frames = load.sides[0]!.trajectory!.steps.length;
    await waitForText(inWebview('.subtitle'), `against ${played.opponent}`, 60_000);
    await click(inWebview('vscode-button[data-role="last"]'));
    await waitForText(inWebview('dd[data-field="step"]'), `${frames} of ${frames}`);
    const text = await waitForText(inWebview('section.scene p.sr-only'), `step ${frames}:`);
    assert.match(text, /(Red|Yellow) wins|Draw after/, 'the last frame says how the game ended');
    await screenshot('31-arena-match-replay');

    // Live: with the arena panel on screen (and its snapshot already taken), a second submission
    // from the CLI reaches it only through the file watcher.
    replay.dispose();
    await waitForText(inWebview('section[aria-label="Win rate matrix"] tbody tr'), '#1', 60_000);
    await run(process.execPath, [cli, 'submit', '--dir', folder, '--json'], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, timeout: 180_000, maxBuffer: 16 << 20 });
    await waitForText(inWebview('section[aria-label="Win rate matrix"] tbody'), '#2', 60_000);
    watching.dispose();
  });
});

const QUICK_INPUT = '.quick-input-widget';
const TOASTS = '.notifications-toasts';
const TREE_ROWS = '.pane-body .monaco-list-row';

/** The tree row whose text contains `text`, once the Run view shows it. */
const treeRow = (text: string | RegExp, timeoutMs = 30_000): Promise<string> => waitForText(TREE_ROWS, text, timeoutMs);

describe('An arena run end to end from VS Code', function () {
  this.timeout(600_000);
  let folder = '';
  let api: PolicyForgeApi | undefined;

  before(async function () {
    if (!driverAvailable) this.skip();
    api = await policyForge();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    api?.closeRun();
    if (folder) {
      stopRunner(folder);
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('Submit plays the pool with progress and can be cancelled; pin and drop through quick picks; Finish Run reports both assessments', async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-arena-vscode-'));
    await vscode.commands.executeCommand('policyforge.newWorkspace', { folder, envId: 'ConnectFour-v0', budget: 200, params: {}, openAfter: false });
    const status = await api!.openRun(folder);
    assert.ok(status, 'the arena run’s runner answers');
    await vscode.commands.executeCommand('workbench.view.extension.policyforge');
    await treeRow(/ConnectFour-v0.*0\/200 games/);
    await treeRow(/vs minimax.*built-in · weight 1/);

    const repo = process.env.PF_TEST_REPO ?? path.resolve(__dirname, '../../..');
    const evolved = fs.readFileSync(path.join(repo, 'examples', 'arena', 'connect-four', 'gen-4', 'policy.ts'), 'utf8');
    const policyFile = path.join(folder, 'policy', 'policy.ts');

    // 1. A slow submit (each move does some needless arithmetic first): its progress shows in a
    // notification counted in games, and that notification's Cancel stops it, uncharged.
    const slowAct = 'act(observation: Record<string, Board>): Record<string, number> {';
    assert.ok(evolved.includes(slowAct), 'the evolved policy’s act signature');
    fs.writeFileSync(policyFile, evolved.replace(slowAct, `${slowAct} { let x = 0; for (let i = 0; i < 30_000_000; i++) x += Math.sqrt(i); if (x < 0) return {}; }`));
    const cancelled = vscode.commands.executeCommand<ArenaSubmissionSummary | undefined>('policyforge.submit');
    const progress = await waitForText(TOASTS, /submission 1: screen \d+\/12 games/, 120_000);
    assert.match(progress, /PolicyForge arena submit/);
    await treeRow(/ConnectFour-v0.*screen \d+\/12/);
    await waitFor('the Run view’s stop button', async () => ((await visibleTexts('.action-label[aria-label^="Cancel Submission"]')).length > 0 ? true : undefined));
    await screenshot('32-arena-submit-progress');
    await click('.monaco-button', 'Cancel', { selector: '.notification-toast-container', text: 'PolicyForge arena submit' });
    assert.equal(await cancelled, undefined, 'a cancelled submit returns nothing');
    await waitForText(TOASTS, /submission 1 was cancelled .*nothing was charged/, 60_000);
    await treeRow(/ConnectFour-v0.*0\/200 games/);
    assert.equal(fs.readdirSync(path.join(folder, 'feedback')).filter((n) => n.startsWith('submit-')).length, 0, 'no feedback folder left behind');

    // 2. The evolved policy as it is: screen, deep evaluation, promotion into the pool.
    fs.writeFileSync(policyFile, evolved);
    const summary = await vscode.commands.executeCommand<ArenaSubmissionSummary | undefined>('policyforge.submit');
    assert.ok(summary, 'the submit returned its summary');
    assert.equal(summary.submission, 1);
    assert.equal(summary.stage, 'deep', summary.reason);
    assert.equal(summary.promoted, 'champion-1', summary.reason);
    await waitForText(TOASTS, 'submission 1 reached the deep stage');
    await treeRow(/#1 → champion-1.*deep · screen \d\.\d\d · deep \d\.\d\d/);
    await treeRow(/vs champion-1.*champion/);
    await treeRow(new RegExp(`ConnectFour-v0.*${summary.budget.used}/200 games`));
    await waitForText('.statusbar-item', `${summary.budget.remaining}/200 games left · 1 submission, 1 champion`);
    await screenshot('33-arena-run-tree');

    // 3. Pin minimax and drop random through the commands' quick picks.
    const pinned = vscode.commands.executeCommand<boolean>('policyforge.arenaPinOpponent');
    await waitForText(QUICK_INPUT, 'pin an opponent');
    const offered = await visibleTexts(`${QUICK_INPUT} .monaco-list-row`);
    assert.ok(offered.some((t) => t.includes('champion-1')) && offered.some((t) => t.includes('minimax')), offered.join(' | '));
    await typeText('minimax');
    await pressKey('Enter');
    assert.equal(await pinned, true);
    await treeRow(/vs minimax.*pinned/);

    const dropped = vscode.commands.executeCommand<boolean>('policyforge.arenaDropOpponent');
    await waitForText(QUICK_INPUT, 'drop an opponent');
    const droppable = await visibleTexts(`${QUICK_INPUT} .monaco-list-row`);
    assert.ok(!droppable.some((t) => t.includes('minimax')), `a pinned opponent is not offered for dropping: ${droppable.join(' | ')}`);
    await typeText('random');
    await pressKey('Enter');
    assert.equal(await dropped, true);
    await waitFor('random to leave the tree', async () => ((await visibleTexts(TREE_ROWS)).some((t) => t.includes('vs random')) ? undefined : true));
    const pool = JSON.parse(fs.readFileSync(path.join(folder, 'feedback', 'arena', 'pool.json'), 'utf8')) as { entries: { id: string; pinned: boolean }[]; events: { kind: string; opponent: string }[] };
    assert.deepEqual(pool.entries.map((e) => e.id).sort(), ['aggressive', 'champion-1', 'defensive', 'minimax']);
    assert.ok(pool.entries.find((e) => e.id === 'minimax')?.pinned);
    assert.deepEqual(pool.events.map((e) => `${e.kind} ${e.opponent}`), ['promoted champion-1', 'pinned minimax', 'dropped random']);

    // The registered arena panel shows the window's run: the matrix row, the pin, the changes.
    await vscode.commands.executeCommand('policyforge.openArena');
    await waitForText(inWebview('section[aria-label="Win rate matrix"] tbody tr'), '#1', 60_000);
    await waitForText(inWebview('section[aria-label="Opponent pool"] tbody'), 'pinned');
    await waitForText(inWebview('section[aria-label="Pool changes"]'), 'random', 30_000);

    // 4. Finish Run: confirmed in a notification, validation and assessment shown as they run.
    const finished = vscode.commands.executeCommand<ArenaRunReport | undefined>('policyforge.finishRun');
    await waitForText(TOASTS, 'Finish the arena run?');
    await click(`${TOASTS} .monaco-button`, 'Finish Run');
    await waitForText(TOASTS, /finishing the arena run.*(validation against the final pool|assessment against the (hidden opponents|final pool))/, 120_000);
    const report = await finished;
    assert.ok(report && report.selected && report.assessment, 'the run was assessed');
    assert.equal(report.selected.submission, 1);
    assert.deepEqual(report.assessment.hidden.opponents.map((o) => o.id), ['hidden-minimax-2', 'hidden-minimax-6']);
    const onDisk = parseArenaReport(fs.readFileSync(path.join(folder, '.policyforge', 'report.json'), 'utf8'));
    assert.ok(onDisk.ok, onDisk.ok ? '' : onDisk.error);
    assert.equal(onDisk.value.assessment?.hidden.winRate, report.assessment.hidden.winRate);
    assert.equal(onDisk.value.assessment?.finalPool.winRate, report.assessment.finalPool.winRate);
    assert.deepEqual(onDisk.value.pool.map((e) => e.id).sort(), ['aggressive', 'champion-1', 'defensive', 'minimax'], 'the final pool is the one left after the drop');
    await waitForText(TOASTS, /submission 1 selected: win rate \d+% against hidden opponents, \d+% against the final pool/);
    await treeRow(/ConnectFour-v0.*complete/);
    await waitForText('.statusbar-item', /games left · 1 submission, 1 champion · complete/);
    await waitForText(inWebview('[aria-label="Arena summary"]'), 'Hidden opponents', 60_000);
    const figures = await waitForText(inWebview('[aria-label="Arena summary"]'), 'Final pool');
    assert.ok(figures.includes(`${(100 * report.assessment.hidden.winRate).toFixed(1)}%`) && figures.includes(`${(100 * report.assessment.finalPool.winRate).toFixed(1)}%`), figures);
    await screenshot('34-arena-finished');
  });
});
