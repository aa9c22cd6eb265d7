/** The ids of the arena games, apart from their code so that config readers can ask cheaply. */
export const ARENA_ENV_IDS = ['ConnectFour-v0', 'CaptureTheFlag-v0'] as const;

export function isArenaGame(envId: string): boolean {
  return (ARENA_ENV_IDS as readonly string[]).includes(envId);
}
