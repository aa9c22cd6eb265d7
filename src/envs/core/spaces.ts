/**
 * Gymnasium-style spaces. Each space checks membership (`contains`), samples with our PRNG,
 * describes itself as JSON (feedback files, the policy context) and as a TypeScript type
 * (the generated `policy/env.d.ts`).
 */
import type { BoxDtype, JsonBound, SpaceDescription } from '../../protocol/spaces';
import type { Rng } from './rng';

export type { BoxDtype, JsonBound, SpaceDescription };

export interface Space<T = unknown> {
  contains(x: unknown): x is T;
  sample(rng: Rng): T;
  describe(): SpaceDescription;
  /** The TypeScript type of a value of this space, for generated declarations. */
  tsType(): string;
}

const toJsonBound = (v: number): JsonBound => (v === Infinity ? 'inf' : v === -Infinity ? '-inf' : v);
const fromJsonBound = (v: JsonBound): number => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v);

export type BoxValue = Float64Array | Uint8Array | Int32Array;

/** A box of numbers; `T` is the typed array a value arrives as (Float64Array unless dtype says otherwise). */
export class Box<T extends BoxValue = Float64Array> implements Space<T> {
  readonly low: Float64Array;
  readonly high: Float64Array;
  readonly size: number;

  constructor(
    low: number | readonly number[],
    high: number | readonly number[],
    readonly shape: readonly number[],
    readonly dtype: BoxDtype = 'float32',
  ) {
    this.size = shape.reduce((a, b) => a * b, 1);
    const round = dtype === 'float32' ? Math.fround : (v: number) => v;
    const expand = (v: number | readonly number[], what: string): Float64Array => {
      if (typeof v === 'number') return new Float64Array(this.size).fill(round(v));
      if (v.length !== this.size) throw new RangeError(`Box ${what} has ${v.length} values, shape ${JSON.stringify(shape)} needs ${this.size}`);
      return Float64Array.from(v, round);
    };
    this.low = expand(low, 'low');
    this.high = expand(high, 'high');
    for (let i = 0; i < this.size; i++) {
      if (!((this.low[i] as number) <= (this.high[i] as number))) throw new RangeError(`Box low[${i}] > high[${i}]`);
    }
  }

  /** A new zeroed value of the right typed-array class. */
  create(): T {
    if (this.dtype === 'uint8') return new Uint8Array(this.size) as T;
    if (this.dtype === 'int32') return new Int32Array(this.size) as T;
    return new Float64Array(this.size) as T;
  }

  contains(x: unknown): x is T {
    let values: ArrayLike<unknown>;
    if (ArrayBuffer.isView(x) && !(x instanceof DataView)) values = x as unknown as ArrayLike<number>;
    else if (Array.isArray(x)) values = x;
    else return false;
    if (values.length !== this.size) return false;
    const integral = this.dtype === 'uint8' || this.dtype === 'int32';
    for (let i = 0; i < this.size; i++) {
      const v = values[i];
      if (typeof v !== 'number' || Number.isNaN(v)) return false;
      if (integral && !Number.isInteger(v)) return false;
      const cast = this.dtype === 'float32' ? Math.fround(v) : v;
      if (cast < (this.low[i] as number) || cast > (this.high[i] as number)) return false;
    }
    return true;
  }

  sample(rng: Rng): T {
    const out = this.create();
    for (let i = 0; i < this.size; i++) {
      const lo = this.low[i] as number;
      const hi = this.high[i] as number;
      let v: number;
      if (Number.isFinite(lo) && Number.isFinite(hi)) v = rng.uniform(lo, hi);
      else if (Number.isFinite(lo)) v = lo - Math.log(1 - rng.random());
      else if (Number.isFinite(hi)) v = hi + Math.log(1 - rng.random());
      else v = gaussian(rng);
      if (this.dtype === 'uint8' || this.dtype === 'int32') v = Math.floor(v);
      out[i] = this.dtype === 'float32' ? Math.fround(v) : v;
    }
    return out;
  }

  describe(): SpaceDescription {
    return {
      type: 'Box',
      shape: [...this.shape],
      dtype: this.dtype,
      low: Array.from(this.low, toJsonBound),
      high: Array.from(this.high, toJsonBound),
    };
  }

  tsType(): string {
    return this.dtype === 'uint8' ? 'Uint8Array' : this.dtype === 'int32' ? 'Int32Array' : 'Float64Array';
  }
}

export class Discrete implements Space<number> {
  constructor(readonly n: number, readonly start = 0) {
    if (!Number.isInteger(n) || n <= 0) throw new RangeError(`Discrete n must be a positive integer, got ${n}`);
  }
  contains(x: unknown): x is number {
    return typeof x === 'number' && Number.isInteger(x) && x >= this.start && x < this.start + this.n;
  }
  sample(rng: Rng): number {
    return this.start + rng.integers(0, this.n);
  }
  describe(): SpaceDescription {
    return { type: 'Discrete', n: this.n, start: this.start };
  }
  tsType(): string {
    return Array.from({ length: this.n }, (_, i) => String(this.start + i)).join(' | ');
  }
}

export class MultiDiscrete implements Space<number[]> {
  constructor(readonly nvec: readonly number[]) {}
  contains(x: unknown): x is number[] {
    const v = x as ArrayLike<unknown>;
    if (!(Array.isArray(x) || ArrayBuffer.isView(x)) || v.length !== this.nvec.length) return false;
    for (let i = 0; i < this.nvec.length; i++) {
      const e = v[i];
      if (typeof e !== 'number' || !Number.isInteger(e) || e < 0 || e >= (this.nvec[i] as number)) return false;
    }
    return true;
  }
  sample(rng: Rng): number[] {
    return this.nvec.map((n) => rng.integers(0, n));
  }
  describe(): SpaceDescription {
    return { type: 'MultiDiscrete', nvec: [...this.nvec] };
  }
  tsType(): string {
    return 'number[]';
  }
}

export class MultiBinary implements Space<number[]> {
  constructor(readonly n: number) {}
  contains(x: unknown): x is number[] {
    const v = x as ArrayLike<unknown>;
    if (!(Array.isArray(x) || ArrayBuffer.isView(x)) || v.length !== this.n) return false;
    for (let i = 0; i < this.n; i++) if (v[i] !== 0 && v[i] !== 1) return false;
    return true;
  }
  sample(rng: Rng): number[] {
    return Array.from({ length: this.n }, () => rng.integers(0, 2));
  }
  describe(): SpaceDescription {
    return { type: 'MultiBinary', n: this.n };
  }
  tsType(): string {
    return 'number[]';
  }
}

export class Text implements Space<string> {
  constructor(readonly maxLength: number, readonly minLength = 0) {}
  contains(x: unknown): x is string {
    return typeof x === 'string' && x.length >= this.minLength && x.length <= this.maxLength;
  }
  sample(rng: Rng): string {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz ';
    const len = rng.integers(this.minLength, this.maxLength + 1);
    let s = '';
    for (let i = 0; i < len; i++) s += alphabet[rng.integers(0, alphabet.length)];
    return s;
  }
  describe(): SpaceDescription {
    return { type: 'Text', minLength: this.minLength, maxLength: this.maxLength };
  }
  tsType(): string {
    return 'string';
  }
}

export class Dict implements Space<Record<string, unknown>> {
  /** Keys are sorted, as Gymnasium's Dict does. */
  readonly spaces: Readonly<Record<string, Space>>;
  constructor(spaces: Record<string, Space>) {
    this.spaces = Object.fromEntries(Object.keys(spaces).sort().map((k) => [k, spaces[k] as Space]));
  }
  contains(x: unknown): x is Record<string, unknown> {
    if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
    const rec = x as Record<string, unknown>;
    const keys = Object.keys(this.spaces);
    if (Object.keys(rec).length !== keys.length) return false;
    return keys.every((k) => k in rec && (this.spaces[k] as Space).contains(rec[k]));
  }
  sample(rng: Rng): Record<string, unknown> {
    return Object.fromEntries(Object.entries(this.spaces).map(([k, s]) => [k, s.sample(rng)]));
  }
  describe(): SpaceDescription {
    return { type: 'Dict', spaces: Object.fromEntries(Object.entries(this.spaces).map(([k, s]) => [k, s.describe()])) };
  }
  tsType(): string {
    return `{ ${Object.entries(this.spaces).map(([k, s]) => `${k}: ${s.tsType()};`).join(' ')} }`;
  }
}

export class Tuple implements Space<unknown[]> {
  constructor(readonly spaces: readonly Space[]) {}
  contains(x: unknown): x is unknown[] {
    return Array.isArray(x) && x.length === this.spaces.length && this.spaces.every((s, i) => s.contains(x[i]));
  }
  sample(rng: Rng): unknown[] {
    return this.spaces.map((s) => s.sample(rng));
  }
  describe(): SpaceDescription {
    return { type: 'Tuple', spaces: this.spaces.map((s) => s.describe()) };
  }
  tsType(): string {
    return `[${this.spaces.map((s) => s.tsType()).join(', ')}]`;
  }
}

/** Rebuilds a space from its JSON description (the inverse of `describe`). */
export function spaceFromDescription(d: SpaceDescription): Space {
  switch (d.type) {
    case 'Box':
      return new Box(d.low.map(fromJsonBound), d.high.map(fromJsonBound), d.shape, d.dtype);
    case 'Discrete':
      return new Discrete(d.n, d.start);
    case 'MultiDiscrete':
      return new MultiDiscrete(d.nvec);
    case 'MultiBinary':
      return new MultiBinary(d.n);
    case 'Text':
      return new Text(d.maxLength, d.minLength);
    case 'Dict':
      return new Dict(Object.fromEntries(Object.entries(d.spaces).map(([k, s]) => [k, spaceFromDescription(s)])));
    case 'Tuple':
      return new Tuple(d.spaces.map(spaceFromDescription));
  }
}

function gaussian(rng: Rng): number {
  const u = 1 - rng.random();
  const v = rng.random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
