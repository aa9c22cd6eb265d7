/**
 * Reads an arena run's documents for the arena panel and the match replay: submission summaries,
 * the pool, the ratings, the report, and match trajectories, each through its parser in
 * src/protocol/arena.ts. Plain Node (no `vscode`); a bad file becomes a problem string for the
 * user, never an exception.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  parseArenaPool, parseArenaRatings, parseArenaReport, parseArenaSummary,
  type ArenaGame, type ArenaPoolFile, type ArenaRatingsFile, type ArenaRunReport, type ArenaSubmissionSummary,
} from '../../protocol/arena';
import { parseMatchTrajectory, type MatchTrajectory } from '../../protocol/arenaMatch';
import type { Checked } from '../../protocol/documents';
import { submissionDirName } from './runFiles';

export interface ArenaFiles {
  envId: string | null;
  submissions: ArenaSubmissionSummary[];
  pool: ArenaPoolFile | null;
  ratings: ArenaRatingsFile | null;
  report: ArenaRunReport | null;
  problems: string[];
}

const SUBMISSION_DIR = /^submit-(\d{4,})$/;

export const arenaPaths = {
  pool: (root: string) => path.join(root, 'feedback', 'arena', 'pool.json'),
  ratings: (root: string) => path.join(root, 'feedback', 'arena', 'ratings.json'),
  report: (root: string) => path.join(root, '.policyforge', 'report.json'),
  runJson: (root: string) => path.join(root, '.policyforge', 'run.json'),
  /** Where the runner writes a game's match when the summary names no file. */
  match: (root: string, submission: number, game: number) => path.join(root, 'feedback', submissionDirName(submission), 'games', `game-${String(game).padStart(5, '0')}.jsonl`),
};

/** Glob (relative to the run root) of every file the arena panel shows; the host watches it. */
export const ARENA_WATCH_GLOB = '{feedback/submit-*/summary.json,feedback/arena/*.json,.policyforge/report.json}';

/** True when the folder holds an arena run: its run.json has arena options, or the pool file exists. */
export async function isArenaRun(root: string): Promise<boolean> {
  const run = await readText(arenaPaths.runJson(root));
  if (run !== null) {
    try {
      const j = JSON.parse(run) as { arena?: unknown; kind?: unknown };
      if ((typeof j.arena === 'object' && j.arena !== null) || j.kind === 'arena') return true;
    } catch {
      // An unreadable run.json says nothing either way.
    }
  }
  return (await readText(arenaPaths.pool(root))) !== null;
}

export async function readArenaFiles(root: string): Promise<ArenaFiles> {
  const problems: string[] = [];
  const feedback = path.join(root, 'feedback');
  let names: string[] = [];
  try {
    names = (await fs.readdir(feedback)).filter((n) => SUBMISSION_DIR.test(n));
  } catch {
    // No feedback folder yet: no submissions.
  }
  const submissions: ArenaSubmissionSummary[] = [];
  for (const r of await Promise.all(names.map((n) => readDoc(path.join(feedback, n, 'summary.json'), parseArenaSummary)))) {
    if (typeof r === 'string') problems.push(r);
    else if (r !== null) submissions.push(r);
  }
  submissions.sort((a, b) => a.submission - b.submission);
  const [pool, ratings, report] = await Promise.all([readDoc(arenaPaths.pool(root), parseArenaPool), readDoc(arenaPaths.ratings(root), parseArenaRatings), readDoc(arenaPaths.report(root), parseArenaReport)]);
  for (const d of [pool, ratings, report]) if (typeof d === 'string') problems.push(d);
  const ok = <T>(d: T | string | null): T | null => (typeof d === 'string' ? null : d);
  return { envId: submissions[0]?.envId ?? ok(report)?.envId ?? null, submissions, pool: ok(pool), ratings: ok(ratings), report: ok(report), problems };
}

/** The match of one game, or why it cannot be shown. */
export async function readMatch(root: string, submission: number, game: ArenaGame): Promise<{ match: MatchTrajectory } | { problem: string }> {
  const file = game.trajectory !== undefined ? path.resolve(root, game.trajectory) : arenaPaths.match(root, submission, game.game);
  // The path comes from a summary: only files inside the run folder.
  if (path.relative(root, file).startsWith('..')) return { problem: `Game ${game.game}: its trajectory path leaves the run folder.` };
  const text = await readText(file);
  if (text === null) return { problem: `No match file for game ${game.game} of submission #${submission} (${path.relative(root, file)}).` };
  const parsed = parseMatchTrajectory(text);
  return parsed.ok ? { match: parsed.value } : { problem: `${path.relative(root, file)}: ${parsed.error}` };
}

async function readDoc<T>(file: string, parse: (text: string) => Checked<T>): Promise<T | string | null> {
  const text = await readText(file);
  if (text === null) return null;
  const r = parse(text);
  return r.ok ? r.value : `${file}: ${r.error}`;
}

async function readText(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return null;
  }
}
