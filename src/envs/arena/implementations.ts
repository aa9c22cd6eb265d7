/**
 * The games, their opponents and side views: what the definitions (definitions.ts), the rosters
 * (roster.ts) and `arenaGame` (index.ts) require on first use, so a process that never plays an
 * arena game never runs this code.
 */
export { ConnectFourEnv } from './connectFour/env';
export { connectFourOpponent } from './connectFour/opponents';
export { CaptureTheFlagEnv } from './ctf/env';
export { ctfOpponent } from './ctf/opponents';
export { ConnectFourSideEnv, CtfSideEnv } from './gameSideEnvs';
