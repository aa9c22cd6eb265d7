/**
 * Where the driving scenes draw random numbers. HighwayEnv draws from one NumPy generator in a
 * fixed order (spawn lanes, speeds, offsets, behaviour exponents, destinations, the parking goal);
 * we draw from our seeded generator at the same places. Golden replays swap in a scripted source
 * that returns the recorded NumPy results in order and checks each draw is the one recorded.
 */
import { Rng } from '../core/rng';

export interface HighwayRandom {
  /** A uniformly chosen element. */
  choice<T>(items: readonly T[]): T;
  /** A uniform integer in [low, high). */
  integers(low: number, high: number): number;
  /** A uniform float in [low, high). */
  uniform(low: number, high: number): number;
  /** A normal draw with the given mean and standard deviation. */
  normal(loc: number, scale: number): number;
  /** `size` distinct elements in random order (NumPy's choice without replacement). */
  choiceDistinct<T>(items: readonly T[], size: number): T[];
}

export class SeededRandom implements HighwayRandom {
  constructor(readonly rng: Rng) {}

  choice<T>(items: readonly T[]): T {
    return this.rng.choice(items);
  }

  integers(low: number, high: number): number {
    return this.rng.integers(low, high);
  }

  uniform(low: number, high: number): number {
    return this.rng.uniform(low, high);
  }

  choiceDistinct<T>(items: readonly T[], size: number): T[] {
    if (size > items.length) throw new RangeError(`cannot choose ${size} distinct elements from ${items.length}`);
    return this.rng.shuffle([...items]).slice(0, size);
  }

  normal(loc: number, scale: number): number {
    // Box–Muller; 1 − u keeps the logarithm finite.
    const u = 1 - this.rng.random();
    const v = this.rng.random();
    return loc + scale * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

/** One recorded draw: NumPy method name, arguments and result. */
export interface RecordedDraw {
  m: string;
  args?: unknown[];
  kw?: Record<string, unknown>;
  result: unknown;
}

export class ScriptMismatchError extends Error {
  override name = 'ScriptMismatchError';
}

/** Replays recorded draws; any extra, missing or different draw is an error naming it. */
export class ScriptedRandom implements HighwayRandom {
  private queue: RecordedDraw[] = [];
  private consumed = 0;

  load(draws: readonly RecordedDraw[]): void {
    if (this.queue.length > 0) throw new ScriptMismatchError(`${this.queue.length} recorded draws were never made (next: ${JSON.stringify(this.queue[0])})`);
    this.queue = [...draws];
  }

  get pending(): number {
    return this.queue.length;
  }

  private next(method: string): RecordedDraw {
    const d = this.queue.shift();
    if (!d) throw new ScriptMismatchError(`draw #${this.consumed + 1} (${method}) was not recorded`);
    if (d.m !== method) throw new ScriptMismatchError(`draw #${this.consumed + 1}: made ${method}, recorded ${d.m} ${JSON.stringify(d.args ?? d.kw)}`);
    this.consumed++;
    return d;
  }

  choice<T>(items: readonly T[]): T {
    const d = this.next('choice');
    // NumPy's choice(n) draws an index; choice(list) returns the element itself.
    const arg = d.args?.[0];
    if (typeof arg === 'number') return items[d.result as number] as T;
    const found = items.find((it) => JSON.stringify(it) === JSON.stringify(d.result));
    if (found === undefined) throw new ScriptMismatchError(`recorded choice ${JSON.stringify(d.result)} is not among ${JSON.stringify(items)}`);
    return found;
  }

  integers(low: number, high: number): number {
    const d = this.next('integers');
    const r = d.result as number;
    if (!(r >= low && r < high)) throw new ScriptMismatchError(`recorded integers result ${r} is outside [${low}, ${high})`);
    return r;
  }

  uniform(_low: number, _high: number): number {
    return this.next('uniform').result as number;
  }

  choiceDistinct<T>(items: readonly T[], size: number): T[] {
    const d = this.next('choice');
    const result = d.result;
    if (!Array.isArray(result) || result.length !== size) throw new ScriptMismatchError(`recorded choice ${JSON.stringify(result)} is not ${size} elements`);
    return result.map((r) => {
      const found = items.find((it) => JSON.stringify(it) === JSON.stringify(r));
      if (found === undefined) throw new ScriptMismatchError(`recorded choice ${JSON.stringify(r)} is not among ${JSON.stringify(items)}`);
      return found;
    });
  }

  normal(_loc: number, _scale: number): number {
    return this.next('normal').result as number;
  }
}
