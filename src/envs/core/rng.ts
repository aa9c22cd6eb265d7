/**
 * The seeded PRNG every environment and policy realm uses: xoshiro128** (Blackman & Vigna),
 * seeded through splitmix32. Pure 32-bit integer arithmetic, so a seed gives the same stream on
 * every machine and every JS engine. Not NumPy's PCG64: layouts only need to match in
 * distribution (see docs/environments.md).
 */
export type Seed = number | string;

function splitmix32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** Folds any seed (integer of any size, or string) into 32 bits deterministically. */
export function seedToUint32(seed: Seed): number {
  if (typeof seed === 'number') {
    if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number, got ${seed}`);
    const lo = seed >>> 0;
    const hi = Math.floor(seed / 4294967296) >>> 0;
    return (Math.imul(hi, 0x9e3779b1) ^ lo) >>> 0;
  }
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193) >>> 0;
  }
  return h;
}

export class Rng {
  private s0 = 0;
  private s1 = 0;
  private s2 = 0;
  private s3 = 0;

  constructor(seed: Seed = 0) {
    this.reseed(seed);
  }

  reseed(seed: Seed): void {
    const sm = splitmix32(seedToUint32(seed));
    this.s0 = sm();
    this.s1 = sm();
    this.s2 = sm();
    this.s3 = sm();
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** Next raw 32-bit unsigned integer. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** Uniform double in [0, 1) with 53 random bits. */
  random(): number {
    const hi = this.nextUint32() >>> 5; // 27 bits
    const lo = this.nextUint32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform double in [low, high). */
  uniform(low = 0, high = 1): number {
    return low + (high - low) * this.random();
  }

  /** Uniform integer in [low, high) (high exclusive, like NumPy's `integers`). Unbiased. */
  integers(low: number, high: number): number {
    if (!Number.isInteger(low) || !Number.isInteger(high)) {
      throw new RangeError(`integers(low, high) needs integers, got (${low}, ${high})`);
    }
    const span = high - low;
    if (span <= 0) throw new RangeError(`integers(low, high) needs low < high, got (${low}, ${high})`);
    if (span <= 0x100000000) {
      // Rejection sampling on 32 bits: no modulo bias.
      const limit = 0x100000000 - (0x100000000 % span);
      let x = this.nextUint32();
      while (x >= limit) x = this.nextUint32();
      return low + (x % span);
    }
    return low + Math.floor(this.random() * span);
  }

  /** A uniformly chosen element. */
  choice<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('choice() from an empty list');
    return items[this.integers(0, items.length)] as T;
  }

  /** Fisher–Yates shuffle in place; returns the same array. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.integers(0, i + 1);
      const tmp = items[i] as T;
      items[i] = items[j] as T;
      items[j] = tmp;
    }
    return items;
  }

  /** The generator's full state, for snapshots. */
  getState(): [number, number, number, number] {
    return [this.s0 >>> 0, this.s1 >>> 0, this.s2 >>> 0, this.s3 >>> 0];
  }

  setState(state: readonly [number, number, number, number]): void {
    [this.s0, this.s1, this.s2, this.s3] = state.map((v) => v | 0) as [number, number, number, number];
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
