/**
 * Every opponent an arena game can field, by index (the side environment's `opponent`
 * parameter): first the built-in opponents a run's pool starts with, weakest first, then the
 * hidden opponents only the assessment plays. Hidden ones are variants no run ever meets:
 * a policy cannot have been tuned against them.
 */
import type { SidePolicy } from '../core/multiAgent';
import type * as Implementations from './implementations';
import { Rng } from '../core/rng';
import type { CtfConfig } from './ctf/rules';
import { arenaImplementations } from './lazy';
import { CONNECT_FOUR_OPPONENTS, CTF_OPPONENTS } from './opponentNames';

// The opponents' code loads when the first one is made: listing a roster (the registry's bounds) needs only names.
const connectFourOpponent: typeof Implementations.connectFourOpponent = (...args) => arenaImplementations().connectFourOpponent(...args);
const ctfOpponent: typeof Implementations.ctfOpponent = (...args) => arenaImplementations().ctfOpponent(...args);

export interface RosterEntry {
  readonly id: string;
  readonly kind: 'built-in' | 'hidden';
  readonly description: string;
  make(seed: number): SidePolicy;
}

export function connectFourRoster(): RosterEntry[] {
  const builtIns: RosterEntry[] = CONNECT_FOUR_OPPONENTS.map((name) => ({
    id: name,
    kind: 'built-in',
    description: `built-in ${name} player`,
    make: (seed: number) => connectFourOpponent(name, seed, 4),
  }));
  return [
    ...builtIns,
    { id: 'hidden-minimax-2', kind: 'hidden', description: 'alpha-beta search to 2 plies (the run\'s minimax searches 4)', make: (seed) => connectFourOpponent('minimax', seed, 2) },
    { id: 'hidden-minimax-6', kind: 'hidden', description: 'alpha-beta search to 6 plies, deeper than any opponent of the run', make: (seed) => connectFourOpponent('minimax', seed, 6) },
  ];
}

export function ctfRoster(cfg: CtfConfig): RosterEntry[] {
  const builtIns: RosterEntry[] = CTF_OPPONENTS.map((name) => ({ id: name, kind: 'built-in', description: `built-in ${name} team`, make: (seed: number) => ctfOpponent(name, cfg, seed) }));
  return [
    ...builtIns,
    {
      id: 'hidden-split',
      kind: 'hidden',
      description: 'one defensive guard, every other agent attacks directly',
      make: (seed) => {
        const guard = ctfOpponent('defensive', cfg, seed);
        const attack = ctfOpponent('aggressive', cfg, seed + 1);
        return (obs, ctx) => {
          const [first, ...rest] = ctx.ownAgents;
          const out = { ...attack(obs, { ...ctx, ownAgents: rest }) };
          if (first !== undefined) Object.assign(out, guard(obs, { ...ctx, ownAgents: [first] }));
          return out;
        };
      },
    },
    {
      id: 'hidden-noisy-planner',
      kind: 'hidden',
      description: 'the planner team with a quarter of its actions replaced by random ones',
      make: (seed) => {
        const planner = ctfOpponent('planner', cfg, seed);
        const rng = new Rng(seed ^ 0x51ed);
        return (obs, ctx) => {
          const out = planner(obs, ctx);
          for (const a of ctx.ownAgents) if (rng.random() < 0.25) out[a] = Float64Array.of(rng.uniform(-1, 1), rng.uniform(-1, 1));
          return out;
        };
      },
    },
  ];
}

/** Index of the pseudo-opponent "champion": its policy is attached by whoever runs the game (a sandbox worker). */
export const CHAMPION_OPPONENT = -1;
