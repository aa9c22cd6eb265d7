/**
 * Naming in a TypeScript module: the named units a node opens (`Policy.act`), display names
 * of declarations and call targets, and the imports a statement records. Split from
 * tsFacts.ts so the walk there holds only its bookkeeping; none of these keep state.
 */
import type { UnitKind } from '../protocol/analysis';
import type { Ts, TsNode, TsSourceFile } from './engine';

export type Named = TsNode & { name?: TsNode; propertyName?: TsNode };

export function nameText(ts: Ts, sf: TsSourceFile, name: TsNode | undefined): string {
  if (!name) return 'default';
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return `[${name.getText(sf)}]`;
}

export function isFunctionValue(ts: Ts, node: TsNode | undefined): boolean {
  const K = ts.SyntaxKind;
  return !!node && (node.kind === K.ArrowFunction || node.kind === K.FunctionExpression);
}

export function isFunctionLike(ts: Ts, k: number): boolean {
  const K = ts.SyntaxKind;
  return k === K.FunctionDeclaration || k === K.FunctionExpression || k === K.ArrowFunction || k === K.MethodDeclaration || k === K.Constructor || k === K.GetAccessor || k === K.SetAccessor;
}

export function hasModifier(node: TsNode, kind: number): boolean {
  return (node as TsNode & { modifiers?: readonly TsNode[] }).modifiers?.some((m) => m.kind === kind) ?? false;
}

/** The named unit a node opens, if any (`className`: the class the walk is inside, or null). */
export function unitOf(ts: Ts, sf: TsSourceFile, node: TsNode, className: string | null): { kind: UnitKind; name: string; topLevel: boolean } | null {
  const K = ts.SyntaxKind;
  const parent = node.parent;
  switch (node.kind) {
    case K.FunctionDeclaration:
      return parent?.kind === K.SourceFile ? { kind: 'function', name: nameText(ts, sf, (node as Named).name), topLevel: true } : null;
    case K.ClassDeclaration:
      return parent?.kind === K.SourceFile ? { kind: 'class', name: nameText(ts, sf, (node as Named).name), topLevel: true } : null;
    case K.VariableDeclaration: {
      const statement = parent?.parent;
      if (statement?.kind !== K.VariableStatement || statement.parent?.kind !== K.SourceFile) return null;
      const init = (node as TsNode & { initializer?: TsNode }).initializer;
      return { kind: isFunctionValue(ts, init) ? 'function' : 'variable', name: (node as Named).name!.getText(sf), topLevel: true };
    }
    case K.MethodDeclaration:
    case K.Constructor:
    case K.GetAccessor:
    case K.SetAccessor:
    case K.PropertyDeclaration: {
      if (className === null || parent?.kind !== K.ClassDeclaration) return null;
      const member = node.kind === K.Constructor ? 'constructor' : nameText(ts, sf, (node as Named).name);
      const init = (node as TsNode & { initializer?: TsNode }).initializer;
      const kind: UnitKind = node.kind === K.PropertyDeclaration && !isFunctionValue(ts, init) ? 'field' : 'method';
      return { kind, name: `${className}.${member}`, topLevel: false };
    }
    default:
      return null;
  }
}

export function calleeName(ts: Ts, e: TsNode): string {
  const K = ts.SyntaxKind;
  switch (e.kind) {
    case K.Identifier:
    case K.PrivateIdentifier:
      return (e as TsNode & { text: string }).text;
    case K.ThisKeyword:
      return 'this';
    case K.SuperKeyword:
      return 'super';
    case K.PropertyAccessExpression: {
      const p = e as TsNode & { expression: TsNode; name: TsNode & { text: string } };
      return `${calleeName(ts, p.expression)}.${p.name.text}`;
    }
    case K.ElementAccessExpression:
      return `${calleeName(ts, (e as TsNode & { expression: TsNode }).expression)}[]`;
    case K.CallExpression:
      return `${calleeName(ts, (e as TsNode & { expression: TsNode }).expression)}()`;
    case K.ParenthesizedExpression:
    case K.NonNullExpression:
    case K.AsExpression:
      return calleeName(ts, (e as TsNode & { expression: TsNode }).expression);
    default:
      return '<expression>';
  }
}

/**
 * Adds a node's module specifiers to `specifiers` and what it imports to `imports`
 * (`erased`: whether the node is type-only, whose specifier counts but whose names do not).
 */
export function recordImports(
  ts: Ts,
  sf: TsSourceFile,
  node: TsNode,
  erased: (node: TsNode) => boolean,
  imports: { from: string; name: string }[],
  specifiers: string[],
): void {
  const K = ts.SyntaxKind;
  if (node.kind === K.ImportDeclaration || node.kind === K.ExportDeclaration) {
    const spec = (node as TsNode & { moduleSpecifier?: TsNode }).moduleSpecifier;
    if (!spec || !ts.isStringLiteral(spec)) return;
    specifiers.push(spec.text);
    if (erased(node)) return;
    const from = spec.text;
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      if (!clause) imports.push({ from, name: '' });
      else {
        if (clause.name) imports.push({ from, name: 'default' });
        const nb = clause.namedBindings;
        if (nb && ts.isNamespaceImport(nb)) imports.push({ from, name: '*' });
        else if (nb) for (const s of nb.elements) if (!s.isTypeOnly) imports.push({ from, name: (s.propertyName ?? s.name).text });
      }
    } else if (ts.isExportDeclaration(node)) {
      const clause = node.exportClause;
      if (!clause || !ts.isNamedExports(clause)) imports.push({ from, name: '*' });
      else for (const s of clause.elements) if (!s.isTypeOnly) imports.push({ from, name: (s.propertyName ?? s.name).getText(sf) });
    }
  } else if (node.kind === K.CallExpression) {
    const call = node as TsNode & { expression: TsNode; arguments: readonly TsNode[] };
    const arg = call.arguments[0];
    if (call.expression.kind === K.ImportKeyword && arg && ts.isStringLiteral(arg)) {
      specifiers.push(arg.text);
      imports.push({ from: arg.text, name: '*' });
    }
  } else if (node.kind === K.ExternalModuleReference) {
    const e = (node as TsNode & { expression: TsNode }).expression;
    if (ts.isStringLiteral(e)) {
      specifiers.push(e.text);
      imports.push({ from: e.text, name: 'default' });
    }
  }
}
