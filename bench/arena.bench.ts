/**
 * Arena throughput: CaptureTheFlag-v0 2v2 games per second with built-in teams on both sides
 * (planner against aggressive, the costliest pairing), next to random against random in the same
 * run, which costs only the game rules. Games run in-process through `playMatch`; the policy
 * sandbox is not in this path yet.
 */
import { captureTheFlagGame } from '../src/envs/arena';
import { playMatch } from '../src/envs/core/multiAgent';
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

export const arenaBench: BenchModule = {
  name: 'arena (CaptureTheFlag-v0 2v2, built-in teams, games/s, one core)',
  async run(table) {
    const rules = opsPerSecond(gamesLoop('random', 'random'), 1, 1500);
    const planned = opsPerSecond(gamesLoop('planner', 'aggressive'), 1, 1500);
    table.throughput('CaptureTheFlag-v0 2v2 planner vs aggressive', planned, 'games/s', 'random vs random (same run)', rules);
  },
};
