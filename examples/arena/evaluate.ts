/**
 * Plays a side policy written against the Policy ABI (`export class Policy`) against every
 * built-in opponent of an arena game, in process, and prints its record per opponent. This is
 * the loop the lineages under examples/arena/ were evolved with:
 *
 *   npx tsx examples/arena/evaluate.ts CaptureTheFlag-v0 examples/arena/ctf/gen-3/policy.ts --games 40 --seed 7
 *
 * Sides alternate between games and every game has a fresh seed, so a record over N games says
 * how the policy does from both seats.
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { arenaGame, type ArenaGame } from '../../src/envs/arena';
import { playMatch, type PerAgent, type SideContext, type SidePolicy } from '../../src/envs/core/multiAgent';

/** What a side's `new Policy(ctx)` needs here: its agents, the game's parameters, a seed. */
export interface SidePolicyContext {
  readonly envId: string;
  readonly side: string;
  readonly ownAgents: readonly string[];
  readonly params: Readonly<Record<string, number | string | boolean>>;
  readonly seed: number;
}
export interface SidePolicyInstance {
  reset?(observation: PerAgent<unknown>, info: Record<string, unknown>): void;
  act(observation: PerAgent<unknown>, info: Record<string, unknown>): PerAgent<unknown>;
}
export type SidePolicyClass = new (ctx: SidePolicyContext) => SidePolicyInstance;

/** A Policy class as a side policy: a fresh instance per game, `reset` before its first move. */
export function sideFromClass(game: ArenaGame, Policy: SidePolicyClass, params: Record<string, number | string | boolean>, seed: number): SidePolicy {
  let instance: SidePolicyInstance | null = null;
  return (observations: PerAgent<unknown>, ctx: SideContext) => {
    if (!instance) {
      instance = new Policy({ envId: game.id, side: ctx.side, ownAgents: ctx.ownAgents, params, seed });
      instance.reset?.(observations, {});
    }
    return instance.act(observations, {});
  };
}

export interface OpponentRecord { opponent: string; W: number; D: number; L: number; games: number; winRate: number; own: number; against: number }

/** `games` games against each built-in opponent on seeds derived from `seed`, sides alternating. */
export function evaluateAgainstBuiltIns(gameId: string, Policy: SidePolicyClass, games: number, seed: number, params: Record<string, number | string | boolean> = {}, opponents?: readonly string[]): OpponentRecord[] {
  const game = arenaGame(gameId, params);
  const fullParams = gameId === 'CaptureTheFlag-v0' ? { teamSize: 2, length: 160, width: 80, maxSteps: 600, capturesToWin: 3, ...params } : { ...params };
  const out: OpponentRecord[] = [];
  for (const name of opponents ?? game.opponents) {
    const rec: OpponentRecord = { opponent: name, W: 0, D: 0, L: 0, games: 0, winRate: 0, own: 0, against: 0 };
    for (let i = 0; i < games; i++) {
      const s = (seed * 1_000_003 + i * 7919) >>> 0;
      const [a, b] = game.sides;
      const side = i % 2 === 0 ? a : b;
      const other = side === a ? b : a;
      const r = playMatch(game.create(), { [side]: sideFromClass(game, Policy, fullParams, s), [other]: game.opponent(name, s + 1) }, s, game.maxSteps);
      const own = r.scores[side] ?? 0, theirs = r.scores[other] ?? 0;
      rec[own > theirs ? 'W' : own === theirs ? 'D' : 'L']++;
      rec.own += own;
      rec.against += theirs;
      rec.games++;
    }
    rec.winRate = rec.W / rec.games;
    out.push(rec);
  }
  return out;
}

export function formatRecords(records: readonly OpponentRecord[]): string {
  const lines = ['| opponent | games | W | D | L | win rate | points rate | score for–against |', '|---|---|---|---|---|---|---|---|'];
  for (const r of records) lines.push(`| ${r.opponent} | ${r.games} | ${r.W} | ${r.D} | ${r.L} | ${(100 * r.winRate).toFixed(0)}% | ${(100 * (r.W + r.D / 2) / r.games).toFixed(0)}% | ${r.own}–${r.against} |`);
  return lines.join('\n');
}

async function main(argv: string[]): Promise<void> {
  const [gameId, file] = argv;
  if (!gameId || !file) throw new Error('usage: evaluate.ts GAME POLICY_FILE [--games N] [--seed S] [--param k=v]…');
  const flag = (name: string, dflt: number) => {
    const i = argv.indexOf(name);
    return i >= 0 ? Number(argv[i + 1]) : dflt;
  };
  const params: Record<string, number> = {};
  argv.forEach((a, i) => {
    if (a === '--param') {
      const [k, v] = String(argv[i + 1]).split('=');
      params[k as string] = Number(v);
    }
  });
  const mod = (await import(pathToFileURL(resolve(file)).href)) as { Policy: SidePolicyClass };
  const t0 = Date.now();
  const records = evaluateAgainstBuiltIns(gameId, mod.Policy, flag('--games', 20), flag('--seed', 1), params);
  console.log(formatRecords(records));
  console.log(`(${records.reduce((s, r) => s + r.games, 0)} games in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(__filename)) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  });
}
