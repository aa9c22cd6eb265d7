/** Return statistics over episodes, as written into summaries and reports. */
import type { EpisodeStatus } from '../protocol/episodes';
import type { ReturnStats } from '../protocol/feedback';

export function returnStats(episodes: readonly { return: number; status: EpisodeStatus }[]): ReturnStats {
  const n = episodes.length;
  const values = episodes.map((e) => e.return);
  const mean = n ? values.reduce((a, b) => a + b, 0) / n : 0;
  const variance = n > 1 ? values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1) : 0;
  const std = Math.sqrt(variance);
  return {
    mean,
    std,
    stderr: n ? std / Math.sqrt(n) : 0,
    min: n ? Math.min(...values) : 0,
    max: n ? Math.max(...values) : 0,
    okCount: episodes.filter((e) => e.status === 'ok').length,
    count: n,
  };
}

export function statusCounts(episodes: readonly { status: EpisodeStatus }[]): Partial<Record<EpisodeStatus, number>> {
  const out: Partial<Record<EpisodeStatus, number>> = {};
  for (const e of episodes) out[e.status] = (out[e.status] ?? 0) + 1;
  return out;
}
