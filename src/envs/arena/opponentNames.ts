/**
 * The built-in opponents' names, weakest first, apart from their code: the registry's parameter
 * bounds and the run configuration read them without loading the games (implementations.ts).
 */
export type ConnectFourOpponentName = 'random' | 'defensive' | 'aggressive' | 'minimax';
export const CONNECT_FOUR_OPPONENTS: readonly ConnectFourOpponentName[] = ['random', 'defensive', 'aggressive', 'minimax'];

export type CtfOpponentName = 'random' | 'defensive' | 'aggressive' | 'planner';
export const CTF_OPPONENTS: readonly CtfOpponentName[] = ['random', 'defensive', 'aggressive', 'planner'];
