/**
 * What an episode scores in every mean (train feedback, the best train mean, validation,
 * assessment): its return when it ran to its end, else its environment's failure return
 * (src/envs/core/failureReturn.ts). A failure never scores above the partial return it had
 * reached, so a bound declared for a task without one cannot turn a bad episode into a better
 * failure. Runner faults score the same way: no mean can gain from a fault, and the fault is
 * still reported (and not charged) as one.
 */
import type { EpisodeStatus } from '../protocol/episodes';
import type { ReturnStats } from '../protocol/feedback';
import { returnStats } from './returnStats';

interface Scorable {
  status: EpisodeStatus;
  return: number;
}

export function episodeScore(e: Scorable, failureReturn: number): number {
  if (e.status === 'ok') return e.return;
  return Number.isFinite(e.return) ? Math.min(failureReturn, e.return) : failureReturn;
}

/**
 * Episodes as every mean counts them: `return` is the score, and a failed episode keeps the sum
 * of rewards it had reached as `partialReturn`, for diagnosis.
 */
export function scoreEpisodes<T extends Scorable>(episodes: readonly T[], failureReturn: number): (T & { partialReturn?: number })[] {
  return episodes.map((e) => (e.status === 'ok' ? e : { ...e, return: episodeScore(e, failureReturn), partialReturn: e.return }));
}

/** Return statistics with failed episodes scored: the mean every surface reports. */
export function scoredReturnStats(episodes: readonly Scorable[], failureReturn: number): ReturnStats {
  return returnStats(scoreEpisodes(episodes, failureReturn));
}
