/**
 * Arena throughput, CaptureTheFlag-v0 2v2 games per second, one core:
 * - in process (`playMatch`): planner against aggressive (the costliest built-in pairing), next to
 *   random against random, which costs only the game rules;
 * - through the sandbox, as an arena run plays them: the workspace's starter policy (it rushes the
 *   flag, as the built-in aggressive team does) in a policy realm of one worker, against the
 *   built-in aggressive team on the worker's trusted side, next to aggressive against aggressive in
 *   process in the same run;
 * - a champion through the sandbox: the starter against its own bundle playing the other side as
 *   a champion (in a policy realm of its own, as a promoted submission plays), next to the starter
 *   against the built-in aggressive team in the same run.
 * Trajectories are off in all (a run records them for training games).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRegistry } from '../src/envs';
import { captureTheFlagGame } from '../src/envs/arena';
import { playMatch } from '../src/envs/core/multiAgent';
import { initWorkspace } from '../src/runner/workspace';
import { buildBundle, SandboxPool, type PolicyBundle } from '../src/sandbox';
import { opsPerSecond, type BenchModule } from './harness';

function gamesLoop(blue: string, red: string): (n: number) => number {
  const game = captureTheFlagGame();
  let seed = 0;
  return (n) => {
    for (let i = 0; i < n; i++) {
      seed++;
      playMatch(game.create(), { blue: game.opponent(blue, seed), red: game.opponent(red, seed + 1) }, seed, game.maxSteps);
    }
    return n;
  };
}

/** Roster index of the built-in aggressive team (src/envs/arena/roster.ts). */
const AGGRESSIVE = 2;

/** Roster index meaning "a champion's bundle plays the other side". */
const CHAMPION = -1;

async function sandboxGamesPerSecond(pool: SandboxPool, bundle: PolicyBundle, games: number, champion?: PolicyBundle): Promise<number> {
  let seed = 1000;
  const batch = (n: number, side: string) =>
    pool.runBatch({
      bundle,
      ...(champion ? { opponent: champion } : {}),
      envId: 'CaptureTheFlag-v0',
      params: { side, opponent: champion ? CHAMPION : AGGRESSIVE },
      episodes: Array.from({ length: n }, (_, i) => ({ caseIndex: i, envSeed: seed++, policySeed: seed++ })),
      limits: { maxTrajectorySteps: 0 },
    });
  await batch(2, 'blue'); // warm-up: the worker starts, the realm and the code get hot
  const t0 = performance.now();
  const records = [...(await batch(games / 2, 'blue')), ...(await batch(games / 2, 'red'))];
  const seconds = (performance.now() - t0) / 1000;
  const bad = records.find((r) => r.status !== 'ok');
  if (bad) throw new Error(`a benchmark game failed: ${bad.status} ${bad.error?.message ?? ''}`);
  return records.length / seconds;
}

export const arenaBench: BenchModule = {
  name: 'arena (CaptureTheFlag-v0 2v2, built-in teams, games/s, one core)',
  async run(table) {
    const rules = opsPerSecond(gamesLoop('random', 'random'), 1, 1500);
    const planned = opsPerSecond(gamesLoop('planner', 'aggressive'), 1, 1500);
    table.throughput('CaptureTheFlag-v0 2v2 planner vs aggressive', planned, 'games/s', 'random vs random (same run)', rules);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-bench-arena-'));
    const pool = new SandboxPool({ workers: 1 });
    try {
      const init = initWorkspace(dir, { envId: 'CaptureTheFlag-v0' }, createRegistry());
      if (!init.ok) throw new Error(init.error);
      const built = await buildBundle(dir, { typeCheck: false });
      if (!built.ok) throw new Error(`the CTF starter does not build: ${built.diagnostics.map((d) => d.message).join('; ')}`);
      const sandboxed = await sandboxGamesPerSecond(pool, built.bundle, 40);
      const inProcess = opsPerSecond(gamesLoop('aggressive', 'aggressive'), 1, 1500);
      table.throughput('CaptureTheFlag-v0 2v2 in the sandbox (starter vs aggressive)', sandboxed, 'games/s', 'aggressive vs aggressive in process (same run)', inProcess);
      // The champion is the same code under another bundle id, so it is loaded as a bundle of its own.
      const champion: PolicyBundle = { ...built.bundle, id: `${built.bundle.id}-champion` };
      const vsChampion = await sandboxGamesPerSecond(pool, built.bundle, 40, champion);
      const vsBuiltIn = await sandboxGamesPerSecond(pool, built.bundle, 40);
      table.throughput('CaptureTheFlag-v0 2v2 in the sandbox (starter vs a champion)', vsChampion, 'games/s', 'starter vs aggressive (same run)', vsBuiltIn);
    } finally {
      await pool.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
