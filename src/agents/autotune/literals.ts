/**
 * Finds the tunable numeric literals of a policy source with ts-morph (loaded lazily: it carries
 * the TypeScript compiler). Tunable = written with a decimal point or exponent (`0.5`, `1e-3`,
 * `-2.0`); integer literals are treated as structure (indices, actions, loop bounds) and left alone.
 */
import type * as TsMorph from 'ts-morph';

export interface TunableLiteral {
  /** Source offsets of the literal, including a leading unary minus. */
  start: number;
  end: number;
  value: number;
  line: number;
}

let tsMorph: typeof TsMorph | undefined;
function loadTsMorph(): typeof TsMorph {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  tsMorph ??= require('ts-morph') as typeof TsMorph;
  return tsMorph;
}

export function findTunableLiterals(source: string): TunableLiteral[] {
  const { Project, SyntaxKind, ts } = loadTsMorph();
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { target: ts.ScriptTarget.ES2022 } });
  const file = project.createSourceFile('policy.ts', source);
  const out: TunableLiteral[] = [];
  for (const lit of file.getDescendantsOfKind(SyntaxKind.NumericLiteral)) {
    const text = lit.getText();
    if (!/[.eE]/.test(text) || /^0[xob]/i.test(text)) continue;
    const parent = lit.getParent();
    const negated = parent?.getKind() === SyntaxKind.PrefixUnaryExpression && parent.getText().startsWith('-');
    const node = negated && parent ? parent : lit;
    out.push({ start: node.getStart(), end: node.getEnd(), value: negated ? -lit.getLiteralValue() : lit.getLiteralValue(), line: lit.getStartLineNumber() });
  }
  return out;
}

/** Rewrites the literals with new values (same order as `findTunableLiterals`). */
export function applyValues(source: string, literals: readonly TunableLiteral[], values: readonly number[]): string {
  let out = source;
  // Right to left so earlier offsets stay valid.
  for (let i = literals.length - 1; i >= 0; i--) {
    const l = literals[i]!;
    out = `${out.slice(0, l.start)}${formatLiteral(values[i]!)}${out.slice(l.end)}`;
  }
  return out;
}

/** Always keeps a decimal point so the literal stays tunable on the next parse. */
export function formatLiteral(v: number): string {
  if (!Number.isFinite(v)) return '0.0';
  const s = String(Number(v.toPrecision(6)));
  return /[.eE]/.test(s) ? s : `${s}.0`;
}
