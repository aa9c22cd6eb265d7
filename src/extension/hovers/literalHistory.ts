/**
 * History of a numeric literal across checkpoints, for the hover: the literal under the cursor is
 * identified by its ordinal among the numeric literals of its file, which is stable across
 * parametric edits (same code shape, different constants). When a checkpoint's file has a
 * different number of literals (a structural edit), its ordinals are not comparable and the
 * entry says so instead of guessing. A small lexer skips strings, template text, comments and
 * regular expressions; it does not need the TypeScript compiler (hovers stay fast).
 */

export interface NumericLiteral {
  /** Offset of the first character (the minus sign when there is one). */
  start: number;
  end: number;
  text: string;
  value: number;
}

const IDENT = /[A-Za-z0-9_$]/;

function numberValue(text: string): number {
  const clean = text.replace(/_/g, '').replace(/n$/, '');
  const neg = clean.startsWith('-');
  const body = neg ? clean.slice(1).trimStart() : clean;
  const v = /^0[xob]/i.test(body) ? Number(body) : Number.parseFloat(body);
  return neg ? -v : v;
}

/** Numeric literals of a TypeScript source in order; unary minus directly before a literal is folded in. */
export function scanNumericLiterals(src: string): NumericLiteral[] {
  const out: NumericLiteral[] = [];
  let i = 0;
  // Whether a `/` here starts a regex (after an operator) or divides (after a value).
  let valueBefore = false;
  const templateDepth: number[] = [];
  let braceDepth = 0;
  while (i < src.length) {
    const c = src[i] as string;
    const next = src[i + 1];
    if (c === '/' && next === '/') {
      const nl = src.indexOf('\n', i);
      i = nl < 0 ? src.length : nl;
      continue;
    }
    if (c === '/' && next === '*') {
      const endC = src.indexOf('*/', i + 2);
      i = endC < 0 ? src.length : endC + 2;
      continue;
    }
    if (c === '"' || c === "'") {
      i++;
      while (i < src.length && src[i] !== c && src[i] !== '\n') i += src[i] === '\\' ? 2 : 1;
      i++;
      valueBefore = true;
      continue;
    }
    if (c === '`' || (c === '}' && templateDepth.length > 0 && templateDepth[templateDepth.length - 1] === braceDepth)) {
      if (c === '}') templateDepth.pop();
      i++;
      while (i < src.length && src[i] !== '`') {
        if (src[i] === '\\') i += 2;
        else if (src[i] === '$' && src[i + 1] === '{') {
          templateDepth.push(braceDepth);
          i += 2;
          break;
        } else i++;
      }
      if (src[i] === '`') {
        i++;
        valueBefore = true;
      } else valueBefore = false;
      continue;
    }
    if (c === '/' && !valueBefore) {
      i++;
      let inClass = false;
      while (i < src.length && src[i] !== '\n') {
        const r = src[i];
        if (r === '\\') i++;
        else if (r === '[') inClass = true;
        else if (r === ']') inClass = false;
        else if (r === '/' && !inClass) break;
        i++;
      }
      i++;
      while (i < src.length && IDENT.test(src[i] as string)) i++;
      valueBefore = true;
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && next !== undefined && /[0-9]/.test(next))) {
      const m = /^(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:[0-9][0-9_]*)?\.?[0-9_]*(?:[eE][+-]?[0-9_]+)?)n?/.exec(src.slice(i));
      const text = m?.[0] || c;
      let start = i;
      // Fold a unary minus in: `-0.5` in `x = -0.5` or `f(a, -2)`, not `a - 2`.
      let j = i - 1;
      while (j >= 0 && (src[j] === ' ' || src[j] === '\t')) j--;
      if (src[j] === '-' && src[j - 1] !== '-') {
        let k = j - 1;
        while (k >= 0 && /\s/.test(src[k] as string)) k--;
        const before = k >= 0 ? (src[k] as string) : '';
        if (before === '' || /[=(,:[?!&|+*/%<>{};]/.test(before) || /\breturn$/.test(src.slice(Math.max(0, k - 5), k + 1))) start = j;
      }
      const full = src.slice(start, i + text.length);
      out.push({ start, end: i + text.length, text: full, value: numberValue(full.replace(/\s+/g, '')) });
      i += text.length;
      valueBefore = true;
      continue;
    }
    if (IDENT.test(c)) {
      let j = i;
      while (j < src.length && IDENT.test(src[j] as string)) j++;
      const word = src.slice(i, j);
      valueBefore = !['return', 'typeof', 'case', 'in', 'of', 'new', 'delete', 'void', 'throw', 'else', 'yield', 'await'].includes(word);
      i = j;
      continue;
    }
    if (c === '{') braceDepth++;
    if (c === '}') braceDepth--;
    if (c === ')' || c === ']' || c === '}') valueBefore = true;
    else if (!/\s/.test(c)) valueBefore = false;
    i++;
  }
  return out;
}

/** The literal whose text spans `offset`, with its ordinal. */
export function literalAt(src: string, offset: number): { literal: NumericLiteral; ordinal: number; count: number } | undefined {
  const all = scanNumericLiterals(src);
  const ordinal = all.findIndex((l) => offset >= l.start && offset <= l.end);
  if (ordinal < 0) return undefined;
  return { literal: all[ordinal] as NumericLiteral, ordinal, count: all.length };
}

export interface CheckpointSource {
  submission: number;
  /** The same file's source in that checkpoint, or undefined when the file did not exist then. */
  source: string | undefined;
  /** Train mean of the submission and its edit class, for the hover table. */
  mean: number;
  editClass?: string;
}

export type HistoryEntry =
  | { submission: number; mean: number; editClass?: string; value: number; text: string }
  | { submission: number; mean: number; editClass?: string; value: null; reason: 'file missing' | 'different shape' };

/** Value of the literal at `ordinal` in each checkpoint, oldest first. */
export function literalHistory(ordinal: number, count: number, checkpoints: readonly CheckpointSource[]): HistoryEntry[] {
  return [...checkpoints]
    .sort((a, b) => a.submission - b.submission)
    .map((cp) => {
      const base = { submission: cp.submission, mean: cp.mean, ...(cp.editClass ? { editClass: cp.editClass } : {}) };
      if (cp.source === undefined) return { ...base, value: null, reason: 'file missing' as const };
      const lits = scanNumericLiterals(cp.source);
      const lit = lits[ordinal];
      if (lits.length !== count || !lit) return { ...base, value: null, reason: 'different shape' as const };
      return { ...base, value: lit.value, text: lit.text };
    });
}
