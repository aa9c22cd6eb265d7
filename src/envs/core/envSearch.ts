/**
 * Finding environments by a loose query, as `policyforge envs --family` takes it. A query
 * matches an environment whose family starts with it or whose id contains it, case ignored:
 * `minigrid`, `classic/cartpole`, `KeyCorridor`, `MiniGrid-DoorKey`. When nothing matches,
 * `suggestQueries` gives the queries closest to it by edit distance, each one that matches.
 */
import { distance } from 'fastest-levenshtein';
import type { EnvDefinition } from './definition';

export function matchEnvironments(defs: readonly EnvDefinition[], query: string): EnvDefinition[] {
  const q = query.toLowerCase();
  return defs.filter((d) => d.family.toLowerCase().startsWith(q) || d.id.toLowerCase().includes(q));
}

/** Most suggestions given. */
const MAX_SUGGESTIONS = 5;

/**
 * Queries close to `query` that match: prefixes of families, ids and the parts of ids between
 * dashes that end where a word does (before a dash, a slash, or a capital after a
 * lower-case letter), of about the query's length (so `KeyCoridor` finds `KeyCorridor`, not
 * `KeyCorridorS3R1`), within an edit distance that grows with the query's length.
 */
export function suggestQueries(defs: readonly EnvDefinition[], query: string): string[] {
  const q = query.toLowerCase();
  const allowed = Math.max(1, Math.floor(q.length / 4));
  const candidates = new Set<string>();
  for (const d of defs) {
    candidates.add(d.family);
    candidates.add(d.id);
    for (const part of d.id.split('-')) candidates.add(part);
  }
  const best = new Map<string, number>();
  for (const c of candidates) {
    for (let len = Math.max(1, q.length - allowed); len <= Math.min(c.length, q.length + allowed); len++) {
      if (!wordEnd(c, len)) continue;
      const prefix = c.slice(0, len);
      const d = distance(q, prefix.toLowerCase());
      if (d > allowed) continue;
      const key = prefix.toLowerCase();
      if (!best.has(key) || (best.get(key) as number) > d) best.set(key, d);
    }
  }
  // One spelling per suggestion (the first candidate's), nearest first, then shortest.
  const spelled = new Map<string, string>();
  for (const c of candidates) for (const key of best.keys()) if (!spelled.has(key) && c.toLowerCase().startsWith(key)) spelled.set(key, c.slice(0, key.length));
  return [...best.entries()]
    .sort(([a, da], [b, db]) => da - db || a.length - b.length || (a < b ? -1 : 1))
    .map(([key]) => spelled.get(key) as string)
    .filter((s, i, all) => all.indexOf(s) === i && matchEnvironments(defs, s).length > 0)
    .slice(0, MAX_SUGGESTIONS);
}

function wordEnd(s: string, at: number): boolean {
  if (at >= s.length) return true;
  const next = s[at] as string;
  const last = s[at - 1] as string;
  return next === '-' || next === '/' || (/[A-Z]/.test(next) && /[a-z]/.test(last));
}
