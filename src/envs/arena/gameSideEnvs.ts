/**
 * The registered arena games as side views (sideEnv.ts): each game with the roster's opponent
 * for the other side, its step limit and its match recorder. Made by the definitions
 * (definitions.ts) on the first create, through implementations.ts.
 */
import { CaptureTheFlagEnv } from './ctf/env';
import type { CtfConfig } from './ctf/rules';
import { ConnectFourEnv } from './connectFour/env';
import { connectFourMatchRecorder, ctfMatchRecorder } from './matchRecorder';
import { CHAMPION_OPPONENT, connectFourRoster, ctfRoster, type RosterEntry } from './roster';
import { ArenaSideEnv } from './sideEnv';

function opponentFactory(envId: string, roster: readonly RosterEntry[], index: number): (seed: number) => ReturnType<RosterEntry['make']> {
  if (index === CHAMPION_OPPONENT) {
    return () => {
      throw new Error(`${envId}: opponent -1 is a champion, which only a sandbox worker running the game can attach`);
    };
  }
  const entry = roster[index];
  if (!entry) throw new RangeError(`${envId}: no opponent ${index} (0..${roster.length - 1}, or -1 for a champion)`);
  return (seed) => entry.make(seed);
}

export class CtfSideEnv extends ArenaSideEnv {
  constructor(readonly config: CtfConfig, side: string, opponent: number) {
    super(new CaptureTheFlagEnv(config), side, opponentFactory('CaptureTheFlag-v0', ctfRoster(config), opponent));
  }
  stepLimit(): number {
    return this.config.maxSteps;
  }
  deltaRecorder(): ReturnType<typeof ctfMatchRecorder> {
    return ctfMatchRecorder(this.game as CaptureTheFlagEnv);
  }
}

export class ConnectFourSideEnv extends ArenaSideEnv {
  constructor(side: string, opponent: number) {
    super(new ConnectFourEnv(), side, opponentFactory('ConnectFour-v0', connectFourRoster(), opponent));
  }
  stepLimit(): number {
    // Each side drops at most half the board's 42 discs.
    return 21;
  }
  deltaRecorder(): ReturnType<typeof connectFourMatchRecorder> {
    return connectFourMatchRecorder(this.game as ConnectFourEnv);
  }
}
