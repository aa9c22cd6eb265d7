/**
 * The arena games as registry entries, so `init`, `envs`, the generated `env.d.ts` and the
 * sandbox reach them like any environment. Registered, a game is its side view (sideEnv.ts):
 * `side` picks the seat the policy plays and `opponent` the roster index of the other side
 * (roster.ts; the runner sets both per game, -1 is a champion the sandbox attaches). A run on
 * one of these ids is an arena run (src/runner/arena).
 */
import type { EnvDefinition } from '../core/definition';
import type { ParamValues } from '../core/params';
import { observationSize, type CtfConfig } from './ctf/rules';
import { arenaImplementations as impl } from './lazy';
import { CHAMPION_OPPONENT, connectFourRoster, ctfRoster } from './roster';
import { ArenaSideEnv } from './sideEnv';
import { CONNECT_FOUR_GUIDE, CONNECT_FOUR_STARTER, CTF_GUIDE, ctfDeclarations, CTF_STARTER, SIDE_CONTEXT_DECLARATIONS } from './workspaceText';

// runnerOnly: the policy must not tell its opponents apart (least of all a hidden assessment
// one), so the sandbox withholds it from ctx.params (src/sandbox/arena/context.ts) and env.d.ts
// does not declare it.
const opponentParam = (count: number) => ({ type: 'integer', default: 0, min: CHAMPION_OPPONENT, max: count - 1, description: 'Which opponent plays the other side (set by the arena runner per game)', runnerOnly: true }) as const;

export function ctfConfigOf(p: ParamValues): CtfConfig {
  return { teamSize: p['teamSize'] as number, length: p['length'] as number, width: p['width'] as number, maxSteps: p['maxSteps'] as number, capturesToWin: p['capturesToWin'] as number };
}

export const captureTheFlagDefinition: EnvDefinition = {
  id: 'CaptureTheFlag-v0',
  family: 'arena/ctf',
  description: 'Arena game (two teams; `init` makes an arena run, budget in games): capture the flag on a continuous field, 2v2 by default.',
  params: {
    teamSize: { type: 'integer', default: 2, min: 1, max: 5, description: 'Agents per team' },
    length: { type: 'number', default: 160, min: 40, max: 1000, description: 'Field length in metres (the axis the halves split)' },
    width: { type: 'number', default: 80, min: 20, max: 1000, description: 'Field width in metres' },
    maxSteps: { type: 'integer', default: 600, min: 10, max: 10_000, description: 'Game length in steps of 0.25 s' },
    capturesToWin: { type: 'integer', default: 3, min: 1, max: 20, description: 'Captures that end the game early' },
    side: { type: 'enum', default: 'blue', values: ['blue', 'red'], description: 'The team this policy plays (the runner alternates it between games)' },
    opponent: opponentParam(ctfRoster({ teamSize: 1, length: 160, width: 80, maxSteps: 600, capturesToWin: 3 }).length),
  },
  maxEpisodeSteps: null,
  rewardRange: [-5, 5],
  // Every capture is the other team's: the game ends when they reach capturesToWin.
  failureReturn: (p) => -(p['capturesToWin'] as number),
  create: (p) => new (impl().CtfSideEnv)(ctfConfigOf(p), p['side'] as string, p['opponent'] as number),
  starterPolicy: CTF_STARTER,
  declarations: `${SIDE_CONTEXT_DECLARATIONS('"blue" | "red"')}\n${ctfDeclarations()}`,
  guide: CTF_GUIDE,
};

export const connectFourDefinition: EnvDefinition = {
  id: 'ConnectFour-v0',
  family: 'arena/connect-four',
  description: 'Arena game (two players; `init` makes an arena run, budget in games): Connect Four, turn-based, a move into a full column loses.',
  params: {
    side: { type: 'enum', default: 'red', values: ['red', 'yellow'], description: 'The player this policy is (red moves first; the runner alternates it between games)' },
    opponent: opponentParam(connectFourRoster().length),
  },
  maxEpisodeSteps: null,
  rewardRange: [-1, 1],
  failureReturn: -1,
  create: (p) => new (impl().ConnectFourSideEnv)(p['side'] as string, p['opponent'] as number),
  starterPolicy: CONNECT_FOUR_STARTER,
  declarations: SIDE_CONTEXT_DECLARATIONS('"red" | "yellow"'),
  guide: CONNECT_FOUR_GUIDE,
};

export const arenaEnvironments: readonly EnvDefinition[] = [connectFourDefinition, captureTheFlagDefinition];

/** What the sandbox adds to the policy's context on an arena game; undefined for any other environment. */
export function arenaPolicyContext(env: unknown): { side: string; ownAgents: readonly string[] } | undefined {
  return env instanceof ArenaSideEnv ? { side: env.side, ownAgents: [...env.ownAgents] } : undefined;
}

export { observationSize };
