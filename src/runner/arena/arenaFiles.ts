/**
 * An arena run's files: each submission's feedback folder published as one durable unit
 * (`feedback/submit-NNNN/{summary.json, games/game-NNNNN.jsonl}` written in a temp dir, every file
 * and folder fsynced, renamed into place, `feedback/` fsynced: the charge is journaled only
 * after), `feedback/latest.json`, and the pool and ratings documents (`feedback/arena/`).
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ARENA_POOL_FORMAT, ARENA_RATINGS_FORMAT, parseArenaSummary, type ArenaPoolFile, type ArenaRatingsFile, type ArenaSubmissionSummary } from '../../protocol/arena';
import { fsyncDir, replaceJson, writeFileDurable, writeJsonAtomic } from '../atomicFs';
import { submissionName, type WorkspacePaths } from '../paths';
import type { ArenaState } from './arenaState';

export function gameFileName(game: number): string {
  return `game-${String(game).padStart(5, '0')}.jsonl`;
}

/** Workspace-relative path of a submission's match trajectory. */
export function gamePath(submission: number, game: number): string {
  return `feedback/${submissionName(submission)}/games/${gameFileName(game)}`;
}

export function arenaDir(paths: WorkspacePaths): string {
  return path.join(paths.feedback, 'arena');
}

/** Publishes a submission's feedback durably; returns once it is renamed into place. */
export function publishFeedback(paths: WorkspacePaths, summary: ArenaSubmissionSummary, matches: ReadonlyMap<number, string[]>): void {
  fs.mkdirSync(paths.feedback, { recursive: true });
  const tmp = path.join(paths.feedback, `.tmp-${submissionName(summary.submission)}-${randomBytes(4).toString('hex')}`);
  const games = path.join(tmp, 'games');
  fs.mkdirSync(games, { recursive: true });
  try {
    for (const [game, lines] of matches) writeFileDurable(path.join(games, gameFileName(game)), `${lines.join('\n')}\n`);
    writeFileDurable(path.join(tmp, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
    fsyncDir(games);
    fsyncDir(tmp);
    const dst = paths.submissionDir(summary.submission);
    // A leftover of a rolled-back attempt with this number would block the rename.
    fs.rmSync(dst, { recursive: true, force: true });
    fs.renameSync(tmp, dst);
    fsyncDir(paths.feedback);
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

/** Removes what an uncharged submission left: its temp dirs and an unvouched published folder. */
export function removeFeedback(paths: WorkspacePaths, submission: number): void {
  const name = submissionName(submission);
  for (const f of fs.existsSync(paths.feedback) ? fs.readdirSync(paths.feedback) : []) {
    if (f.startsWith(`.tmp-${name}-`)) fs.rmSync(path.join(paths.feedback, f), { recursive: true, force: true });
  }
  fs.rmSync(paths.submissionDir(submission), { recursive: true, force: true });
}

export function readSummary(paths: WorkspacePaths, submission: number): ArenaSubmissionSummary | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(paths.submissionDir(submission), 'summary.json'), 'utf8');
  } catch {
    return undefined;
  }
  const r = parseArenaSummary(text);
  return r.ok ? r.value : undefined;
}

/** latest.json, pool.json and ratings.json: derived from the journal, so rewritten on every start. */
export function writeDerived(paths: WorkspacePaths, state: ArenaState, latest?: ArenaSubmissionSummary): void {
  if (latest) replaceJson(paths.latest, latest);
  const dir = arenaDir(paths);
  fs.mkdirSync(dir, { recursive: true });
  const pool: ArenaPoolFile = { format: ARENA_POOL_FORMAT, entries: state.poolInfo(), events: state.events };
  writeJsonAtomic(path.join(dir, 'pool.json'), pool);
  const ratings: ArenaRatingsFile = { format: ARENA_RATINGS_FORMAT, table: state.ratings.table(), history: state.ratings.history.map((p) => ({ ...p })) };
  writeJsonAtomic(path.join(dir, 'ratings.json'), ratings);
}
