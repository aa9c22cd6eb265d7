/**
 * What the topology keeps of a TypeScript node: which nodes are tunable literals (and become
 * placeholders, with the declaration path they sit in) and which are type-only syntax that is
 * erased. Split from tsFacts.ts so the walk there reads as bookkeeping, and these rules
 * (docs/DESIGN.md, "Edit classification") can be read on their own.
 */
import type { LiteralKind, LiteralValue } from '../protocol/analysis';
import type { Ts, TsNode, TsSourceFile } from './engine';
import { hasModifier, nameText, type Named } from './tsNames';

/** Strings that name something are structure, not tunable values. */
export function isNamePosition(ts: Ts, node: TsNode): boolean {
  const K = ts.SyntaxKind;
  const parent = node.parent as (Named & { moduleSpecifier?: TsNode; expression?: TsNode; arguments?: readonly TsNode[] }) | undefined;
  if (!parent) return false;
  if (parent.name === node || parent.propertyName === node || parent.moduleSpecifier === node) return true;
  if (parent.kind === K.ExternalModuleReference) return true;
  return parent.kind === K.CallExpression && parent.expression?.kind === K.ImportKeyword;
}

/**
 * A literal inside a table that initialises a named unit gets the path into it
 * (`Policy.weights[2]`, `GAINS.kp`); inline arrays inside a method keep the method's name.
 */
export function literalScope(ts: Ts, sf: TsSourceFile, node: TsNode, scope: string | null): { scope: string | null; slot: boolean } {
  const K = ts.SyntaxKind;
  if (scope === null) return { scope: null, slot: false };
  let suffix = '';
  let cur = node;
  for (let p = cur.parent; p; p = cur.parent) {
    if (p.kind === K.ArrayLiteralExpression) suffix = `[${(p as TsNode & { elements: readonly TsNode[] }).elements.indexOf(cur)}]${suffix}`;
    else if (p.kind === K.PropertyAssignment && (p as TsNode & { initializer: TsNode }).initializer === cur) suffix = `.${nameText(ts, sf, (p as Named).name)}${suffix}`;
    else if (p.kind !== K.ObjectLiteralExpression && p.kind !== K.ParenthesizedExpression && p.kind !== K.AsExpression && p.kind !== K.SatisfiesExpression) break;
    cur = p;
  }
  const owner = cur.parent as (TsNode & { initializer?: TsNode }) | undefined;
  const initialises = owner && (owner.kind === K.VariableDeclaration || owner.kind === K.PropertyDeclaration) && owner.initializer === cur;
  return suffix !== '' && initialises ? { scope: `${scope}${suffix}`, slot: true } : { scope, slot: false };
}

/** The literal a node is (its placeholder kind and value), or null when it is not a tunable literal. */
export function literalOf(ts: Ts, node: TsNode): { kind: LiteralKind; value: LiteralValue } | null {
  const K = ts.SyntaxKind;
  switch (node.kind) {
    case K.NumericLiteral:
      if (isNamePosition(ts, node)) return null;
      return { kind: 'number', value: Number((node as TsNode & { text: string }).text) };
    case K.BigIntLiteral:
      return { kind: 'bigint', value: (node as TsNode & { text: string }).text };
    case K.StringLiteral:
    case K.NoSubstitutionTemplateLiteral:
    case K.TemplateHead:
    case K.TemplateMiddle:
    case K.TemplateTail:
      if (isNamePosition(ts, node)) return null;
      return { kind: 'string', value: (node as TsNode & { text: string }).text };
    case K.TrueKeyword:
    case K.FalseKeyword:
      return { kind: 'boolean', value: node.kind === K.TrueKeyword };
    case K.PrefixUnaryExpression: {
      const u = node as TsNode & { operator: number; operand: TsNode };
      if (u.operator !== K.MinusToken || u.operand.kind !== K.NumericLiteral) return null;
      return { kind: 'number', value: -Number((u.operand as TsNode & { text: string }).text) };
    }
    default:
      return null;
  }
}

/** Type-only syntax: erased before running, so it is no part of the topology. */
export function isErased(ts: Ts, sf: TsSourceFile, node: TsNode): boolean {
  const K = ts.SyntaxKind;
  const k = node.kind;
  if (k === K.ExpressionWithTypeArguments) return false;
  if (ts.isTypeNode(node)) return true;
  switch (k) {
    case K.InterfaceDeclaration:
    case K.TypeAliasDeclaration:
    case K.TypeParameter:
    case K.IndexSignature:
    case K.QuestionToken:
    case K.ColonToken:
    case K.ExclamationToken:
    case K.AbstractKeyword:
    case K.DeclareKeyword:
    case K.OverrideKeyword:
    case K.ExportKeyword:
      // `export` changes what other modules may import, which the import diff reports; a
      // function that moves to its own module gains it without changing.
      return true;
    case K.PublicKeyword:
    case K.PrivateKeyword:
    case K.ProtectedKeyword:
    case K.ReadonlyKeyword:
      // On a constructor parameter these create a field, which is behaviour.
      return node.parent?.kind !== K.Parameter;
    case K.HeritageClause:
      return (node as TsNode & { token: number }).token === K.ImplementsKeyword;
    case K.ImportDeclaration:
      return (node as TsNode & { importClause?: { isTypeOnly: boolean } }).importClause?.isTypeOnly === true;
    case K.ImportSpecifier:
    case K.ExportSpecifier:
    case K.ExportDeclaration:
    case K.ImportEqualsDeclaration:
      return (node as TsNode & { isTypeOnly?: boolean }).isTypeOnly === true;
    case K.Parameter:
      return (node as Named).name?.getText(sf) === 'this';
    case K.FunctionDeclaration:
    case K.MethodDeclaration:
    case K.Constructor:
      // Overload signatures have no body.
      return (node as TsNode & { body?: TsNode }).body === undefined;
    default:
      return hasModifier(node, K.DeclareKeyword);
  }
}
