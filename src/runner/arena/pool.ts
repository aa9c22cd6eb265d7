/**
 * The opponent pool of an arena run: built-in opponents plus promoted champions. Tracks every
 * submission's results per opponent so the sampler can apply weakness pressure: the opponent
 * the submissions currently do worst against gets double weight.
 */
import type { SidePolicy } from '../../envs/core/multiAgent';
import type { Seed } from '../../envs/core/rng';

export interface PoolEntry {
  readonly id: string;
  readonly kind: 'built-in' | 'champion';
  readonly make: (seed: Seed) => SidePolicy;
  pinned: boolean;
  /** The game count at which a champion joined (0 for built-ins). */
  readonly joinedAtGame: number;
}

export class ArenaPool {
  private readonly entries: PoolEntry[] = [];
  /** Points (win 1, draw 0.5) and games of submissions against each opponent. */
  private readonly record = new Map<string, { points: number; games: number }>();

  constructor(readonly maxSize = 8) {}

  add(entry: Omit<PoolEntry, 'pinned'> & { pinned?: boolean }): PoolEntry {
    if (this.entries.some((e) => e.id === entry.id)) throw new Error(`the pool already holds ${entry.id}`);
    const e: PoolEntry = { ...entry, pinned: entry.pinned ?? false };
    this.entries.push(e);
    // A full pool makes room by retiring its oldest unpinned entry.
    while (this.entries.length > this.maxSize) {
      const i = this.entries.findIndex((x) => !x.pinned && x !== e);
      if (i < 0) break;
      this.entries.splice(i, 1);
    }
    return e;
  }

  list(): readonly PoolEntry[] {
    return this.entries;
  }

  get(id: string): PoolEntry {
    const e = this.entries.find((x) => x.id === id);
    if (!e) throw new Error(`no opponent "${id}" in the pool (${this.entries.map((x) => x.id).join(', ')})`);
    return e;
  }

  pin(id: string, pinned = true): void {
    this.get(id).pinned = pinned;
  }

  drop(id: string): void {
    const e = this.get(id);
    if (e.pinned) throw new Error(`${id} is pinned: unpin it before dropping it`);
    if (this.entries.length === 1) throw new Error('the pool cannot be empty');
    this.entries.splice(this.entries.indexOf(e), 1);
  }

  noteResult(opponent: string, points: number): void {
    const r = this.record.get(opponent) ?? { points: 0, games: 0 };
    r.points += points;
    r.games++;
    this.record.set(opponent, r);
  }

  /** Submissions' win rate (draws count half) against an opponent; null before any game. */
  winRate(opponent: string): number | null {
    const r = this.record.get(opponent);
    return r && r.games > 0 ? r.points / r.games : null;
  }

  /**
   * Sampling weights: 1 each, 2 for the opponent with the lowest win rate (ties: the first in
   * pool order). Unplayed opponents are not singled out.
   */
  weights(): Record<string, number> {
    const out: Record<string, number> = {};
    let hardest: string | null = null, lowest = Infinity;
    for (const e of this.entries) {
      out[e.id] = 1;
      const w = this.winRate(e.id);
      if (w !== null && w < lowest) { lowest = w; hardest = e.id; }
    }
    if (hardest !== null) out[hardest] = 2;
    return out;
  }

  /** Splits `games` across the pool in proportion to the weights (largest remainder, pool order on ties). */
  allocate(games: number): Record<string, number> {
    const w = this.weights();
    const total = Object.values(w).reduce((a, b) => a + b, 0);
    const out: Record<string, number> = {};
    const rema: { id: string; r: number }[] = [];
    let given = 0;
    for (const e of this.entries) {
      const exact = (games * (w[e.id] as number)) / total;
      out[e.id] = Math.floor(exact);
      given += out[e.id] as number;
      rema.push({ id: e.id, r: exact - Math.floor(exact) });
    }
    rema.sort((a, b) => b.r - a.r);
    for (let i = 0; given < games; i++, given++) out[(rema[i % rema.length] as { id: string }).id]! += 1;
    return out;
  }
}
