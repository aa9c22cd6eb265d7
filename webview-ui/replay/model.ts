/**
 * The replay's numbers: an episode's return prints in the run's format (src/stats/scoreFormat.ts),
 * the same text the run tree and the dashboard give for that episode.
 */
import type { EpisodeSummary } from '../../src/protocol/feedback';
import type { ReplayLoad } from '../../src/protocol/webview';
import { runScoreFormat, scoreFormat, type ScoreFormat } from '../../src/stats/scoreFormat';

export function replayScoreFormat(load: Pick<ReplayLoad, 'returnScale' | 'sides'> | null): ScoreFormat {
  if (load?.returnScale !== undefined) return scoreFormat(load.returnScale);
  // A host that sends no scale: the episodes on screen are all there is to go by.
  return runScoreFormat((load?.sides ?? []).flatMap((s) => (s.episode ? [s.episode.return] : [])));
}

/** "return 13 in 13 steps": the episode's own summary when there is one, else what the trajectory recorded. */
export function episodeResult(episode: Pick<EpisodeSummary, 'return' | 'length'> | null, recorded: { return: number; steps: number }, fmt: ScoreFormat): string {
  const r = episode ?? { return: recorded.return, length: recorded.steps };
  return `return ${fmt.score(r.return)} in ${r.length} ${r.length === 1 ? 'step' : 'steps'}`;
}
