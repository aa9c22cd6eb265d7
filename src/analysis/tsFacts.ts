/**
 * One walk over a TypeScript module's compiler tree that yields its ModuleFacts.
 *
 * Topology rules (docs/DESIGN.md, "Edit classification"):
 * - literal values become placeholders: numbers (with a unary minus folded in), strings,
 *   template pieces, booleans, bigints; strings that name things (property names, module
 *   specifiers) stay structure;
 * - identifiers stay (so a rename changes the topology; classify.ts reports it as a rename);
 * - comments, whitespace, semicolons and redundant parentheses never appear;
 * - type-only syntax (annotations, interfaces, type aliases, `as`, `!`, access modifiers) is
 *   erased the way esbuild erases it, since it cannot change what the policy does.
 * The walk reads the raw compiler nodes (ts-morph's `compilerNode`): wrapping every node would
 * cost several times the parse.
 *
 * This file holds the walk and its bookkeeping (tokens, units, declarations, fields, calls).
 * The rules it applies live beside it: tsTokenRules.ts (literals and erased syntax),
 * tsNames.ts (units, names, imports), tsControlFlow.ts (control flow and complexity).
 */
import { createHash } from 'node:crypto';
import type { LiteralKind, LiteralValue, Rename } from '../protocol/analysis';
import type { Ts, TsNode, TsSourceFile } from './engine';
import { Counter, PLACEHOLDER, type LiteralFact, type ModuleFacts, type UnitFact } from './facts';
import { countSourceLines, syntaxErrors } from './sourceLines';
import { countControlFlow, type FlowCounts } from './tsControlFlow';
import { calleeName, hasModifier, isFunctionLike, isFunctionValue, nameText, recordImports, unitOf, type Named } from './tsNames';
import { isErased, literalOf, literalScope } from './tsTokenRules';

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function hashTokens(tokens: readonly string[], start = 0, end = tokens.length): string {
  // One update of the joined range: hashing token by token costs more than the parse.
  return createHash('sha1').update(tokens.slice(start, end).join('\u0001')).digest('hex');
}

export function extractTsFacts(ts: Ts, sf: TsSourceFile, text: string, contentHash: string): ModuleFacts {
  const K = ts.SyntaxKind;
  const tokens: string[] = [];
  const literals: LiteralFact[] = [];
  const units: (Omit<UnitFact, 'hash'> & { topLevel: boolean })[] = [];
  const calls = new Counter();
  const fields = new Map<string, Set<string>>();
  const imports: { from: string; name: string }[] = [];
  const flow: FlowCounts = { controlFlow: new Counter(), branches: 0, loops: 0 };
  const specifiers: string[] = [];
  const setAside: { start: number; end: number }[] = [];
  const declared = new Map<string, Rename['declares']>();
  const complexities: number[] = [];
  let functions = 0;
  let classes = 0;
  let maxNestingDepth = 0;

  // Walk context, saved and restored around scopes.
  let scope: string | null = null;
  let className: string | null = null;
  let fn = { complexity: 1 };
  const moduleFn = fn;
  let depth = 0;

  const kindTag: string[] = [];
  const tag = (k: number): string => (kindTag[k] ??= String(k));

  const lineOf = (node: TsNode): number => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;

  const declare = (name: TsNode | undefined, what: Rename['declares']): void => {
    if (name && (name.kind === K.Identifier || name.kind === K.PrivateIdentifier)) {
      const id = (name as TsNode & { text: string }).text;
      if (!declared.has(id)) declared.set(id, what);
    }
  };

  const addField = (cls: string, name: string): void => {
    let set = fields.get(cls);
    if (!set) fields.set(cls, (set = new Set()));
    set.add(name);
  };

  const literal = (node: TsNode, kind: LiteralKind, value: LiteralValue): void => {
    literals.push({ kind, value, text: node.getText(sf), line: lineOf(node), start: node.getStart(sf), end: node.end, ...literalScope(ts, sf, node, scope), token: tokens.length });
    tokens.push(PLACEHOLDER[kind]);
  };

  /** Returns true when the node was a literal (placeholder emitted). */
  const asLiteral = (node: TsNode): boolean => {
    const lit = literalOf(ts, node);
    if (!lit) return false;
    literal(node, lit.kind, lit.value);
    return true;
  };

  const erased = (node: TsNode): boolean => isErased(ts, sf, node);

  const recordFacts = (node: TsNode): void => {
    switch (node.kind) {
      case K.VariableDeclaration:
      case K.BindingElement:
        declare((node as Named).name, 'variable');
        break;
      case K.Parameter:
        declare((node as Named).name, 'parameter');
        if (className !== null && node.parent?.kind === K.Constructor) {
          const mods = (node as TsNode & { modifiers?: readonly TsNode[] }).modifiers ?? [];
          if (mods.some((m) => m.kind === K.PublicKeyword || m.kind === K.PrivateKeyword || m.kind === K.ProtectedKeyword || m.kind === K.ReadonlyKeyword)) {
            addField(className, nameText(ts, sf, (node as Named).name));
          }
        }
        break;
      case K.FunctionDeclaration:
        declare((node as Named).name, 'function');
        break;
      case K.ClassDeclaration:
        declare((node as Named).name, 'class');
        break;
      case K.MethodDeclaration:
        declare((node as Named).name, 'method');
        break;
      case K.PropertyDeclaration:
        declare((node as Named).name, 'field');
        if (className !== null && !hasModifier(node, K.StaticKeyword) && !isFunctionValue(ts, (node as TsNode & { initializer?: TsNode }).initializer)) {
          addField(className, nameText(ts, sf, (node as Named).name));
        }
        break;
      case K.PropertyAssignment:
      case K.ShorthandPropertyAssignment:
        declare((node as Named).name, 'property');
        break;
      case K.ImportSpecifier:
      case K.ImportClause:
      case K.NamespaceImport:
        // Bound here, declared in another module: the rename's kind comes from that module.
        declare((node as Named).name, 'unknown');
        break;
      case K.BinaryExpression: {
        const b = node as TsNode & { left: TsNode; operatorToken: TsNode };
        const op = b.operatorToken.kind;
        if (className !== null && op >= K.FirstAssignment && op <= K.LastAssignment && ts.isPropertyAccessExpression(b.left) && b.left.expression.kind === K.ThisKeyword) {
          addField(className, b.left.name.text);
        }
        break;
      }
      case K.CallExpression: {
        const e = (node as TsNode & { expression: TsNode }).expression;
        if (e.kind !== K.ImportKeyword) calls.add(scope, calleeName(ts, e));
        break;
      }
      case K.NewExpression:
        calls.add(scope, `new ${calleeName(ts, (node as TsNode & { expression: TsNode }).expression)}`);
        break;
    }
  };

  const visit = (node: TsNode): void => {
    const k = node.kind;
    if (k === K.ParenthesizedExpression || k === K.AsExpression || k === K.SatisfiesExpression || k === K.NonNullExpression || k === K.TypeAssertionExpression) {
      visit((node as TsNode & { expression: TsNode }).expression);
      return;
    }
    recordImports(ts, sf, node, erased, imports, specifiers);
    if (erased(node)) return;
    if (asLiteral(node)) return;
    if (k === K.Identifier || k === K.PrivateIdentifier) {
      // Member names after a dot get their own prefix, so renaming a local `speed` while
      // `o.speed` stays reads as the rename it is.
      const parent = node.parent as (TsNode & { name?: TsNode }) | undefined;
      const member = parent?.kind === K.PropertyAccessExpression && parent.name === node;
      tokens.push(`${member ? '.' : '$'}${(node as TsNode & { text: string }).text}`);
      return;
    }
    if (k === K.StringLiteral || k === K.NumericLiteral) {
      // A name or a module specifier: structure.
      tokens.push(`"${(node as TsNode & { text: string }).text}`);
      return;
    }

    // Imports are diffed on their own, and a top-level `const` statement is the units it declares.
    const isSetAside =
      node.parent?.kind === K.SourceFile &&
      (k === K.ImportDeclaration || k === K.VariableStatement || (k === K.ExportDeclaration && (node as TsNode & { moduleSpecifier?: TsNode }).moduleSpecifier !== undefined));
    const importStart = tokens.length;
    tokens.push(tag(k));
    if (k === K.PrefixUnaryExpression || k === K.PostfixUnaryExpression) tokens.push(`o${(node as TsNode & { operator: number }).operator}`);
    else if (k === K.VariableDeclarationList) tokens.push(`v${node.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const | ts.NodeFlags.Using)}`);
    else if (k === K.RegularExpressionLiteral) tokens.push(`r${node.getText(sf)}`);

    // Scope bookkeeping.
    const unit = unitOf(ts, sf, node, className);
    const savedScope = scope;
    const savedClass = className;
    const savedFn = fn;
    const savedDepth = depth;
    let unitIndex = -1;
    if (unit) {
      scope = unit.name;
      unitIndex = units.length;
      units.push({ kind: unit.kind, name: unit.name, start: tokens.length - 1, end: -1, nested: !unit.topLevel, topLevel: unit.topLevel });
    }
    if (k === K.ClassDeclaration || k === K.ClassExpression) {
      classes++;
      className = nameText(ts, sf, (node as Named).name);
    }
    const functionLike = isFunctionLike(ts, k);
    if (functionLike) {
      functions++;
      fn = { complexity: 1 };
      depth = 0;
    }

    recordFacts(node);
    if (countControlFlow(ts, node, scope, fn, flow)) {
      depth++;
      if (depth > maxNestingDepth) maxNestingDepth = depth;
    }
    ts.forEachChild(node, visit);
    tokens.push(')');

    if (isSetAside) setAside.push({ start: importStart, end: tokens.length });
    if (functionLike) complexities.push(fn.complexity);
    if (unit) {
      units[unitIndex]!.end = tokens.length;
    }
    scope = savedScope;
    className = savedClass;
    fn = savedFn;
    depth = savedDepth;
  };

  ts.forEachChild(sf, visit);

  // Module-level code: the tokens outside every top-level unit, import and variable statement.
  const outside: string[] = [];
  let cursor = 0;
  for (const u of [...units.filter((x) => x.topLevel), ...setAside].sort((x, y) => x.start - y.start)) {
    for (let i = cursor; i < u.start; i++) outside.push(tokens[i]!);
    cursor = Math.max(cursor, u.end);
  }
  for (let i = cursor; i < tokens.length; i++) outside.push(tokens[i]!);

  if (moduleFn.complexity > 1) complexities.push(moduleFn.complexity);
  const fieldList = [...fields].flatMap(([cls, names]) => [...names].map((name) => ({ className: cls, name })));
  const lines = countSourceLines(ts, sf, text);
  return {
    json: false,
    contentHash,
    tokens,
    topologyHash: hashTokens(tokens),
    literals,
    units: units.map(({ topLevel: _t, ...u }) => ({ ...u, hash: hashTokens(tokens, u.start, u.end) })),
    moduleCodeHash: hashTokens(outside),
    controlFlow: flow.controlFlow.facts(),
    calls: calls.facts(),
    fields: fieldList,
    imports,
    specifiers,
    declared,
    metrics: {
      ...lines,
      functions,
      classes,
      branches: flow.branches,
      loops: flow.loops,
      cyclomaticTotal: complexities.reduce((a, b) => a + b, 0),
      cyclomaticMax: complexities.reduce((a, b) => Math.max(a, b), 0),
      maxNestingDepth,
      stateFields: fieldList.length,
      literals: literals.length,
    },
    syntaxErrors: syntaxErrors(sf),
  };
}
