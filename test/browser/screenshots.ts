/**
 * Screenshots of every panel in light and dark from recorded messages:
 *   npx tsx test/browser/screenshots.ts [outDir] [nameFilter]   (default test-results/webview)
 * Each scene shows what a browser test asserts: hover values, a MiniGrid run's 0..1 axes, the
 * replay's step table, action names, 7×7 view and a failed episode's error, live diagnostics.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { HostToWebview, PanelKind } from '../../src/protocol/webview';
import { ACTION } from '../../src/envs/minigrid/constants';
import { liveDiagnostics } from '../../src/extension/panels/liveDiagnostics';
import { makeReport, makeRun, makeTrajectory } from '../unit/webview/fixtures';
import { failedEpisode, miniGridReturns, recordMiniGridEpisode } from './fixtures';
import { drivingTrajectory } from '../unit/highway/replayFixture';
import { recordMujocoEpisode } from './mujocoFixtures';
import { box2dTrajectory } from '../unit/box2d/replayFixture';
import { launchChromium, openPanel, startWebviewServer, type PanelPage } from './harness';
import { arenaScenes } from './arenaScreenshots';
import type { ThemeName } from './themes';

async function main(): Promise<void> {
  const out = resolve(process.argv[2] ?? 'test-results/webview');
  mkdirSync(out, { recursive: true });
  const only = process.argv[3];
  const server = await startWebviewServer();
  const browser = await launchChromium();
  const subs = makeRun({ submissions: 24, episodes: 8, budget: 256, failRate: 0.08 });
  const report = makeReport(subs);
  const names = Object.entries(ACTION).sort((a, b) => a[1] - b[1]).map(([n]) => n);
  const grid = recordMiniGridEpisode();
  const failed = failedEpisode(grid, 9);
  const mg = miniGridReturns(subs);
  const seek = (t: number) => async (p: PanelPage): Promise<void> => {
    await p.page.locator('input[data-role="scrubber"]').fill(String(t));
    await p.page.click('h1');
  };
  const hover = (chart: string, fx = 0.6) => async (p: PanelPage): Promise<void> => {
    const over = p.page.locator(`section[aria-label="${chart}"] .u-over`);
    const box = await over.boundingBox();
    if (box) await over.hover({ position: { x: box.width * fx, y: box.height / 2 } });
  };
  const scenes: [string, PanelKind, HostToWebview[], ((p: PanelPage) => Promise<void>)?][] = [
    ['dashboard-live', 'dashboard', [{ type: 'dashboard.snapshot', envId: 'CartPole-v1', budget: subs.at(-5)?.budget ?? null, submissions: subs.slice(0, -4), report: null, activity: { submission: 21, done: 3, total: 8 } }]],
    ['dashboard-final', 'dashboard', [{ type: 'dashboard.snapshot', envId: 'CartPole-v1', budget: subs.at(-1)?.budget ?? null, submissions: subs, report, activity: null }], hover('Best-so-far train mean')],
    ['dashboard-minigrid', 'dashboard', [{ type: 'dashboard.snapshot', envId: 'MiniGrid-DoorKey-6x6-v0', budget: mg.at(-1)?.budget ?? null, submissions: mg, report: null, activity: null }], hover('Return distribution per submission', 0.4)],
    ['replay-cartpole', 'replay', [{ type: 'replay.load', envId: 'CartPole-v1', family: 'classic/cartpole', caseIndex: 3, returnScale: 300, actionNames: ['push left', 'push right'], sides: [{ submission: 12, episode: null, trajectory: makeTrajectory('classic/cartpole', 300) }] }]],
    ['replay-compare', 'replay', [{ type: 'replay.load', envId: 'CartPole-v1', family: 'classic/cartpole', caseIndex: 3, returnScale: 300, actionNames: ['push left', 'push right'], sides: [{ submission: 4, episode: null, trajectory: makeTrajectory('classic/cartpole', 120, 5) }, { submission: 12, episode: null, trajectory: makeTrajectory('classic/cartpole', 300) }] }]],
    ['replay-mountaincar', 'replay', [{ type: 'replay.load', envId: 'MountainCar-v0', family: 'classic/mountaincar', caseIndex: 1, sides: [{ submission: 2, episode: null, trajectory: makeTrajectory('classic/mountaincar', 200) }] }]],
    ['replay-pendulum', 'replay', [{ type: 'replay.load', envId: 'Pendulum-v1', family: 'classic/pendulum', caseIndex: 1, sides: [{ submission: 2, episode: null, trajectory: makeTrajectory('classic/pendulum', 200) }] }]],
    ['replay-acrobot', 'replay', [{ type: 'replay.load', envId: 'Acrobot-v1', family: 'classic/acrobot', caseIndex: 1, sides: [{ submission: 2, episode: null, trajectory: makeTrajectory('classic/acrobot', 200) }] }]],
    ['replay-minigrid', 'replay', [{ type: 'replay.load', envId: 'MiniGrid-DoorKey-6x6-v0', family: 'minigrid', caseIndex: 2, sides: [{ submission: 3, episode: null, trajectory: grid }], comparable: [], actionNames: names, returnScale: 1 }], seek(6)],
    ['replay-failed', 'replay', [{ type: 'replay.load', envId: 'MiniGrid-DoorKey-6x6-v0', family: 'minigrid', caseIndex: 2, sides: [{ submission: 3, episode: failed.episode, trajectory: failed.trajectory }], comparable: [1, 2], actionNames: names, returnScale: 1 }], seek(8)],
    ['replay-roundabout', 'replay', [{ type: 'replay.load', envId: 'roundabout-v0', family: 'highway', caseIndex: 0, sides: [{ submission: 1, episode: null, trajectory: drivingTrajectory('roundabout-v0', 3) }] }], seek(2)],
    ['replay-parking', 'replay', [{ type: 'replay.load', envId: 'parking-v0', family: 'highway/parking', caseIndex: 0, sides: [{ submission: 1, episode: null, trajectory: drivingTrajectory('parking-v0', 4) }] }], seek(4)],
    ['replay-halfcheetah', 'replay', [{ type: 'replay.load', envId: 'HalfCheetah-v5', family: 'mujoco', caseIndex: 0, sides: [{ submission: 1, episode: null, trajectory: await recordMujocoEpisode('HalfCheetah-v5', 0, 120) }] }], seek(60)],
    ['replay-fetchpush', 'replay', [{ type: 'replay.load', envId: 'FetchPush-v4', family: 'mujoco', caseIndex: 0, sides: [{ submission: 1, episode: null, trajectory: await recordMujocoEpisode('FetchPush-v4', 0, 50) }] }], seek(25)],
    ['replay-lunarlander', 'replay', [{ type: 'replay.load', envId: 'LunarLander-v3', family: 'box2d/lunarlander', caseIndex: 0, sides: [{ submission: 1, episode: null, trajectory: box2dTrajectory('LunarLander-v3', 3, 90) }] }], seek(60)],
    ['replay-bipedalwalker', 'replay', [{ type: 'replay.load', envId: 'BipedalWalker-v3', family: 'box2d/bipedalwalker', caseIndex: 0, sides: [{ submission: 1, episode: null, trajectory: box2dTrajectory('BipedalWalker-v3', 3, 90) }] }], seek(60)],
    ['replay-carracing', 'replay', [{ type: 'replay.load', envId: 'CarRacing-v3', family: 'box2d/carracing', caseIndex: 0, sides: [{ submission: 1, episode: null, trajectory: box2dTrajectory('CarRacing-v3', 3, 30) }] }], seek(20)],
    ['diagnostics', 'diagnostics', [{ type: 'diagnostics.snapshot', envId: 'CartPole-v1', submissions: subs, report }], hover('Structural vs parametric share over time', 0.55)],
    ['diagnostics-live', 'diagnostics', [{ type: 'diagnostics.snapshot', envId: 'CartPole-v1', submissions: subs.slice(0, 16), report: null, analysis: liveDiagnostics(subs.slice(0, 16)) }]],
  ];
  scenes.push(...(await arenaScenes(seek)));
  for (const theme of (process.env['PF_THEMES']?.split(',') ?? ['light', 'dark']) as ThemeName[]) {
    for (const [name, panel, messages, act] of scenes) {
      if (only !== undefined && !name.includes(only)) continue;
      const p = await openPanel(browser, server, panel, { theme, height: 1000 });
      for (const m of messages) await p.send(m);
      await p.rendered(1);
      // The whole page in the viewport first: a full-page capture that resizes it would re-lay the
      // charts out and drop a hover.
      const height = await p.page.evaluate(() => document.documentElement.scrollHeight);
      await p.page.setViewportSize({ width: 1280, height: Math.max(1000, height) });
      await p.page.waitForTimeout(100);
      if (act) await act(p);
      else if (panel === 'replay') await p.page.keyboard.press('End').catch(() => undefined);
      await p.page.waitForTimeout(300);
      await p.page.screenshot({ path: join(out, `${name}-${theme}.png`), fullPage: true });
      const problems = p.console.filter((l) => /^(error|pageerror)/.test(l));
      if (problems.length > 0) process.stdout.write(`${name}-${theme}: ${problems.join('\n  ')}\n`);
      await p.close();
    }
  }
  await browser.close();
  await server.close();
  process.stdout.write(`screenshots in ${out}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
