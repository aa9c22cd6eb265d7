/**
 * Where a bundle gets coverage probes: the start of every function body, both arms of every
 * `if` and `?:`, every `case`, loop body, `catch` block and the right operand of `&&`, `||` and
 * `??`, in the policy's own code (positions the bundle's source map sends to a `policy/` file;
 * esbuild's helpers get none). Host and worker find them with the same function on the same
 * bundle, so a probe id means the same place on both sides.
 *
 * V8's own block coverage would need an inspector session, which Node's permission model (the
 * worker's sandbox) refuses; so the bundle is instrumented instead (instrument.ts).
 */
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import { fullAncestor } from 'acorn-walk';
import type { CoverageProbe, ProbeKind } from '../../protocol/attribution';
import { parseBundle, type Node } from '../worker/syntax';

/** A probe as the instrumenter needs it: where its counter write goes, and how. */
export interface ProbeSite {
  kind: ProbeKind;
  /** Offsets in the bundle of the marked code (a statement, block or expression). */
  start: number;
  end: number;
  /**
   * `block`: the write goes right after `{` at `start` (or after the body's directives, at
   * `insertAt`); `statement`: the marked statement is wrapped in a block; `expression`: the
   * marked expression becomes `(write, expression)`.
   */
  form: 'block' | 'statement' | 'expression';
  insertAt: number;
  function?: string;
}

export interface BundleProbes {
  sites: ProbeSite[];
  /** The sites mapped to `policy/` sources, in the same order (ids are indices). */
  probes: CoverageProbe[];
}

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);
const LOOPS = new Set(['ForStatement', 'ForInStatement', 'ForOfStatement', 'WhileStatement', 'DoWhileStatement']);

/** The probes of a bundle, in source order; none when it has no inline source map or does not parse. */
export function bundleProbes(code: string): BundleProbes {
  const map = inlineSourceMap(code);
  if (!map) return { sites: [], probes: [] };
  let program: Node;
  try {
    program = parseBundle(code);
  } catch {
    return { sites: [], probes: [] };
  }
  const lines = lineStarts(code);
  const found: ProbeSite[] = [];
  fullAncestor(program as never, (raw, _state, ancestors) => {
    const node = raw as unknown as Node;
    const fn = (): string | undefined => enclosingFunctionName(ancestors as unknown as Node[]);
    if (FUNCTIONS.has(node.type)) {
      if (isExportGetter(node, ancestors as unknown as Node[])) return;
      const body = node['body'] as Node;
      found.push(bodySite('function', body, nameOfFunction(node, ancestors as unknown as Node[])));
    } else if (node.type === 'IfStatement') {
      found.push(bodySite('then', node['consequent'] as Node, fn()));
      const alt = node['alternate'] as Node | null;
      if (alt) found.push(bodySite('else', alt, fn()));
    } else if (node.type === 'ConditionalExpression') {
      found.push(expressionSite('ternary-then', node['consequent'] as Node, fn()));
      found.push(expressionSite('ternary-else', node['alternate'] as Node, fn()));
    } else if (node.type === 'LogicalExpression') {
      found.push(expressionSite('right-operand', node['right'] as Node, fn()));
    } else if (node.type === 'SwitchCase') {
      const first = (node['consequent'] as Node[])[0];
      if (first) found.push({ kind: 'case', start: node.start, end: end(node), form: 'block', insertAt: first.start, function: fn() });
    } else if (LOOPS.has(node.type)) {
      found.push(bodySite('loop', node['body'] as Node, fn()));
    } else if (node.type === 'CatchClause') {
      found.push(bodySite('catch', node['body'] as Node, fn()));
    }
  });
  found.sort((a, b) => a.insertAt - b.insertAt || a.start - b.start);
  const sites: ProbeSite[] = [];
  const probes: CoverageProbe[] = [];
  for (const site of found) {
    const from = originalAt(map, lines, site.start);
    if (!from) continue;
    const to = originalAt(map, lines, Math.max(site.start, site.end - 1));
    const probe: CoverageProbe = { id: probes.length, kind: site.kind, file: from.file, line: from.line, column: from.column, endLine: to && to.file === from.file && to.line >= from.line ? to.line : from.line };
    if (site.function !== undefined) probe.function = site.function;
    sites.push(site);
    probes.push(probe);
  }
  return { sites, probes };
}

/** esbuild's `__export(exports, { Name: () => Name })`: its own code, though mapped to the `export` line. */
function isExportGetter(node: Node, ancestors: Node[]): boolean {
  const call = ancestors[ancestors.length - 4];
  const callee = call?.type === 'CallExpression' ? (call['callee'] as Node) : undefined;
  return node.type === 'ArrowFunctionExpression' && callee?.type === 'Identifier' && callee['name'] === '__export' && ancestors[ancestors.length - 2]?.type === 'Property';
}

function end(node: Node): number {
  return node['end'] as number;
}

function bodySite(kind: ProbeKind, body: Node, fn: string | undefined): ProbeSite {
  if (body.type !== 'BlockStatement') return body.type.endsWith('Statement') || body.type.endsWith('Declaration') ? { kind, start: body.start, end: end(body), form: 'statement', insertAt: body.start, function: fn } : expressionSite(kind, body, fn);
  // A write before a directive would turn the directive into a plain string statement.
  let insertAt = body.start + 1;
  for (const s of body['body'] as Node[]) {
    if (s.type !== 'ExpressionStatement' || typeof s['directive'] !== 'string') break;
    insertAt = end(s);
  }
  return { kind, start: body.start, end: end(body), form: 'block', insertAt, function: fn };
}

function expressionSite(kind: ProbeKind, expr: Node, fn: string | undefined): ProbeSite {
  return { kind, start: expr.start, end: end(expr), form: 'expression', insertAt: expr.start, function: fn };
}

/** `Class.method`, `name` of a declaration or of the variable or property it is assigned to, else undefined. */
function nameOfFunction(node: Node, ancestors: Node[]): string | undefined {
  const own = node['id'] as Node | null | undefined;
  if (own?.type === 'Identifier') return own['name'] as string;
  const parent = ancestors[ancestors.length - 2];
  if (!parent) return undefined;
  if (parent.type === 'MethodDefinition' || parent.type === 'Property' || parent.type === 'PropertyDefinition') {
    const key = keyName(parent['key'] as Node);
    if (key === undefined) return undefined;
    const cls = parent.type === 'Property' ? undefined : className(ancestors.slice(0, -2));
    return cls ? `${cls}.${key}` : key;
  }
  if (parent.type === 'VariableDeclarator') {
    const id = parent['id'] as Node;
    return id.type === 'Identifier' ? (id['name'] as string) : undefined;
  }
  return undefined;
}

function keyName(key: Node): string | undefined {
  if (key.type === 'Identifier' || key.type === 'PrivateIdentifier') return key['name'] as string;
  if (key.type === 'Literal') return String(key['value']);
  return undefined;
}

/** The class a method belongs to: `class X {}` or `var X = class {}` (esbuild's form). */
function className(ancestors: Node[]): string | undefined {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const a = ancestors[i] as Node;
    if (a.type !== 'ClassDeclaration' && a.type !== 'ClassExpression') continue;
    const id = a['id'] as Node | null;
    if (id?.type === 'Identifier') return id['name'] as string;
    const up = ancestors[i - 1];
    return up?.type === 'VariableDeclarator' && (up['id'] as Node).type === 'Identifier' ? ((up['id'] as Node)['name'] as string) : undefined;
  }
  return undefined;
}

function enclosingFunctionName(ancestors: Node[]): string | undefined {
  for (let i = ancestors.length - 2; i >= 0; i--) {
    const a = ancestors[i] as Node;
    if (FUNCTIONS.has(a.type)) return nameOfFunction(a, ancestors.slice(0, i + 1));
  }
  return undefined;
}

function inlineSourceMap(code: string): TraceMap | null {
  const m = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/.exec(code);
  if (!m?.[1]) return null;
  try {
    return new TraceMap(Buffer.from(m[1], 'base64').toString('utf8'));
  } catch {
    return null;
  }
}

function lineStarts(code: string): number[] {
  const starts = [0];
  for (let i = code.indexOf('\n'); i >= 0; i = code.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The `policy/` position an offset of the bundle maps to, or null (esbuild's helpers, other files). */
function originalAt(map: TraceMap, lines: number[], offset: number): { file: string; line: number; column: number } | null {
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((lines[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  const pos = originalPositionFor(map, { line: lo + 1, column: offset - (lines[lo] as number) });
  if (pos.source === null || pos.line === null) return null;
  const file = pos.source.replace(/^(\.\.?\/)+/, '');
  if (!file.startsWith('policy/')) return null;
  return { file, line: pos.line, column: (pos.column ?? 0) + 1 };
}
