/** Shared parsing for classic-control states and reset options, with errors that say what was wrong. */

export function readFloatArray<N extends number>(envName: string, state: unknown, length: N): FixedArray<N> {
  const values = (state !== null && typeof state === 'object' && !Array.isArray(state) && 'values' in state ? (state as { values: unknown }).values : state) as unknown;
  if (!Array.isArray(values) || values.length !== length || !values.every((v) => typeof v === 'number')) {
    throw new TypeError(`${envName} state must be an array of ${length} numbers, got ${JSON.stringify(state)}`);
  }
  return values as FixedArray<N>;
}

/** A number tuple of a known length, so destructuring needs no undefined checks. */
export type FixedArray<N extends number> = N extends 2 ? [number, number] : N extends 3 ? [number, number, number] : N extends 4 ? [number, number, number, number] : number[];

/** Gymnasium's `options={"low": …, "high": …}` reset override (both cast to float; low > high is an error). */
export function readResetBounds(options: Readonly<Record<string, unknown>> | undefined, low: number, high: number): [number, number] {
  const lo = options?.['low'] ?? low;
  const hi = options?.['high'] ?? high;
  if (typeof lo !== 'number' || typeof hi !== 'number' || !Number.isFinite(lo) || !Number.isFinite(hi)) {
    throw new TypeError(`reset options low/high must be finite numbers, got low=${JSON.stringify(lo)} high=${JSON.stringify(hi)}`);
  }
  if (lo > hi) throw new RangeError(`reset options: low (${lo}) must not exceed high (${hi})`);
  return [lo, hi];
}

/** Python's floored modulo for floats. */
export function pyMod(a: number, b: number): number {
  let m = a % b;
  if (m !== 0 && m < 0 !== b < 0) m += b;
  return m;
}

/** Python's `min(max(x, lo), hi)` with Python's tie rules. */
export function bound(x: number, lo: number, hi: number): number {
  const m = lo > x ? lo : x;
  return hi < m ? hi : m;
}
