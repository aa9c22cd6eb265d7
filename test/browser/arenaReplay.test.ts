/**
 * Arena matches in the replay panel: real games of the built-in opponents, written as an arena
 * run's match files and turned into `replay.load` by the host's own code (arenaReplayMessage).
 * A tag is drawn where the match file says it happened; the side-by-side comparison pairs a
 * match with another submission's game against the same opponent on the same seed; a Connect
 * Four game ends with its winning line.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arenaReplayMessage } from '../../src/extension/panels/arenaReplay';
import type { ReplayLoad } from '../../src/protocol/webview';
import { parseConnectFourSnapshot, winningLine } from '../../webview-ui/replay/renderers/connectFour';
import { ctfLayout, parseCtfSnapshot, TAG_MARK_RADIUS } from '../../webview-ui/replay/renderers/ctf';
import { writeArenaRun } from './arenaFixtures';
import type { PanelPage } from './harness';
import { cspViolations, panelSuite } from './suite';
import { THEME_VARS } from './themes';

async function seek(p: PanelPage, t: number): Promise<void> {
  await p.page.locator('input[data-role="scrubber"]').fill(String(t));
  await p.page.click('h1');
}
const described = async (p: PanelPage, i = 0): Promise<string> => (await p.page.locator('section.scene p.sr-only').nth(i).textContent()) ?? '';

/** How many of `points` (canvas pixels) have exactly `rgb`. */
async function pixelsOf(p: PanelPage, points: [number, number][], rgb: [number, number, number], i = 0): Promise<number> {
  return p.page.locator('canvas.scene-canvas').nth(i).evaluate((c, a) => {
    const ctx = (c as HTMLCanvasElement).getContext('2d')!;
    return a.points.filter(([x, y]) => {
      const d = ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data;
      return Math.abs(d[0]! - a.rgb[0]) <= 2 && Math.abs(d[1]! - a.rgb[1]) <= 2 && Math.abs(d[2]! - a.rgb[2]) <= 2;
    }).length;
  }, { points, rgb });
}

const hexRgb = (h: string): [number, number, number] => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];

describe('arena match replay in Chromium', function () {
  this.timeout(120_000);
  const { panel } = panelSuite();
  let ctfDir = '';
  let c4Dir = '';

  before(() => {
    ctfDir = mkdtempSync(join(tmpdir(), 'pf-arena-ctf-'));
    writeArenaRun(ctfDir, 'CaptureTheFlag-v0', [
      { submission: 1, plays: 'defensive', games: [{ opponent: 'aggressive', seed: 7 }] },
      { submission: 2, plays: 'planner', games: [{ opponent: 'aggressive', seed: 7 }, { opponent: 'defensive', seed: 8 }] },
      { submission: 3, plays: 'random', games: [{ opponent: 'aggressive', seed: 9 }] },
    ]);
    c4Dir = mkdtempSync(join(tmpdir(), 'pf-arena-c4-'));
    writeArenaRun(c4Dir, 'ConnectFour-v0', [
      { submission: 1, plays: 'minimax', games: [{ opponent: 'aggressive', seed: 3 }] },
      { submission: 2, plays: 'random', games: [{ opponent: 'aggressive', seed: 3 }] },
    ]);
  });
  after(() => {
    for (const d of [ctfDir, c4Dir]) if (d) rmSync(d, { recursive: true, force: true });
  });

  it('capture the flag: a tag is drawn where the match file says it happened', async () => {
    const load = await arenaReplayMessage(ctfDir, { submission: 1, caseIndex: 0 }) as ReplayLoad;
    assert.equal(load.type, 'replay.load', JSON.stringify(load).slice(0, 300));
    assert.equal(load.family, 'arena/ctf');
    assert.deepEqual(load.comparable, [2], 'only #2 played aggressive on seed 7');
    const traj = load.sides[0]!.trajectory!;
    const i = traj.steps.findIndex((s) => (s.info?.['events'] as { kind: string }[] | undefined)?.some((e) => e.kind === 'tag'));
    assert.ok(i > 0, 'the fixture match has a tag');
    const frame = i + 1;
    const snap = parseCtfSnapshot(traj.steps[i]!.snapshot)!;
    const tag = snap.events.find((e) => e.kind === 'tag')!;
    const victim = snap.agents.find((a) => a.id === tag.other)!;

    const p = await panel('replay');
    await p.send(load);
    await p.rendered(1);
    assert.equal(await p.page.textContent('.step-label'), `0 / ${traj.steps.length}`);
    assert.match((await p.page.textContent('.subtitle')) ?? '', /against aggressive · seed 7 · #1 \(game 0, blue, [WDL]\)/);
    const size = await p.page.$eval('canvas.scene-canvas', (c) => [(c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height]);
    const L = ctfLayout(size[0]!, size[1]!, snap.field);
    const [cx, cy] = L.toCanvas(victim.x, victim.y);
    // A ring inside the mark, clear of the hollow arrow drawn on top of it.
    const rr = Math.max(7, TAG_MARK_RADIUS * L.scale) * 0.75;
    const ring: [number, number][] = Array.from({ length: 12 }, (_, k) => [cx + rr * Math.cos((k * Math.PI) / 6), cy + rr * Math.sin((k * Math.PI) / 6)]);
    const yellow = hexRgb(THEME_VARS.light['--vscode-charts-yellow']!);

    await seek(p, frame - 1);
    const before = await pixelsOf(p, ring, yellow);
    await seek(p, frame);
    assert.match(await described(p), new RegExp(`${tag.agent} tagged ${tag.other} at \\(${victim.x.toFixed(1)}, ${victim.y.toFixed(1)}\\)`));
    const at = await pixelsOf(p, ring, yellow);
    assert.ok(at >= 6, `the tag mark covers the tagged agent's spot at frame ${frame}: ${at} of 12 points`);
    assert.ok(before <= 2, `no mark there the frame before: ${before} of 12 points`);
    assert.deepEqual(cspViolations(p), []);
  });

  it('capture the flag: compares side by side with another submission on the same opponent and seed', async () => {
    const load = await arenaReplayMessage(ctfDir, { submission: 1, caseIndex: 0, compareWith: 2 }) as ReplayLoad;
    assert.equal(load.sides.length, 2);
    assert.deepEqual(load.match?.games.map((g) => g.game), [0, 1], '#2’s game 1 is its seed-7 game against aggressive');
    const p = await panel('replay');
    await p.send(load);
    await p.rendered(1);
    assert.equal(await p.page.locator('section.scene').count(), 2);
    assert.match((await p.page.textContent('.subtitle')) ?? '', /seed 7 · #1 \(game 0, blue, [WDL]\) vs #2 \(game 1, blue, [WDL]\)/);
    // Same seed, same seat: the matches start from the same field, then the policies part ways.
    const pixels = (i: number): Promise<string> => p.page.locator('canvas.scene-canvas').nth(i).evaluate((c) => (c as HTMLCanvasElement).toDataURL());
    assert.equal(await pixels(0), await pixels(1), 'frame 0 is the same state on both sides');
    await seek(p, 200);
    assert.notEqual(await pixels(0), await pixels(1), 'by frame 200 the two submissions play differently');
    const options = await p.page.$$eval('vscode-single-select[data-role="compare"] vscode-option', (os) => os.map((o) => o.textContent));
    assert.deepEqual(options, ['No comparison', 'Submission #2']);
    // A match nobody else played on its seed says so instead of offering an empty list.
    const lone = await arenaReplayMessage(ctfDir, { submission: 3, caseIndex: 3 }) as ReplayLoad;
    const q = await panel('replay');
    await q.send(lone);
    await q.rendered(1);
    assert.equal(await q.page.textContent('[data-role="compare-none"]'), 'No other submission played aggressive on seed 9');
  });

  it('Connect Four: discs in move order and the winning line', async () => {
    const load = await arenaReplayMessage(c4Dir, { submission: 1, caseIndex: 0 }) as ReplayLoad;
    assert.equal(load.family, 'arena/connect-four');
    assert.deepEqual(load.comparable, [2]);
    const steps = load.sides[0]!.trajectory!.steps;
    const final = parseConnectFourSnapshot(steps.at(-1)!.snapshot)!;
    assert.equal(final.winner, 'red', 'minimax (red) beats aggressive in the fixture');
    const line = winningLine(final, 1)!;
    const p = await panel('replay');
    await p.send(load);
    await p.rendered(1);
    await p.page.keyboard.press('End');
    await p.page.click('h1');
    const text = await described(p);
    assert.match(text, /Red wins with four in a row/);
    assert.ok(text.includes(`winning line ${line.map(([r, c]) => `(${r},${c})`).join(' ')}`), text);
    assert.match(await described(p), new RegExp(`${steps.length} discs; last move in column ${final.lastMove}`));
    // The step table names each move by the side that made it.
    const first = await p.page.textContent('section[aria-label="Steps"] tbody tr:first-child td:nth-child(4)');
    assert.equal(first, `red: ${(steps[0]!.action as { red: number }).red}`);
    assert.deepEqual(cspViolations(p), []);
  });
});
