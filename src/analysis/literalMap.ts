/**
 * Which literal of one version of a module is which literal of another: the pairing the edit
 * classification reports literal changes through, and what the editor hover follows a constant
 * through the checkpoints with. A literal survives an edit when
 *  1. the topologies are equal (pairs by position), or
 *  2. a token diff of the two topologies keeps it inside a common run with ANCHOR unchanged
 *     tokens either side (so a removed loop's bound is not "the same" as a new index), or, for a
 *     module too different to diff as a whole, inside a unit that kept its name; or
 *  3. it is the only unpaired literal on both sides with the same enclosing declaration path
 *     (`Policy.act`, `Policy.weights[2]`) and the same role (the structure just around it), the
 *     role loosened step by step.
 * Literals that match none of these stay unpaired: a guess would show the user a wrong history.
 */
import { diffArrays } from 'diff';
import { isPlaceholder, type LiteralFact, type ModuleFacts } from './facts';

/** Above this many token edits a module's literals are aligned unit by unit instead (Myers gets slow). */
export const MAX_TOKEN_EDITS = 3000;
/** Unchanged tokens needed on each side of a literal for a token diff to pair it. */
export const ANCHOR = 3;

/** Indices into the parent's and the child's `literals`. */
export type LiteralPair = readonly [parent: number, child: number];

/** Indices of the literals whose placeholder lies in the token range [start, end). */
function literalIndices(facts: ModuleFacts, start: number, end: number): number[] {
  const out: number[] = [];
  facts.literals.forEach((l, i) => {
    if (l.token >= start && l.token < end) out.push(i);
  });
  return out;
}

function positionalPairs(a: readonly number[], b: readonly number[]): LiteralPair[] {
  const n = Math.min(a.length, b.length);
  const out: LiteralPair[] = [];
  for (let k = 0; k < n; k++) out.push([a[k]!, b[k]!]);
  return out;
}

/**
 * Pairs the literals of two token ranges through a token diff (rule 2). Null when the ranges
 * differ by more than MAX_TOKEN_EDITS tokens.
 */
export function diffLiteralPairs(a: ModuleFacts, aStart: number, aEnd: number, b: ModuleFacts, bStart: number, bEnd: number): LiteralPair[] | null {
  const aTokens = a.tokens.slice(aStart, aEnd);
  const bTokens = b.tokens.slice(bStart, bEnd);
  const parts = diffArrays(aTokens, bTokens, { maxEditLength: MAX_TOKEN_EDITS });
  if (!parts) return null;
  const aLits = new Map(literalIndices(a, aStart, aEnd).map((i) => [a.literals[i]!.token - aStart, i]));
  const bLits = new Map(literalIndices(b, bStart, bEnd).map((i) => [b.literals[i]!.token - bStart, i]));
  const out: LiteralPair[] = [];
  let i = 0;
  let j = 0;
  for (const part of parts) {
    if (part.added) j += part.count;
    else if (part.removed) i += part.count;
    else {
      const from = i === 0 ? 0 : ANCHOR;
      const to = i + part.count === aTokens.length ? part.count : part.count - ANCHOR;
      for (let k = from; k < to; k++) {
        if (!isPlaceholder(aTokens[i + k]!)) continue;
        const x = aLits.get(i + k);
        const y = bLits.get(j + k);
        if (x !== undefined && y !== undefined) out.push([x, y]);
      }
      i += part.count;
      j += part.count;
    }
  }
  return out;
}

/** Pairs within a unit that kept its name: by position when its topology is unchanged, else by diff. */
export function unitLiteralPairs(a: ModuleFacts, ua: { start: number; end: number; hash?: string }, b: ModuleFacts, ub: { start: number; end: number; hash?: string }): LiteralPair[] {
  if (ua.hash !== undefined && ua.hash === ub.hash) return positionalPairs(literalIndices(a, ua.start, ua.end), literalIndices(b, ub.start, ub.end));
  return diffLiteralPairs(a, ua.start, ua.end, b, ub.start, ub.end) ?? [];
}

/** Rules 1 and 2: the pairs the edit classification trusts for "this literal changed value". */
export function alignedLiteralPairs(a: ModuleFacts, b: ModuleFacts): LiteralPair[] {
  if (a.topologyHash === b.topologyHash) return positionalPairs(a.literals.map((_, i) => i), b.literals.map((_, i) => i));
  const whole = diffLiteralPairs(a, 0, a.tokens.length, b, 0, b.tokens.length);
  if (whole) return whole;
  const units = new Map(b.units.map((u) => [u.name, u]));
  return a.units.flatMap((u) => {
    const v = units.get(u.name);
    return v && !u.nested && u.hash === v.hash ? unitLiteralPairs(a, u, b, v) : [];
  });
}

/**
 * Tokens on one side of a literal. With `values`, neighbouring literals count by their value
 * (`o[2] > 0.05` and `o[3] > -1` then differ); without, only structure counts.
 */
function context(facts: ModuleFacts, l: LiteralFact, side: -1 | 1, n: number, values: boolean): string {
  const out: string[] = [];
  const byToken = values ? new Map(facts.literals.map((x) => [x.token, x])) : undefined;
  for (let t = l.token + side; t >= 0 && t < facts.tokens.length && out.length < n; t += side) {
    const tok = facts.tokens[t]!;
    out.push(!isPlaceholder(tok) ? tok : byToken ? `#${String(byToken.get(t)?.value)}` : '#');
  }
  return out.join('\u0001');
}

/** Role keys from strict to loose (rule 3). Keys are compared within one declaration path only. */
const ROLE_KEYS: ((f: ModuleFacts, l: LiteralFact) => string | null)[] = [
  (f, l) => `${context(f, l, -1, 4, true)}\u0002${context(f, l, 1, 4, true)}`,
  (f, l) => `${context(f, l, -1, 2, false)}\u0002${context(f, l, 1, 2, false)}`,
  (f, l) => `<${context(f, l, -1, 6, true)}`,
  (f, l) => `>${context(f, l, 1, 6, true)}`,
  (f, l) => `<${context(f, l, -1, 3, false)}`,
  (f, l) => `>${context(f, l, 1, 3, false)}`,
  // A path into a table (`Policy.weights[2]`, `GAINS.kp`) names one slot on its own.
  (_f, l) => (l.slot ? '' : null),
];

function pairByRole(a: ModuleFacts, b: ModuleFacts, childToParent: (number | null)[], parentUsed: Set<number>): void {
  for (const roleKey of ROLE_KEYS) {
    const group = (facts: ModuleFacts, free: (i: number) => boolean): Map<string, number[]> => {
      const out = new Map<string, number[]>();
      facts.literals.forEach((l, i) => {
        if (!free(i)) return;
        const role = roleKey(facts, l);
        if (role === null) return;
        const key = `${l.kind}\u0003${l.scope ?? ''}\u0003${role}`;
        out.set(key, [...(out.get(key) ?? []), i]);
      });
      return out;
    };
    const left = group(a, (i) => !parentUsed.has(i));
    const right = group(b, (i) => childToParent[i] === null);
    for (const [key, bs] of right) {
      const as = left.get(key);
      if (as?.length !== 1 || bs.length !== 1) continue;
      childToParent[bs[0]!] = as[0]!;
      parentUsed.add(as[0]!);
    }
  }
}

/**
 * For each literal of `child`, the index of the same literal in `parent` (rules 1-3), or null
 * when it has no counterpart there (new, or its surroundings changed beyond recognition).
 */
export function mapLiterals(parent: ModuleFacts, child: ModuleFacts): (number | null)[] {
  const childToParent: (number | null)[] = child.literals.map(() => null);
  const parentUsed = new Set<number>();
  for (const [p, c] of alignedLiteralPairs(parent, child)) {
    if (childToParent[c] !== null || parentUsed.has(p) || parent.literals[p]!.kind !== child.literals[c]!.kind) continue;
    childToParent[c] = p;
    parentUsed.add(p);
  }
  pairByRole(parent, child, childToParent, parentUsed);
  return childToParent;
}

/** The literal whose source text spans `offset` (either edge included), with its index. */
export function literalAtOffset(facts: ModuleFacts, offset: number): { index: number; literal: LiteralFact } | undefined {
  const index = facts.literals.findIndex((l) => offset >= l.start && offset <= l.end);
  return index < 0 ? undefined : { index, literal: facts.literals[index]! };
}
