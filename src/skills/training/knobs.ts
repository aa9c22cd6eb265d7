/**
 * How the proposer's rules move a knob: from its easy end (rate 0) toward the run's own value
 * (rate 1), so practice gets harder as the skill improves, and never outside the bounds the
 * environment declares for that knob (a run may use values its training bounds exclude).
 */
import type { EnvDefinition } from '../../envs/core/definition';
import type { ParamValue, ParamValues } from '../../envs/core/params';

/** From `easy` (r = 0) to `hard` (r = 1), rounded to 3 decimals. */
export function toward(easy: number, hard: number, r: number): number {
  const t = Math.min(1, Math.max(0, r));
  return Math.round((easy + (hard - easy) * t) * 1000) / 1000;
}

export const towardInt = (easy: number, hard: number, r: number): number => Math.round(toward(easy, hard, r));

/** The knob's numeric bounds, or undefined when the definition does not declare it as a range. */
export function rangeOf(def: EnvDefinition, name: string): { min: number; max: number } | undefined {
  const knob = def.training?.[name];
  return knob && 'min' in knob ? knob : undefined;
}

/**
 * `toward(easy, run[name], r)` inside the knob's bounds (an integer for an integer parameter);
 * undefined when the definition has no such range knob. `easy` may name an end: 'min' or 'max'.
 */
export function towardKnob(def: EnvDefinition, run: ParamValues, name: string, easy: number | 'min' | 'max', r: number): number | undefined {
  const range = rangeOf(def, name);
  if (!range) return undefined;
  const from = easy === 'min' ? range.min : easy === 'max' ? range.max : easy;
  const own = run[name];
  const raw = toward(from, typeof own === 'number' ? own : from, r);
  const v = Math.min(range.max, Math.max(range.min, raw));
  return def.params[name]?.type === 'integer' ? Math.min(Math.floor(range.max), Math.max(Math.ceil(range.min), Math.round(v))) : v;
}

/** Keeps only the entries that change the run's value: a proposal names what it changes. */
export function changes(run: ParamValues, params: Readonly<Record<string, ParamValue | undefined>>): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== run[k]) out[k] = v;
  return out;
}

/** "a", "a and b", "a, b and c". */
export function listPhrase(parts: readonly string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
