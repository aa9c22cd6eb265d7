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
 */
import { createHash } from 'node:crypto';
import type { ControlFlowKind, LiteralKind, LiteralValue, Rename, UnitKind } from '../protocol/analysis';
import type { Ts, TsNode, TsSourceFile } from './engine';
import { Counter, PLACEHOLDER, type LiteralFact, type ModuleFacts, type UnitFact } from './facts';
import { countSourceLines, syntaxErrors } from './sourceLines';

type Named = TsNode & { name?: TsNode; propertyName?: TsNode };

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
  const controlFlow = new Counter();
  const calls = new Counter();
  const fields = new Map<string, Set<string>>();
  const imports: { from: string; name: string }[] = [];
  const specifiers: string[] = [];
  const setAside: { start: number; end: number }[] = [];
  const declared = new Map<string, Rename['declares']>();
  const complexities: number[] = [];
  let branches = 0;
  let loops = 0;
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

  const nameText = (name: TsNode | undefined): string => {
    if (!name) return 'default';
    if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
    return `[${name.getText(sf)}]`;
  };

  const isFunctionValue = (node: TsNode | undefined): boolean =>
    !!node && (node.kind === K.ArrowFunction || node.kind === K.FunctionExpression);

  /** The named unit a node opens, if any. */
  const unitOf = (node: TsNode): { kind: UnitKind; name: string; topLevel: boolean } | null => {
    const parent = node.parent;
    switch (node.kind) {
      case K.FunctionDeclaration:
        return parent?.kind === K.SourceFile ? { kind: 'function', name: nameText((node as Named).name), topLevel: true } : null;
      case K.ClassDeclaration:
        return parent?.kind === K.SourceFile ? { kind: 'class', name: nameText((node as Named).name), topLevel: true } : null;
      case K.VariableDeclaration: {
        const statement = parent?.parent;
        if (statement?.kind !== K.VariableStatement || statement.parent?.kind !== K.SourceFile) return null;
        const init = (node as TsNode & { initializer?: TsNode }).initializer;
        return { kind: isFunctionValue(init) ? 'function' : 'variable', name: (node as Named).name!.getText(sf), topLevel: true };
      }
      case K.MethodDeclaration:
      case K.Constructor:
      case K.GetAccessor:
      case K.SetAccessor:
      case K.PropertyDeclaration: {
        if (className === null || parent?.kind !== K.ClassDeclaration) return null;
        const member = node.kind === K.Constructor ? 'constructor' : nameText((node as Named).name);
        const init = (node as TsNode & { initializer?: TsNode }).initializer;
        const kind: UnitKind = node.kind === K.PropertyDeclaration && !isFunctionValue(init) ? 'field' : 'method';
        return { kind, name: `${className}.${member}`, topLevel: false };
      }
      default:
        return null;
    }
  };

  /** Strings that name something are structure, not tunable values. */
  const isNamePosition = (node: TsNode): boolean => {
    const parent = node.parent as (Named & { moduleSpecifier?: TsNode; expression?: TsNode; arguments?: readonly TsNode[] }) | undefined;
    if (!parent) return false;
    if (parent.name === node || parent.propertyName === node || parent.moduleSpecifier === node) return true;
    if (parent.kind === K.ExternalModuleReference) return true;
    return parent.kind === K.CallExpression && parent.expression?.kind === K.ImportKeyword;
  };

  /**
   * A literal inside a table that initialises a named unit gets the path into it
   * (`Policy.weights[2]`, `GAINS.kp`); inline arrays inside a method keep the method's name.
   */
  const literalScope = (node: TsNode): { scope: string | null; slot: boolean } => {
    if (scope === null) return { scope: null, slot: false };
    let suffix = '';
    let cur = node;
    for (let p = cur.parent; p; p = cur.parent) {
      if (p.kind === K.ArrayLiteralExpression) suffix = `[${(p as TsNode & { elements: readonly TsNode[] }).elements.indexOf(cur)}]${suffix}`;
      else if (p.kind === K.PropertyAssignment && (p as TsNode & { initializer: TsNode }).initializer === cur) suffix = `.${nameText((p as Named).name)}${suffix}`;
      else if (p.kind !== K.ObjectLiteralExpression && p.kind !== K.ParenthesizedExpression && p.kind !== K.AsExpression && p.kind !== K.SatisfiesExpression) break;
      cur = p;
    }
    const owner = cur.parent as (TsNode & { initializer?: TsNode }) | undefined;
    const initialises = owner && (owner.kind === K.VariableDeclaration || owner.kind === K.PropertyDeclaration) && owner.initializer === cur;
    return suffix !== '' && initialises ? { scope: `${scope}${suffix}`, slot: true } : { scope, slot: false };
  };

  const literal = (node: TsNode, kind: LiteralKind, value: LiteralValue): void => {
    literals.push({ kind, value, text: node.getText(sf), line: lineOf(node), start: node.getStart(sf), end: node.end, ...literalScope(node), token: tokens.length });
    tokens.push(PLACEHOLDER[kind]);
  };

  /** Returns true when the node was a literal (placeholder emitted). */
  const asLiteral = (node: TsNode): boolean => {
    switch (node.kind) {
      case K.NumericLiteral:
        if (isNamePosition(node)) return false;
        literal(node, 'number', Number((node as TsNode & { text: string }).text));
        return true;
      case K.BigIntLiteral:
        literal(node, 'bigint', (node as TsNode & { text: string }).text);
        return true;
      case K.StringLiteral:
      case K.NoSubstitutionTemplateLiteral:
      case K.TemplateHead:
      case K.TemplateMiddle:
      case K.TemplateTail:
        if (isNamePosition(node)) return false;
        literal(node, 'string', (node as TsNode & { text: string }).text);
        return true;
      case K.TrueKeyword:
      case K.FalseKeyword:
        literal(node, 'boolean', node.kind === K.TrueKeyword);
        return true;
      case K.PrefixUnaryExpression: {
        const u = node as TsNode & { operator: number; operand: TsNode };
        if (u.operator !== K.MinusToken || u.operand.kind !== K.NumericLiteral) return false;
        literal(node, 'number', -Number((u.operand as TsNode & { text: string }).text));
        return true;
      }
      default:
        return false;
    }
  };

  const hasModifier = (node: TsNode, kind: number): boolean =>
    (node as TsNode & { modifiers?: readonly TsNode[] }).modifiers?.some((m) => m.kind === kind) ?? false;

  /** Type-only syntax: erased before running, so it is no part of the topology. */
  const isErased = (node: TsNode): boolean => {
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
  };

  const calleeName = (e: TsNode): string => {
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
        return `${calleeName(p.expression)}.${p.name.text}`;
      }
      case K.ElementAccessExpression:
        return `${calleeName((e as TsNode & { expression: TsNode }).expression)}[]`;
      case K.CallExpression:
        return `${calleeName((e as TsNode & { expression: TsNode }).expression)}()`;
      case K.ParenthesizedExpression:
      case K.NonNullExpression:
      case K.AsExpression:
        return calleeName((e as TsNode & { expression: TsNode }).expression);
      default:
        return '<expression>';
    }
  };

  const recordImports = (node: TsNode): void => {
    if (node.kind === K.ImportDeclaration || node.kind === K.ExportDeclaration) {
      const spec = (node as TsNode & { moduleSpecifier?: TsNode }).moduleSpecifier;
      if (!spec || !ts.isStringLiteral(spec)) return;
      specifiers.push(spec.text);
      if (isErased(node)) return;
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
  };

  const cf = (kind: ControlFlowKind): void => controlFlow.add(scope, kind);

  /** Control flow, decisions and nesting; returns whether the node nests its children one level deeper. */
  const countControlFlow = (node: TsNode): boolean => {
    switch (node.kind) {
      case K.IfStatement: {
        cf('if');
        branches++;
        fn.complexity++;
        const parent = node.parent as (TsNode & { elseStatement?: TsNode }) | undefined;
        return !(parent?.kind === K.IfStatement && parent.elseStatement === node);
      }
      case K.ForStatement:
      case K.ForOfStatement:
      case K.ForInStatement:
      case K.WhileStatement:
      case K.DoStatement:
        cf(node.kind === K.ForStatement ? 'for' : node.kind === K.ForOfStatement ? 'for-of' : node.kind === K.ForInStatement ? 'for-in' : node.kind === K.WhileStatement ? 'while' : 'do-while');
        loops++;
        fn.complexity++;
        return true;
      case K.SwitchStatement:
        cf('switch');
        return true;
      case K.CaseClause:
        cf('case');
        branches++;
        fn.complexity++;
        return false;
      case K.TryStatement:
        cf('try');
        return true;
      case K.CatchClause:
        fn.complexity++;
        return false;
      case K.ConditionalExpression:
        cf('ternary');
        branches++;
        fn.complexity++;
        return false;
      case K.BinaryExpression: {
        const op = (node as TsNode & { operatorToken: TsNode }).operatorToken.kind;
        const kind: ControlFlowKind | null =
          op === K.AmpersandAmpersandToken || op === K.AmpersandAmpersandEqualsToken ? 'and'
          : op === K.BarBarToken || op === K.BarBarEqualsToken ? 'or'
          : op === K.QuestionQuestionToken || op === K.QuestionQuestionEqualsToken ? 'nullish'
          : null;
        if (kind) {
          cf(kind);
          fn.complexity++;
        }
        return false;
      }
      default:
        return false;
    }
  };

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
            addField(className, nameText((node as Named).name));
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
        if (className !== null && !hasModifier(node, K.StaticKeyword) && !isFunctionValue((node as TsNode & { initializer?: TsNode }).initializer)) {
          addField(className, nameText((node as Named).name));
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
        if (e.kind !== K.ImportKeyword) calls.add(scope, calleeName(e));
        break;
      }
      case K.NewExpression:
        calls.add(scope, `new ${calleeName((node as TsNode & { expression: TsNode }).expression)}`);
        break;
    }
  };

  const isFunctionLike = (k: number): boolean =>
    k === K.FunctionDeclaration || k === K.FunctionExpression || k === K.ArrowFunction || k === K.MethodDeclaration || k === K.Constructor || k === K.GetAccessor || k === K.SetAccessor;

  const visit = (node: TsNode): void => {
    const k = node.kind;
    if (k === K.ParenthesizedExpression || k === K.AsExpression || k === K.SatisfiesExpression || k === K.NonNullExpression || k === K.TypeAssertionExpression) {
      visit((node as TsNode & { expression: TsNode }).expression);
      return;
    }
    recordImports(node);
    if (isErased(node)) return;
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
    const unit = unitOf(node);
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
      className = nameText((node as Named).name);
    }
    const functionLike = isFunctionLike(k);
    if (functionLike) {
      functions++;
      fn = { complexity: 1 };
      depth = 0;
    }

    recordFacts(node);
    if (countControlFlow(node)) {
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
    controlFlow: controlFlow.facts(),
    calls: calls.facts(),
    fields: fieldList,
    imports,
    specifiers,
    declared,
    metrics: {
      ...lines,
      functions,
      classes,
      branches,
      loops,
      cyclomaticTotal: complexities.reduce((a, b) => a + b, 0),
      cyclomaticMax: complexities.reduce((a, b) => Math.max(a, b), 0),
      maxNestingDepth,
      stateFields: fieldList.length,
      literals: literals.length,
    },
    syntaxErrors: syntaxErrors(sf),
  };
}
