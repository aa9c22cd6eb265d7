/**
 * The arena scenes of the screenshot script (screenshots.ts): the arena panel on a small run,
 * a capture-the-flag match at its first tag, the same match side by side with another
 * submission's game on the same seed, and a finished Connect Four game. Each shows what
 * arenaPanel.test.ts / arenaReplay.test.ts assert.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arenaReplayMessage } from '../../src/extension/panels/arenaReplay';
import type { HostToWebview, PanelKind, ReplayLoad } from '../../src/protocol/webview';
import { arenaRunFixture, writeArenaRun } from './arenaFixtures';
import type { PanelPage } from './harness';

type Scene = [string, PanelKind, HostToWebview[], ((p: PanelPage) => Promise<void>)?];

export async function arenaScenes(seek: (t: number) => (p: PanelPage) => Promise<void>): Promise<Scene[]> {
  const run = arenaRunFixture(6);
  const ctf = mkdtempSync(join(tmpdir(), 'pf-shot-ctf-'));
  const c4 = mkdtempSync(join(tmpdir(), 'pf-shot-c4-'));
  try {
    writeArenaRun(ctf, 'CaptureTheFlag-v0', [
      { submission: 1, plays: 'defensive', games: [{ opponent: 'aggressive', seed: 7 }] },
      { submission: 2, plays: 'planner', games: [{ opponent: 'aggressive', seed: 7 }] },
    ]);
    writeArenaRun(c4, 'ConnectFour-v0', [{ submission: 1, plays: 'minimax', games: [{ opponent: 'aggressive', seed: 3 }] }]);
    const one = (await arenaReplayMessage(ctf, { submission: 1, caseIndex: 0 })) as ReplayLoad;
    const both = await arenaReplayMessage(ctf, { submission: 1, caseIndex: 0, compareWith: 2 });
    const tag = one.sides[0]?.trajectory?.steps.findIndex((s) => (s.info?.['events'] as { kind: string }[] | undefined)?.some((e) => e.kind === 'tag')) ?? 0;
    return [
      ['arena', 'arena', [{ type: 'arena.snapshot', envId: 'CaptureTheFlag-v0', submissions: run.submissions, pool: run.pool, ratings: run.ratings, report: null, problems: [] }]],
      ['replay-ctf', 'replay', [one], seek(tag + 1)],
      ['replay-ctf-compare', 'replay', [both], seek(220)],
      ['replay-connectfour', 'replay', [await arenaReplayMessage(c4, { submission: 1, caseIndex: 0 })]],
    ];
  } finally {
    rmSync(ctf, { recursive: true, force: true });
    rmSync(c4, { recursive: true, force: true });
  }
}
