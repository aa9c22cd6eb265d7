/**
 * OpenSkill (Weng–Lin) ratings for every submission and opponent of an arena run, updated after
 * each game and recorded over time so the panel can chart them.
 */
import { ordinal, rate, rating, type Rating } from 'openskill';

export interface RatingPoint {
  game: number;
  id: string;
  mu: number;
  sigma: number;
  /** Conservative skill (mu − 3 sigma): what rankings sort by. */
  ordinal: number;
}

export class Ratings {
  private readonly current = new Map<string, Rating>();
  readonly history: RatingPoint[] = [];

  get(id: string): Rating {
    let r = this.current.get(id);
    if (!r) {
      r = rating();
      this.current.set(id, r);
    }
    return r;
  }

  /** Records one game; `outcome` is 1 when `a` won, 0.5 for a draw, 0 when `b` won. */
  record(game: number, a: string, b: string, outcome: 1 | 0.5 | 0): void {
    const rank = outcome === 1 ? [1, 2] : outcome === 0 ? [2, 1] : [1, 1];
    const [[ra], [rb]] = rate([[this.get(a)], [this.get(b)]], { rank });
    this.current.set(a, ra as Rating);
    this.current.set(b, rb as Rating);
    for (const [id, r] of [[a, ra], [b, rb]] as const) {
      this.history.push({ game, id, mu: (r as Rating).mu, sigma: (r as Rating).sigma, ordinal: ordinal(r as Rating) });
    }
  }

  table(): { id: string; mu: number; sigma: number; ordinal: number }[] {
    return [...this.current.entries()].map(([id, r]) => ({ id, mu: r.mu, sigma: r.sigma, ordinal: ordinal(r) })).sort((x, y) => y.ordinal - x.ordinal);
  }
}
