/**
 * The best train mean compares like with like: only submissions with at least the run's
 * comparable episode count take part, so a lucky two-episode submit cannot outrank one measured
 * on thirty-two. `run.status` states the count (`bestMinEpisodes`) and every view that names a
 * best train mean calls `bestTrainSubmission` with it.
 */
import { bestSubmission, failuresOf } from './bestSubmission';

/** The most a run asks of a submission before its train mean counts as evidence. */
export const COMPARABLE_EPISODES = 8;

/**
 * Episodes a submission needs before its train mean competes for "best": `COMPARABLE_EPISODES`,
 * or less when the run allows no submission that large.
 */
export function comparableEpisodes(run: { minEpisodesPerSubmit: number; maxEpisodesPerSubmit: number; budget: number }): number {
  return Math.max(1, run.minEpisodesPerSubmit, Math.min(COMPARABLE_EPISODES, run.maxEpisodesPerSubmit, run.budget));
}

/** The best train submission among those with at least `minEpisodes` episodes (by the one ranking rule). */
export function bestTrainSubmission<T extends { submission: number; mean: number; count: number; okCount: number }>(history: readonly T[], minEpisodes: number): T | null {
  return bestSubmission(history, (h) => (h.count >= minEpisodes ? h.mean : null), failuresOf);
}

/** The best train submission a `run.status` names, by its own minimum (1 from a runner that states none). */
export function statusBest<T extends { submission: number; mean: number; count: number; okCount: number }>(status: { history: readonly T[]; bestMinEpisodes?: number }): T | null {
  return bestTrainSubmission(status.history, status.bestMinEpisodes ?? 1);
}

/** "best train mean (submissions of ≥ 8 episodes)": how every view names the number. */
export function bestTrainLabel(status: { bestMinEpisodes?: number }): string {
  const n = status.bestMinEpisodes ?? 1;
  return n > 1 ? `best train mean (submissions of ≥ ${n} episodes)` : 'best train mean';
}
