/**
 * An arena run: submissions play the opponent pool under a budget counted in games.
 * Each submission gets a screen (3 games per opponent); one that passes gets a deep evaluation
 * (20 games spread by the weakness-pressure weights); one whose deep score beats the pool by the
 * promotion margin joins the pool as a champion. Ratings are updated after every game.
 */
import type { ArenaGame } from '../../envs/arena';
import { playMatch, type SidePolicy } from '../../envs/core/multiAgent';
import type { Seed } from '../../envs/core/rng';
import { ArenaPool, type PoolEntry } from './pool';
import { Ratings } from './ratings';

export interface ArenaOptions {
  budgetGames: number;
  screenGamesPerOpponent?: number;
  deepGames?: number;
  /** Screen points rate (win 1, draw 0.5) a submission needs to go on to the deep evaluation. */
  screenPass?: number;
  /** Promotion when the deep points rate is at least 0.5 + margin. */
  promotionMargin?: number;
  seed?: number;
}

export type Outcome = 'W' | 'D' | 'L';
export interface GameRecord {
  game: number;
  opponent: string;
  stage: 'screen' | 'deep' | 'assessment';
  seed: number;
  /** The side the submission played. */
  side: string;
  outcome: Outcome;
  score: { own: number; opponent: number };
  error?: string;
}

export interface OpponentFeedback { opponent: string; W: number; D: number; L: number; points: number; games: number; errors: string[]; replaySeeds: number[] }

export interface SubmissionFeedback {
  submission: string;
  stage: 'screen' | 'deep';
  reason: string;
  screen: OpponentFeedback[];
  deep: OpponentFeedback[];
  promoted: string | null;
  gamesCharged: number;
  budgetLeft: number;
  weights: Record<string, number>;
}

export class BudgetExhaustedError extends Error {
  override name = 'BudgetExhaustedError';
}

export class ArenaRun {
  readonly pool: ArenaPool;
  readonly ratings = new Ratings();
  readonly games: GameRecord[] = [];
  readonly feedback: SubmissionFeedback[] = [];
  private used = 0;
  private champions = 0;
  private readonly submissions = new Map<string, (seed: Seed) => SidePolicy>();
  private readonly opts: Required<ArenaOptions>;

  constructor(readonly game: ArenaGame, initialPool: readonly string[], options: ArenaOptions) {
    this.opts = { screenGamesPerOpponent: 3, deepGames: 20, screenPass: 0.5, promotionMargin: 0.25, seed: 0, ...options };
    this.pool = new ArenaPool();
    for (const name of initialPool) this.pool.add({ id: name, kind: 'built-in', make: (s) => game.opponent(name, s), joinedAtGame: 0 });
  }

  get gamesUsed(): number {
    return this.used;
  }
  get budgetLeft(): number {
    return this.opts.budgetGames - this.used;
  }

  /** Evaluates one submission: screen, then deep if it passes, then promotion if it beats the pool. */
  submit(name: string, make: (seed: Seed) => SidePolicy): SubmissionFeedback {
    if (this.submissions.has(name)) throw new Error(`submission ${name} was already evaluated`);
    const pool = [...this.pool.list()];
    const screenCost = pool.length * this.opts.screenGamesPerOpponent;
    if (screenCost > this.budgetLeft) throw new BudgetExhaustedError(`the screen needs ${screenCost} games and ${this.budgetLeft} are left`);
    this.submissions.set(name, make);
    const screen: GameRecord[] = [];
    for (const opp of pool) for (let i = 0; i < this.opts.screenGamesPerOpponent; i++) screen.push(this.play(name, make, opp, 'screen', true));
    const screenRate = pointsOf(screen) / screen.length;
    const before = this.used - screen.length;
    let stage: 'screen' | 'deep' = 'screen';
    let reason: string;
    const deep: GameRecord[] = [];
    let promoted: string | null = null;
    if (screenRate < this.opts.screenPass) {
      reason = `screen points rate ${fmt(screenRate)} is below the pass mark ${fmt(this.opts.screenPass)}: no deep evaluation`;
    } else if (this.budgetLeft < this.opts.deepGames) {
      reason = `passed the screen (${fmt(screenRate)}) but only ${this.budgetLeft} games are left for a ${this.opts.deepGames}-game deep evaluation`;
    } else {
      stage = 'deep';
      const plan = this.pool.allocate(this.opts.deepGames);
      for (const opp of this.pool.list()) for (let i = 0; i < (plan[opp.id] ?? 0); i++) deep.push(this.play(name, make, opp, 'deep', true));
      const deepRate = pointsOf(deep) / deep.length;
      const bar = 0.5 + this.opts.promotionMargin;
      if (deepRate >= bar) {
        promoted = `champion-${++this.champions}`;
        this.pool.add({ id: promoted, kind: 'champion', make, joinedAtGame: this.used });
        reason = `passed the screen (${fmt(screenRate)}); deep points rate ${fmt(deepRate)} ≥ ${fmt(bar)}: promoted into the pool as ${promoted}`;
      } else {
        reason = `passed the screen (${fmt(screenRate)}); deep points rate ${fmt(deepRate)} < ${fmt(bar)}: not promoted`;
      }
    }
    const fb: SubmissionFeedback = {
      submission: name, stage, reason, screen: perOpponent(screen), deep: perOpponent(deep), promoted,
      gamesCharged: this.used - before, budgetLeft: this.budgetLeft, weights: this.pool.weights(),
    };
    this.feedback.push(fb);
    return fb;
  }

  /**
   * After the run: the selected submission against opponents it never met, and against the final
   * pool. Not charged to the budget and not fed into the weights.
   */
  assess(name: string, hidden: readonly { id: string; make: (seed: Seed) => SidePolicy }[], gamesPerOpponent = 10): { hidden: { winRate: number; perOpponent: OpponentFeedback[] }; finalPool: { winRate: number; perOpponent: OpponentFeedback[] } } {
    const make = this.submissions.get(name);
    if (!make) throw new Error(`no submission ${name} in this run`);
    const run = (opps: readonly { id: string; make: (seed: Seed) => SidePolicy }[]) => {
      const recs: GameRecord[] = [];
      for (const o of opps) {
        if (o.id === name) continue;
        for (let i = 0; i < gamesPerOpponent; i++) recs.push(this.play(name, make, { ...o, kind: 'built-in', pinned: false, joinedAtGame: 0 }, 'assessment', false));
      }
      return { winRate: recs.filter((r) => r.outcome === 'W').length / Math.max(1, recs.length), perOpponent: perOpponent(recs) };
    };
    const finalPool = this.pool.list().filter((e) => e.make !== make);
    return { hidden: run(hidden), finalPool: run(finalPool) };
  }

  private play(name: string, make: (seed: Seed) => SidePolicy, opp: PoolEntry, stage: GameRecord['stage'], charged: boolean): GameRecord {
    const n = this.games.length;
    const seed = (this.opts.seed * 1_000_003 + n * 7919) >>> 0;
    const [a, b] = this.game.sides;
    const side = n % 2 === 0 ? a : b;
    const other = side === a ? b : a;
    let own = 0, theirs = 0, outcome: Outcome, error: string | undefined;
    try {
      const r = playMatch(this.game.create(), { [side]: make(seed), [other]: opp.make(seed + 1) }, seed, this.game.maxSteps);
      own = r.scores[side] ?? 0;
      theirs = r.scores[other] ?? 0;
      outcome = own > theirs ? 'W' : own === theirs ? 'D' : 'L';
    } catch (e) {
      // Either side failing loses that game; the message goes back in the feedback.
      error = e instanceof Error ? e.message : String(e);
      outcome = 'L';
    }
    const rec: GameRecord = { game: n, opponent: opp.id, stage, seed, side, outcome, score: { own, opponent: theirs }, ...(error ? { error } : {}) };
    this.games.push(rec);
    if (charged) {
      this.used++;
      this.pool.noteResult(opp.id, points(outcome));
      this.ratings.record(this.used, name, opp.id, outcome === 'W' ? 1 : outcome === 'D' ? 0.5 : 0);
    }
    return rec;
  }

  /** What `status` shows: the pool with kinds, pins and weights, the ratings, the budget. */
  status(): { budget: { used: number; total: number }; pool: { id: string; kind: string; pinned: boolean; weight: number; submissionsWinRate: number | null }[]; ratings: ReturnType<Ratings['table']> } {
    const w = this.pool.weights();
    return {
      budget: { used: this.used, total: this.opts.budgetGames },
      pool: this.pool.list().map((e) => ({ id: e.id, kind: e.kind, pinned: e.pinned, weight: w[e.id] ?? 1, submissionsWinRate: this.pool.winRate(e.id) })),
      ratings: this.ratings.table(),
    };
  }
}

const points = (o: Outcome): number => (o === 'W' ? 1 : o === 'D' ? 0.5 : 0);
const pointsOf = (rs: readonly GameRecord[]): number => rs.reduce((s, r) => s + points(r.outcome), 0);
const fmt = (x: number): string => x.toFixed(2);

function perOpponent(records: readonly GameRecord[]): OpponentFeedback[] {
  const by = new Map<string, OpponentFeedback>();
  for (const r of records) {
    const f = by.get(r.opponent) ?? { opponent: r.opponent, W: 0, D: 0, L: 0, points: 0, games: 0, errors: [], replaySeeds: [] };
    f[r.outcome]++;
    f.points += points(r.outcome);
    f.games++;
    if (r.error) f.errors.push(r.error);
    f.replaySeeds.push(r.seed);
    by.set(r.opponent, f);
  }
  return [...by.values()];
}
