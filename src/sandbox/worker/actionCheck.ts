/**
 * Turns what `act` returned (a realm value) into a host value the environment can take, or a
 * description of why it is not in the action space. No clipping, no coercion: a Box action
 * must be an array-like of numbers inside the bounds, a Discrete action an integer in range.
 */
import type { Space } from '../../envs/core/spaces';
import type { SpaceDescription } from '../../protocol/spaces';
import { formatSpace } from '../../envs/core/formatSpace';

/** What a checker returns for an action outside the space. */
export const INVALID_ACTION: unique symbol = Symbol('invalid action');

export interface ActionChecker {
  /** The action as a host value for `env.step`, or INVALID_ACTION. May run policy code (getters). */
  check(action: unknown): unknown;
  /** Why `action` is not in the space, for the episode error. */
  explain(action: unknown): string;
}

export function actionChecker(space: Space, desc: SpaceDescription): ActionChecker {
  const where = formatSpace(desc);
  const message = (action: unknown, why?: string): string => `act returned ${preview(action)}, which is not in the action space ${where}${why ? ` (${why})` : ''}`;
  switch (desc.type) {
    case 'Discrete':
      return {
        check: (a) => (typeof a === 'number' && space.contains(a) ? a : INVALID_ACTION),
        explain: (a) => message(a),
      };
    case 'Box': {
      const size = desc.shape.reduce((x, y) => x * y, 1);
      const copy = (a: unknown): Float64Array | string => {
        if (typeof a !== 'object' || a === null) return `expected an array of ${size} numbers`;
        const src = a as ArrayLike<unknown>;
        const length = src.length;
        if (length !== size) return `expected ${size} numbers, got length ${String(length)}`;
        const out = new Float64Array(size);
        for (let i = 0; i < size; i++) {
          const v = src[i];
          if (typeof v !== 'number') return `element ${i} is ${typeof v}`;
          out[i] = v;
        }
        return out;
      };
      return {
        check: (a) => {
          const out = copy(a);
          return typeof out !== 'string' && space.contains(out) ? out : INVALID_ACTION;
        },
        explain: (a) => {
          let out: Float64Array | string;
          try {
            out = copy(a);
          } catch {
            return message(a);
          }
          return typeof out === 'string' ? message(a, out) : message(Array.from(out), outOfBounds(out, desc));
        },
      };
    }
    default:
      return {
        check: (a) => {
          const copy = hostCopy(a, 0, { n: 0 });
          return copy !== INVALID && space.contains(copy) ? copy : INVALID_ACTION;
        },
        explain: (a) => {
          let copy: unknown;
          try {
            copy = hostCopy(a, 0, { n: 0 });
          } catch {
            copy = INVALID;
          }
          return message(copy === INVALID ? a : copy);
        },
      };
  }
}

/** Structures bigger than this are not actions; the bound also keeps hostile getters short. */
const MAX_ELEMENTS = 4096;
const INVALID = Symbol('invalid');

/** Plain host data from a realm value: arrays, typed arrays, plain objects, primitives. */
function hostCopy(v: unknown, depth: number, count: { n: number }): unknown {
  if (++count.n > MAX_ELEMENTS || depth > 8) return INVALID;
  if (v === null || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v !== 'object') return INVALID;
  if (Array.isArray(v) || ArrayBuffer.isView(v)) {
    const src = v as ArrayLike<unknown>;
    const length = src.length;
    if (typeof length !== 'number' || length > MAX_ELEMENTS) return INVALID;
    const out: unknown[] = [];
    for (let i = 0; i < length; i++) {
      const x = hostCopy(src[i], depth + 1, count);
      if (x === INVALID) return INVALID;
      out.push(x);
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = hostCopy((v as Record<string, unknown>)[k], depth + 1, count);
    if (x === INVALID) return INVALID;
    out[k] = x;
  }
  return out;
}

function outOfBounds(v: Float64Array, desc: Extract<SpaceDescription, { type: 'Box' }>): string | undefined {
  for (let i = 0; i < v.length; i++) {
    const x = v[i] as number;
    if (Number.isNaN(x)) return `element ${i} is NaN`;
    const lo = desc.low[i];
    const hi = desc.high[i];
    if (typeof lo === 'number' && x < lo) return `element ${i} is below ${lo}`;
    if (typeof hi === 'number' && x > hi) return `element ${i} is above ${hi}`;
  }
  return undefined;
}

/** A short, safe picture of a value for messages (never calls into the value). */
export function preview(v: unknown): string {
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : String(v);
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  if (v === null || v === undefined || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'symbol') return 'a symbol';
  if (typeof v === 'function') return 'a function';
  if (Array.isArray(v) && v.every((x) => typeof x === 'number')) {
    const s = `[${v.slice(0, 8).map((x) => (Number.isNaN(x) ? 'NaN' : String(x))).join(', ')}${v.length > 8 ? ', …' : ''}]`;
    return s;
  }
  return 'an object';
}
