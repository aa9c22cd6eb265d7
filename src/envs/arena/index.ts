/**
 * The arena games: multi-agent environments with their built-in opponents, graded weakest to
 * strongest. An arena run (src/runner/arena) plays submissions against these.
 */
import type { MultiAgentEnv, SidePolicy } from '../core/multiAgent';
import type { Seed } from '../core/rng';
import type { CtfConfig } from './ctf/rules';
import { arenaImplementations as impl } from './lazy';
import { CONNECT_FOUR_OPPONENTS, CTF_OPPONENTS, type ConnectFourOpponentName, type CtfOpponentName } from './opponentNames';

export interface ArenaGame {
  readonly id: string;
  /** The two sides, in seat order (the first moves first in turn-based games). */
  readonly sides: readonly [string, string];
  /** Hard cap on steps per game (the game's own time limit is usually shorter). */
  readonly maxSteps: number;
  create(): MultiAgentEnv;
  /** Built-in opponents, weakest first. */
  readonly opponents: readonly string[];
  opponent(name: string, seed: Seed): SidePolicy;
}

export const DEFAULT_CTF: CtfConfig = { teamSize: 2, length: 160, width: 80, maxSteps: 600, capturesToWin: 3 };

export function connectFourGame(): ArenaGame {
  return {
    id: 'ConnectFour-v0',
    sides: ['red', 'yellow'],
    maxSteps: 42,
    create: () => new (impl().ConnectFourEnv)(),
    opponents: CONNECT_FOUR_OPPONENTS,
    opponent: (name, seed) => {
      if (!CONNECT_FOUR_OPPONENTS.includes(name as ConnectFourOpponentName)) throw new Error(`ConnectFour-v0 has no built-in opponent "${name}" (${CONNECT_FOUR_OPPONENTS.join(', ')})`);
      return impl().connectFourOpponent(name as ConnectFourOpponentName, seed, 4);
    },
  };
}

export function captureTheFlagGame(params: Partial<CtfConfig> = {}): ArenaGame {
  const cfg: CtfConfig = { ...DEFAULT_CTF, ...params };
  if (!Number.isInteger(cfg.teamSize) || cfg.teamSize < 1 || cfg.teamSize > 5) throw new RangeError(`team size must be 1..5, got ${cfg.teamSize}`);
  if (!(cfg.length >= 40 && cfg.width >= 20)) throw new RangeError(`field must be at least 40×20 m, got ${cfg.length}×${cfg.width}`);
  return {
    id: 'CaptureTheFlag-v0',
    sides: ['blue', 'red'],
    maxSteps: cfg.maxSteps,
    create: () => new (impl().CaptureTheFlagEnv)(cfg),
    opponents: CTF_OPPONENTS,
    opponent: (name, seed) => {
      if (!CTF_OPPONENTS.includes(name as CtfOpponentName)) throw new Error(`CaptureTheFlag-v0 has no built-in opponent "${name}" (${CTF_OPPONENTS.join(', ')})`);
      return impl().ctfOpponent(name as CtfOpponentName, cfg, seed);
    },
  };
}

export function arenaGame(id: string, params: Record<string, unknown> = {}): ArenaGame {
  if (id === 'ConnectFour-v0') return connectFourGame();
  if (id === 'CaptureTheFlag-v0') return captureTheFlagGame(params as Partial<CtfConfig>);
  throw new Error(`unknown arena game "${id}" (ConnectFour-v0, CaptureTheFlag-v0)`);
}

export { ARENA_ENV_IDS as ARENA_GAME_IDS, isArenaGame } from './ids';
