/**
 * The arena panel's numbers, from the run's documents (src/protocol/arena.ts): the win-rate
 * matrix of submissions × opponents (screen and deep games together), the colour of a win rate
 * on a diverging scale, the ratings over time as aligned series, and the pool with the opponents
 * that left it. Pure functions, no DOM.
 */
import type { ArenaGame, ArenaPoolFile, ArenaRatingsFile, ArenaSubmissionSummary, PoolEntryInfo, PoolEvent, RatingPoint } from '../../src/protocol/arena';

export interface Cell {
  W: number;
  D: number;
  L: number;
  games: number;
  /** Wins / games. */
  winRate: number;
  /** The first game to replay (a game with a match file first). */
  replay: ArenaGame | null;
}

export interface MatrixRow {
  submission: number;
  stage: 'screen' | 'deep';
  promoted: string | null;
  /** Wins / games over every opponent. */
  winRate: number;
  games: number;
  cells: Record<string, Cell>;
  /** Conservative rating (mu − 3 sigma), when the ratings name this submission. */
  rating: number | null;
}

export interface Matrix {
  /** Opponents in pool order (current pool first, then those that left it), then any others met. */
  opponents: string[];
  rows: MatrixRow[];
}

/** The ratings id of a submission, as the runner names it (`submission-3`, `#3`, `3`, `s3`). */
export function ratingIdOf(submission: number, ids: Iterable<string>): string | null {
  const forms = new Set([`submission-${submission}`, `submission ${submission}`, `submission#${submission}`, `#${submission}`, String(submission), `s${submission}`, `sub-${submission}`, `submit-${String(submission).padStart(4, '0')}`]);
  for (const id of ids) if (forms.has(id)) return id;
  return null;
}

export function buildMatrix(subs: readonly ArenaSubmissionSummary[], pool: ArenaPoolFile | null, ratings: ArenaRatingsFile | null): Matrix {
  const order: string[] = [...(pool?.entries.map((e) => e.id) ?? [])];
  for (const e of pool?.events ?? []) if (!order.includes(e.opponent)) order.push(e.opponent);
  const ratingIds = new Map(ratings?.table.map((r) => [r.id, r.ordinal]) ?? []);
  const rows: MatrixRow[] = subs.map((s) => {
    const cells: Record<string, Cell> = {};
    for (const stage of [s.screen, s.deep]) {
      for (const r of stage?.perOpponent ?? []) {
        const c = cells[r.opponent] ?? { W: 0, D: 0, L: 0, games: 0, winRate: 0, replay: null };
        c.W += r.W;
        c.D += r.D;
        c.L += r.L;
        c.games += r.games;
        cells[r.opponent] = c;
      }
    }
    for (const [opp, c] of Object.entries(cells)) {
      c.winRate = c.games > 0 ? c.W / c.games : 0;
      const games = s.games.filter((g) => g.opponent === opp && g.stage !== 'validation' && g.stage !== 'assessment');
      c.replay = games.find((g) => g.trajectory !== undefined) ?? games[0] ?? null;
      if (!order.includes(opp)) order.push(opp);
    }
    const all = Object.values(cells);
    const games = all.reduce((a, c) => a + c.games, 0);
    const id = ratingIdOf(s.submission, ratingIds.keys());
    return { submission: s.submission, stage: s.stage, promoted: s.promoted, winRate: games > 0 ? all.reduce((a, c) => a + c.W, 0) / games : 0, games, cells, rating: id === null ? null : (ratingIds.get(id) ?? null) };
  });
  // Opponents nobody played (a champion promoted by the last submission) keep their column.
  return { opponents: order, rows };
}

// ---- colour ----------------------------------------------------------------------------------

type Rgb = [number, number, number];
const hex = (s: string): Rgb => [parseInt(s.slice(1, 3), 16), parseInt(s.slice(3, 5), 16), parseInt(s.slice(5, 7), 16)];

/**
 * Diverging red → neutral → blue (ColorBrewer RdBu, readable with red-green colour blindness):
 * 0 % red, 50 % neutral, 100 % blue. Dark themes get a dark neutral so an even record does not
 * glare; every cell also prints its number, so colour is never the only cue.
 */
const SCALES: Record<'light' | 'dark', Rgb[]> = {
  light: ['#b2182b', '#ef8a62', '#f7f7f7', '#67a9cf', '#2166ac'].map(hex),
  dark: ['#d6604d', '#8c3b32', '#2e2e2e', '#2f5f86', '#4393c3'].map(hex),
};

export function winRateRgb(rate: number, kind: string): Rgb {
  const scale = SCALES[kind === 'light' || kind === 'high-contrast-light' ? 'light' : 'dark'];
  const x = Math.max(0, Math.min(1, rate)) * (scale.length - 1);
  const i = Math.min(scale.length - 2, Math.floor(x));
  const f = x - i;
  const a = scale[i] as Rgb, b = scale[i + 1] as Rgb;
  return [0, 1, 2].map((k) => Math.round((a[k] as number) + ((b[k] as number) - (a[k] as number)) * f)) as Rgb;
}

/** Background and a text colour with enough contrast on it. */
export function winRateColors(rate: number, kind: string): { background: string; foreground: string } {
  const [r, g, b] = winRateRgb(rate, kind);
  const lum = (0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b));
  return { background: `rgb(${r}, ${g}, ${b})`, foreground: lum > 0.22 ? '#000000' : '#ffffff' };
}

function lin(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

// ---- ratings over time --------------------------------------------------------------------------

export interface RatingSeries {
  id: string;
  kind: 'submission' | 'opponent';
  mu: (number | null)[];
  sigma: (number | null)[];
  ordinal: (number | null)[];
}

/** One x per charged game with an update; each player's rating carried forward from its first game. */
export function ratingSeries(history: readonly RatingPoint[], isSubmission: (id: string) => boolean): { games: number[]; series: RatingSeries[] } {
  const games = [...new Set(history.map((p) => p.game))].sort((a, b) => a - b);
  const at = new Map(games.map((g, i) => [g, i]));
  const byId = new Map<string, RatingSeries>();
  for (const p of history) {
    let s = byId.get(p.id);
    if (!s) {
      s = { id: p.id, kind: isSubmission(p.id) ? 'submission' : 'opponent', mu: new Array<number | null>(games.length).fill(null), sigma: new Array<number | null>(games.length).fill(null), ordinal: new Array<number | null>(games.length).fill(null) };
      byId.set(p.id, s);
    }
    const i = at.get(p.game) as number;
    s.mu[i] = p.mu;
    s.sigma[i] = p.sigma;
    s.ordinal[i] = p.ordinal;
  }
  for (const s of byId.values()) {
    for (const arr of [s.mu, s.sigma, s.ordinal]) {
      let last: number | null = null;
      for (let i = 0; i < arr.length; i++) {
        if (arr[i] !== null) last = arr[i] as number;
        else arr[i] = last;
      }
    }
  }
  // Opponents first (the pool is the yardstick), then submissions in order.
  const series = [...byId.values()].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'opponent' ? -1 : 1));
  return { games, series };
}

// ---- the pool ---------------------------------------------------------------------------------

export type PoolState = 'in pool' | 'pinned' | 'dropped' | 'retired';

export interface PoolRow {
  id: string;
  kind: string;
  state: PoolState;
  entry: PoolEntryInfo | null;
  /** The promotion that brought a champion in. */
  promotion: PoolEvent | null;
  /** When it left the pool. */
  left: PoolEvent | null;
  /** Highest weight in the pool: the opponent submissions do worst against. */
  hardest: boolean;
}

export function poolRows(pool: ArenaPoolFile | null): PoolRow[] {
  if (pool === null) return [];
  const maxW = Math.max(0, ...pool.entries.map((e) => e.weight));
  const distinct = new Set(pool.entries.map((e) => e.weight)).size > 1;
  const promotionOf = (id: string): PoolEvent | null => pool.events.find((e) => e.kind === 'promoted' && e.opponent === id) ?? null;
  const rows: PoolRow[] = pool.entries.map((e) => ({ id: e.id, kind: e.kind, state: e.pinned ? 'pinned' : 'in pool', entry: e, promotion: promotionOf(e.id), left: null, hardest: distinct && e.weight === maxW }));
  for (const ev of pool.events) {
    if ((ev.kind !== 'dropped' && ev.kind !== 'retired') || rows.some((r) => r.id === ev.opponent)) continue;
    const promotion = promotionOf(ev.opponent);
    rows.push({ id: ev.opponent, kind: promotion ? 'champion' : 'built-in', state: ev.kind, entry: null, promotion, left: ev, hardest: false });
  }
  return rows;
}

/** One line per pool event, newest first: "game 36: champion-1 promoted from submission #3". */
export function poolEventText(e: PoolEvent): string {
  const what = { promoted: `promoted into the pool${e.submission !== undefined ? ` from submission #${e.submission}` : ''}`, retired: 'retired (the pool was full)', dropped: 'dropped', pinned: 'pinned', unpinned: 'unpinned' }[e.kind];
  return `game ${e.atGame}: ${e.opponent} ${what}`;
}
