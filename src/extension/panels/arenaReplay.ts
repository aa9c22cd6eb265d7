/**
 * The replay panel's `replay.load` for an arena run, where a replay target's `caseIndex` is a
 * run-wide game number. A match compares side by side with another submission's game against the
 * same opponent on the same seed (`comparable` lists the submissions that have one). Plain Node.
 */
import type { ArenaGame, ArenaSubmissionSummary } from '../../protocol/arena';
import type { HostToWebview, ReplaySide, ReplayTarget } from '../../protocol/webview';
import { readArenaFiles, readMatch } from './arenaFiles';
import { matchFamily, matchToTrajectory } from './arenaMatch';

type Found = { summary: ArenaSubmissionSummary; game: ArenaGame };

function findGame(subs: readonly ArenaSubmissionSummary[], submission: number, game: number): Found | null {
  const summary = subs.find((s) => s.submission === submission);
  const g = summary?.games.find((x) => x.game === game);
  return summary && g ? { summary, game: g } : null;
}

/** Another submission's game against the same opponent on the same seed; the same seat first. */
export function pairedGame(subs: readonly ArenaSubmissionSummary[], base: ArenaGame, submission: number): ArenaGame | null {
  const s = subs.find((x) => x.submission === submission);
  const same = s?.games.filter((g) => g.opponent === base.opponent && g.seed === base.seed) ?? [];
  return same.find((g) => g.side === base.side) ?? same[0] ?? null;
}

/** Submissions other than `submission` with a game against the same opponent on the same seed. */
export function comparableSubmissions(subs: readonly ArenaSubmissionSummary[], base: ArenaGame, submission: number): number[] {
  return subs.filter((s) => s.submission !== submission && pairedGame(subs, base, s.submission) !== null).map((s) => s.submission);
}

export async function arenaReplayMessage(root: string, t: ReplayTarget): Promise<HostToWebview> {
  const files = await readArenaFiles(root);
  const base = findGame(files.submissions, t.submission, t.caseIndex);
  if (base === null) {
    return { type: 'host.error', message: `Submission #${t.submission} has no game ${t.caseIndex} on disk.` };
  }
  const others = t.compareWith !== undefined && t.compareWith !== t.submission ? pairedGame(files.submissions, base.game, t.compareWith) : null;
  const picks: { submission: number; game: ArenaGame }[] = [{ submission: t.submission, game: base.game }];
  if (others) picks.push({ submission: t.compareWith as number, game: others });
  let family = 'unknown';
  const sides: ReplaySide[] = await Promise.all(picks.map(async (p): Promise<ReplaySide> => {
    const r = await readMatch(root, p.submission, p.game);
    if ('problem' in r) return { submission: p.submission, episode: null, trajectory: null, problem: r.problem };
    family = matchFamily(r.match.header);
    try {
      return { submission: p.submission, episode: null, trajectory: matchToTrajectory(r.match) };
    } catch (e) {
      return { submission: p.submission, episode: null, trajectory: null, problem: `Game ${p.game.game}: ${e instanceof Error ? e.message : String(e)}` };
    }
  }));
  if (family === 'unknown') family = base.summary.envId === 'ConnectFour-v0' ? 'arena/connect-four' : 'arena/ctf';
  return {
    type: 'replay.load',
    envId: base.summary.envId,
    family,
    caseIndex: base.game.game,
    sides,
    comparable: comparableSubmissions(files.submissions, base.game, t.submission),
    returnScale: 1,
    match: { opponent: base.game.opponent, seed: base.game.seed, stage: base.game.stage, games: picks.map((p) => ({ game: p.game.game, side: p.game.side, outcome: p.game.outcome })) },
  };
}
