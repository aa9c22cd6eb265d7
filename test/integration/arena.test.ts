/**
 * The arena panel and a match replay in a real VS Code: New Policy Workspace makes a Connect
 * Four arena run in a scratch folder, the `policyforge` CLI submits its starter policy (the real
 * runner plays the opponent pool in the sandbox and writes summaries, pool, ratings and match
 * files), and the extension's arena panel shows that run: its matrix row, the pool, the ratings.
 * A click on a matrix cell opens the match in the replay panel, which plays it to its end.
 *
 * The scratch run is not the window's run (run.test.ts owns that), so the panels are the
 * extension's SingletonPanels fed from that folder by the host's own readers (arenaSnapshot,
 * arenaReplayMessage), the way the registered arena panel and replay are fed.
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
import { policyForge } from './support/api';
import { click, driverAvailable, screenshot, waitFor, waitForText } from './support/ui';

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
