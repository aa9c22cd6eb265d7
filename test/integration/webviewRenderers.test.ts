/**
 * The driving, Box2D and MuJoCo replay renderers in a real VS Code: for roundabout-v0, parking-v0,
 * LunarLander-v3, BipedalWalker-v3, CarRacing-v3, HalfCheetah-v5 and FetchPush-v4 the real runner plays one episode of the
 * starter policy (a run created by New Policy Workspace in a scratch folder, submitted with the
 * `policyforge` CLI), and the extension's replay panel shows its recorded trajectory. The test
 * then asks the webview itself for its scene canvas (the panel's PNG export, posted back through
 * the webview's message channel) and checks the pixels: the first and last frames are drawn
 * scenes, not a blank canvas or an error message, and they differ.
 *
 * The scratch runs are not the window's run (run.test.ts owns that), so the panel is the
 * extension's SingletonPanel fed from those folders the way the extension's own replay is fed
 * (readRunFiles/readTrajectory, the registry's family, the action names).
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { createRegistry } from '../../src/envs';
import { actionNamesOf } from '../../src/extension/panels/actionNames';
import type { PanelAction } from '../../src/extension/panels/panelActions';
import { readRunFiles, readTrajectory } from '../../src/extension/panels/runFiles';
import { SingletonPanel } from '../../src/extension/panels/singletonPanel';
import type { HostToWebview } from '../../src/protocol/webview';
import { policyForge } from './support/api';
import { stopRunnerOf } from './support/runners';
import { decodePng, type Rgba } from './support/png';
import { click, driverAvailable, screenshot, waitFor, waitForText } from './support/ui';

const run = promisify(execFile);
const inWebview = (selector: string): string => `iframe.webview.ready >> internal:control=enter-frame >> iframe#active-frame >> internal:control=enter-frame >> ${selector}`;

/** Each id and what its renderer says about a drawn state (its screen-reader description). */
const CASES: { envId: string; describes: RegExp }[] = [
  { envId: 'roundabout-v0', describes: /^ego at \(-?[\d.]+, -?[\d.]+\) m, [\d.]+ m\/s.*; \d+ other vehicles/ },
  { envId: 'parking-v0', describes: /^ego at .*; goal at \(-?[\d.]+, -?[\d.]+\) m$/ },
  { envId: 'LunarLander-v3', describes: /^lander near x=-?[\d.]+, y=-?[\d.]+; legs touching/ },
  { envId: 'BipedalWalker-v3', describes: /^walker hull at x=[\d.]+ m$/ },
  { envId: 'CarRacing-v3', describes: /^car on tile count \d+ of \d+ visited$/ },
  // The MuJoCo 3D view (three.js on WebGL): a walker and a robot arm.
  { envId: 'HalfCheetah-v5', describes: /^MuJoCo state with 9 joint positions/ },
  { envId: 'FetchPush-v4', describes: /^MuJoCo state with 22 joint positions/ },
];

/**
 * Trajectory steps kept per episode in these scratch runs (the `policyforge.trajectoryStepCap`
 * setting): enough for a replay, and CarRacing's 96×96×3 observations stay small on disk.
 */
const STEP_CAP = 150;
/**
 * CarRacing draws a frame per step: give its 1000 steps room on a busy machine, where a
 * garbage collection in the worker can hold one act() past the default second.
 */
const EPISODE_TIMEOUT_MS = 60_000;
const ACT_TIMEOUT_MS = 10_000;

interface Picture {
  /** Share of pixels that differ from the most common colour. */
  drawnShare: number;
  colours: number;
}

function picture(img: Rgba): Picture {
  const counts = new Map<number, number>();
  const n = img.width * img.height;
  for (let p = 0; p < n; p++) {
    const key = (img.data[p * 4]! << 16) | (img.data[p * 4 + 1]! << 8) | img.data[p * 4 + 2]!;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const top = Math.max(...counts.values());
  // Anti-aliased edges add colours of their own: count only those that fill a few pixels.
  const colours = [...counts.values()].filter((c) => c >= 20).length;
  return { drawnShare: 1 - top / n, colours };
}

function differingShare(a: Rgba, b: Rgba): number {
  assert.deepEqual([a.width, a.height], [b.width, b.height], 'both frames come from the same canvas');
  let diff = 0;
  for (let p = 0; p < a.width * a.height; p++) {
    if (a.data[p * 4] !== b.data[p * 4] || a.data[p * 4 + 1] !== b.data[p * 4 + 1] || a.data[p * 4 + 2] !== b.data[p * 4 + 2]) diff++;
  }
  return diff / (a.width * a.height);
}

describe('Box2D and driving replays drawn in VS Code', function () {
  this.timeout(240_000);
  const scratch: string[] = [];
  let cli: string;
  let extensionUri: vscode.Uri;

  before(async function () {
    // The pixels come back through a click on the webview's export button: that needs the driver.
    if (!driverAvailable) this.skip();
    await policyForge();
    const ext = vscode.extensions.getExtension('policyforge.policyforge');
    if (!ext) throw new Error('extension policyforge.policyforge is not loaded');
    extensionUri = ext.extensionUri;
    cli = path.join(ext.extensionPath, 'bin', 'policyforge.js');
    const config = vscode.workspace.getConfiguration('policyforge');
    await config.update('trajectoryStepCap', STEP_CAP, vscode.ConfigurationTarget.Global);
    await config.update('episodeTimeoutMs', EPISODE_TIMEOUT_MS, vscode.ConfigurationTarget.Global);
    await config.update('actTimeoutMs', ACT_TIMEOUT_MS, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    const config = vscode.workspace.getConfiguration('policyforge');
    for (const key of ['trajectoryStepCap', 'episodeTimeoutMs', 'actTimeoutMs']) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const d of scratch) {
      stopRunnerOf(d);
      fs.rmSync(d, { recursive: true, force: true });
    }
  });

  for (const { envId, describes } of CASES) {
    it(`${envId}: a real episode's replay draws its scenes`, async () => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-render-'));
      scratch.push(folder);
      const created = await vscode.commands.executeCommand('policyforge.newWorkspace', { folder, envId, budget: 4, params: {}, openAfter: false });
      assert.equal(created, folder);
      // The extension host's own Node runs the CLI (under Electron, as plain Node).
      await run(process.execPath, [cli, 'submit', '--episodes', '1', '--dir', folder, '--json'], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, timeout: 120_000, maxBuffer: 16 << 20 });

      const files = await readRunFiles(folder);
      const summary = files.summaries[0];
      assert.ok(summary, `submission #1 of ${envId} is on disk (${files.problems.join('; ')})`);
      const episode = summary.episodes[0];
      assert.ok(episode, 'one episode');
      assert.equal(episode.status, 'ok', `the starter's episode ran: ${JSON.stringify(episode.error ?? null)}`);
      const read = await readTrajectory(folder, summary, episode.caseIndex);
      assert.ok('trajectory' in read, `trajectory readable: ${'problem' in read ? read.problem : ''}`);
      const frames = Math.min(episode.length, STEP_CAP);
      assert.equal(read.trajectory.steps.length, frames);

      const family = createRegistry().get(envId).family;
      const load: HostToWebview = {
        type: 'replay.load', envId, family, caseIndex: episode.caseIndex, comparable: [], returnScale: 1, actionNames: actionNamesOf(envId, family),
        sides: [{ submission: summary.submission, episode, trajectory: read.trajectory }],
      };
      const exported: Buffer[] = [];
      const panel = new SingletonPanel({
        kind: 'replay', title: `Replay ${envId}`, extensionUri,
        log: { info: () => undefined, warn: (m) => console.warn(m), error: (m) => console.error(m) },
        snapshot: async () => [load],
        onAction: (a: PanelAction) => {
          if (a.type === 'export' && a.format === 'png' && a.encoding === 'base64') exported.push(Buffer.from(a.content, 'base64'));
        },
      });
      try {
        panel.show();
        await waitForText(inWebview('dd[data-field="step"]'), `0 of ${frames}`, 60_000);
        const exportFrame = async (): Promise<Rgba> => {
          const before = exported.length;
          await click(inWebview('section.scene vscode-button'), 'PNG');
          const png = await waitFor('the scene canvas exported as PNG', () => exported[before], 20_000);
          return decodePng(png);
        };
        const first = await exportFrame();
        const firstText = await waitForText(inWebview('section.scene p.sr-only'), 'step 0:');
        assert.match(firstText.replace(/^.*step 0: /, ''), describes, 'the renderer read the recorded state');

        await click(inWebview('vscode-button[data-role="last"]'));
        await waitForText(inWebview('dd[data-field="step"]'), `${frames} of ${frames}`);
        const last = await exportFrame();
        const lastText = await waitForText(inWebview('section.scene p.sr-only'), `step ${frames}:`);
        assert.match(lastText.replace(/^.*step \d+: /, ''), describes);
        await screenshot(`21-replay-${envId}`);

        for (const [name, img] of [['first', first], ['last', last]] as const) {
          const p = picture(img);
          assert.ok(img.width >= 200 && img.height >= 100, `${name} frame: a laid-out canvas (${img.width}×${img.height})`);
          assert.ok(p.drawnShare >= 0.02, `${name} frame of ${envId}: ${(p.drawnShare * 100).toFixed(2)} % of pixels off the dominant colour`);
          assert.ok(p.colours >= 4, `${name} frame of ${envId}: ${p.colours} colours`);
        }
        const moved = differingShare(first, last);
        assert.ok(moved >= 0.002, `${envId}: the last frame differs from the first in ${(moved * 100).toFixed(3)} % of pixels`);
      } finally {
        panel.dispose();
      }
    });
  }
});
