/**
 * The state of an arena run as a fold of its journal (`.policyforge/arena.jsonl`): the pool with
 * its record of results, the ratings, the submissions and the games charged. Replaying the same
 * lines gives the same weights and ratings, so a restarted runner continues exactly.
 */
import type { ArenaGame, ArenaOptions, PoolEntryInfo, PoolEvent } from '../../protocol/arena';
import { ArenaPool } from './pool';
import { Ratings } from './ratings';

/** A charged game as the journal keeps it. */
export interface ChargedGame {
  game: number;
  opponent: string;
  outcome: ArenaGame['outcome'];
}

export type ArenaEvent =
  | { type: 'arena_submit_started'; submission: number; checkpoint: string }
  | { type: 'arena_charged'; submission: number; checkpoint: string; stage: 'screen' | 'deep'; screenPointsRate: number; deepPointsRate: number | null; games: ChargedGame[]; promoted: string | null }
  | { type: 'arena_rolled_back'; submission: number; reason: string }
  | { type: 'arena_rejected'; reason: string; message: string }
  | { type: 'arena_pin'; opponent: string; pinned: boolean }
  | { type: 'arena_drop'; opponent: string }
  | { type: 'arena_finish_started'; trigger: 'budget' | 'request' }
  | { type: 'arena_completed' };

export interface SubmissionBrief {
  submission: number;
  checkpoint: string;
  stage: 'screen' | 'deep';
  screenPointsRate: number;
  deepPointsRate: number | null;
  promoted: string | null;
  gamesCharged: number;
}

const notInProcess = (): never => {
  throw new Error('arena runs play their games in the sandbox');
};

export class ArenaState {
  readonly pool: ArenaPool;
  readonly ratings = new Ratings();
  readonly submissions: SubmissionBrief[] = [];
  readonly events: PoolEvent[] = [];
  /** Champion id → the submission and checkpoint it came from. */
  readonly champions = new Map<string, { submission: number; checkpoint: string }>();
  gamesUsed = 0;
  /** Submissions started and never charged or rolled back (a crash mid-submit). */
  readonly unfinished = new Map<number, string>();
  finish: { trigger: 'budget' | 'request' } | null = null;
  completed = false;
  private readonly gamesAgainst = new Map<string, number>();

  constructor(readonly builtIns: readonly string[], readonly options: ArenaOptions, readonly budget: number) {
    this.pool = new ArenaPool(options.maxPool);
    for (const id of builtIns) this.pool.add({ id, kind: 'built-in', make: notInProcess, joinedAtGame: 0 });
  }

  get nextSubmission(): number {
    return Math.max(0, ...this.submissions.map((s) => s.submission), ...this.unfinished.keys()) + 1;
  }

  apply(e: ArenaEvent): void {
    switch (e.type) {
      case 'arena_submit_started':
        this.unfinished.set(e.submission, e.checkpoint);
        return;
      case 'arena_rolled_back':
        this.unfinished.delete(e.submission);
        return;
      case 'arena_charged': {
        this.unfinished.delete(e.submission);
        for (const g of e.games) {
          this.gamesUsed++;
          this.gamesAgainst.set(g.opponent, (this.gamesAgainst.get(g.opponent) ?? 0) + 1);
          // A champion dropped since still has its games in the record; the pool ignores unknown ids in weights.
          this.pool.noteResult(g.opponent, g.outcome === 'W' ? 1 : g.outcome === 'D' ? 0.5 : 0);
          this.ratings.record(this.gamesUsed, submissionId(e.submission), g.opponent, g.outcome === 'W' ? 1 : g.outcome === 'D' ? 0.5 : 0);
        }
        this.submissions.push({ submission: e.submission, checkpoint: e.checkpoint, stage: e.stage, screenPointsRate: e.screenPointsRate, deepPointsRate: e.deepPointsRate, promoted: e.promoted, gamesCharged: e.games.length });
        if (e.promoted) {
          const before = this.pool.list().map((x) => x.id);
          this.pool.add({ id: e.promoted, kind: 'champion', make: notInProcess, joinedAtGame: this.gamesUsed });
          this.champions.set(e.promoted, { submission: e.submission, checkpoint: e.checkpoint });
          this.events.push({ kind: 'promoted', opponent: e.promoted, atGame: this.gamesUsed, submission: e.submission });
          const now = new Set(this.pool.list().map((x) => x.id));
          for (const id of before) if (!now.has(id)) this.events.push({ kind: 'retired', opponent: id, atGame: this.gamesUsed });
        }
        return;
      }
      case 'arena_pin':
        this.pool.pin(e.opponent, e.pinned);
        this.events.push({ kind: e.pinned ? 'pinned' : 'unpinned', opponent: e.opponent, atGame: this.gamesUsed });
        return;
      case 'arena_drop':
        this.pool.drop(e.opponent);
        this.events.push({ kind: 'dropped', opponent: e.opponent, atGame: this.gamesUsed });
        return;
      case 'arena_finish_started':
        this.finish = { trigger: e.trigger };
        return;
      case 'arena_completed':
        this.completed = true;
        return;
      case 'arena_rejected':
        return;
    }
  }

  /** The pool as documents show it. */
  poolInfo(): PoolEntryInfo[] {
    const w = this.pool.weights();
    return this.pool.list().map((e) => {
      const champ = this.champions.get(e.id);
      return {
        id: e.id,
        kind: e.kind,
        pinned: e.pinned,
        weight: w[e.id] ?? 1,
        winRate: this.pool.winRate(e.id),
        games: this.gamesAgainst.get(e.id) ?? 0,
        joinedAtGame: e.joinedAtGame,
        ...(champ ? { submission: champ.submission, checkpoint: champ.checkpoint } : {}),
      };
    });
  }
}

/** The id a submission has in the ratings. */
export function submissionId(n: number): string {
  return `submit-${String(n).padStart(4, '0')}`;
}
