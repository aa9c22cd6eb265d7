/** Return statistics over episodes: what summaries, reports and every view report as mean ± stderr. */
import type { EpisodeStatus } from '../protocol/episodes';
import type { ReturnStats } from '../protocol/feedback';

export function returnStats(episodes: readonly { return: number; status: EpisodeStatus }[]): ReturnStats {
  const n = episodes.length;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  let okCount = 0;
  for (const e of episodes) {
    sum += e.return;
    if (e.return < min) min = e.return;
    if (e.return > max) max = e.return;
    if (e.status === 'ok') okCount++;
  }
  const mean = n ? sum / n : 0;
  let squares = 0;
  for (const e of episodes) squares += (e.return - mean) ** 2;
  // Sample standard deviation (n − 1): the episodes are a sample of the case distribution.
  const std = n > 1 ? Math.sqrt(squares / (n - 1)) : 0;
  return { mean, std, stderr: n ? std / Math.sqrt(n) : 0, min: n ? min : 0, max: n ? max : 0, okCount, count: n };
}

export function statusCounts(episodes: readonly { status: EpisodeStatus }[]): Partial<Record<EpisodeStatus, number>> {
  const out: Partial<Record<EpisodeStatus, number>> = {};
  for (const e of episodes) out[e.status] = (out[e.status] ?? 0) + 1;
  return out;
}

/** Episodes that did not end `ok` (policy failures and runner faults alike). */
export function failedCount(counts: Partial<Record<EpisodeStatus, number>>): number {
  let n = 0;
  for (const [status, count] of Object.entries(counts)) if (status !== 'ok') n += count ?? 0;
  return n;
}

/** 95% normal interval of a mean. */
export function interval95(mean: number, stderr: number): [number, number] {
  return [mean - 1.96 * stderr, mean + 1.96 * stderr];
}
