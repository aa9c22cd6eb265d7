/**
 * The replay's model: each side's trajectory in the plain form, and the replay's numbers: an
 * episode's return prints in the run's format (src/stats/scoreFormat.ts), the same text the run
 * tree and the dashboard give for that episode.
 */
import { expandTrajectory } from '../../src/protocol/episodes';
import type { EpisodeSummary } from '../../src/protocol/feedback';
import type { ReplayLoad, ReplaySide } from '../../src/protocol/webview';
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

/**
 * A side with its trajectory in the plain form: a file in a layout that stores changes (MiniGrid,
 * BipedalWalker, LunarLander: the world once, then what each step moved; `expandTrajectory` in
 * src/protocol/episodes.ts) has every frame rebuilt here.
 * A trajectory that does not fit its format becomes the side's problem, shown instead of a scene.
 */
export function plainSide(side: ReplaySide): ReplaySide {
  if (side.trajectory === null || side.trajectory.format === undefined) return side;
  try {
    return { ...side, trajectory: expandTrajectory(side.trajectory) };
  } catch (e) {
    return { ...side, trajectory: null, problem: `The trajectory could not be read: ${e instanceof Error ? e.message : String(e)}` };
  }
}
