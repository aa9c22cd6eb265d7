export { CaptureTheFlagEnv, type CtfEvent } from './env';
export { CTF_OPPONENTS, ctfOpponent, type CtfOpponentName } from './opponents';
export { decode, observationSize, type CtfConfig, type CtfView } from './rules';
