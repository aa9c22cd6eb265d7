/**
 * Scalar helpers with HighwayEnv's exact numeric conventions (Python's floored modulo, NumPy's
 * round-half-to-even, `lmap` evaluated in the same operation order), so replays agree with the
 * recorded traces to float64 rounding.
 */

export type Vec2 = readonly [number, number];

/** Python/NumPy floored float modulo (the sign follows the divisor). */
export function pyMod(a: number, b: number): number {
  const m = a % b;
  if (m === 0) return b < 0 ? -0 : 0;
  return m < 0 !== b < 0 ? m + b : m;
}

export const TWO_PI = 2 * Math.PI;

/** Angle wrapped to [-π, π), evaluated as HighwayEnv does: ((x + π) mod 2π) − π. */
export function wrapToPi(x: number): number {
  return pyMod(x + Math.PI, TWO_PI) - Math.PI;
}

/** Linear map of v from [x0, x1] to [y0, y1], in HighwayEnv's operation order. */
export function lmap(v: number, x0: number, x1: number, y0: number, y1: number): number {
  return y0 + ((v - x0) * (y1 - y0)) / (x1 - x0);
}

/** Keeps a divisor away from zero: values within ±eps become ±eps (non-negative ones +eps). */
export function notZero(x: number, eps = 1e-2): number {
  if (Math.abs(x) > eps) return x;
  return x >= 0 ? eps : -eps;
}

/** NumPy's clip for scalars (min(max(x, lo), hi)). */
export function clip(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/** NumPy's round: halves go to the even neighbour. */
export function roundHalfEven(x: number): number {
  const r = Math.round(x);
  if (Math.abs(x % 1) === 0.5 && r % 2 !== 0) return r - 1;
  return r;
}

export function norm2(x: number, y: number): number {
  return Math.sqrt(x * x + y * y);
}

export function sign(x: number): number {
  return x > 0 ? 1 : x < 0 ? -1 : 0;
}

export function deg2rad(d: number): number {
  return d * (Math.PI / 180);
}
