/**
 * Where an environment's random numbers come from. Normally our seeded generator; a golden
 * replay feeds the values Gymnasium's NumPy generator logged instead, so the same code path
 * rebuilds the recorded world exactly.
 */
import { Rng, type Seed } from '../core/rng';

export interface Draws {
  reseed(seed: Seed): void;
  /** Uniform in [low, high). */
  uniform(low: number, high: number): number;
  /** Integer in [low, high). */
  integers(low: number, high: number): number;
  /** Uniform in [0, 1). */
  random(): number;
}

export class RngDraws implements Draws {
  readonly rng = new Rng(0);
  reseed(seed: Seed): void {
    this.rng.reseed(seed);
  }
  uniform(low: number, high: number): number {
    return this.rng.uniform(low, high);
  }
  integers(low: number, high: number): number {
    return this.rng.integers(low, high);
  }
  random(): number {
    return this.rng.random();
  }
}

export interface LoggedDraw {
  m: string;
  args?: unknown[];
  kw?: Record<string, unknown>;
  result: number | number[] | unknown;
}

/** Replays a log of draws in order; a draw of the wrong kind or past the end is an error. */
export class ScriptedDraws implements Draws {
  private readonly queue: number[] = [];
  private readonly kinds: string[] = [];
  constructor(log: readonly LoggedDraw[] = []) {
    this.push(log);
  }
  push(log: readonly LoggedDraw[]): void {
    for (const d of log) {
      const values = Array.isArray(d.result) ? (d.result.flat(4) as number[]) : [d.result as number];
      for (const v of values) {
        if (typeof v !== 'number') throw new TypeError(`scripted draw ${d.m} has a non-numeric result`);
        this.queue.push(v);
        this.kinds.push(d.m);
      }
    }
  }
  get remaining(): number {
    return this.queue.length;
  }
  reseed(): void {}
  private next(kind: string): number {
    const v = this.queue.shift();
    const k = this.kinds.shift();
    if (v === undefined) throw new RangeError(`scripted draws exhausted: the environment drew one more ${kind} than the trace logged`);
    if (k !== kind && !(k === 'randint' && kind === 'integers')) throw new RangeError(`scripted draw order: the environment drew ${kind}, the trace logged ${k}`);
    return v;
  }
  uniform(): number {
    return this.next('uniform');
  }
  integers(): number {
    return this.next('integers');
  }
  random(): number {
    return this.next('random');
  }
}
