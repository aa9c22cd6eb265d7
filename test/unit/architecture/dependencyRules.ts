/**
 * The layering rules of docs/DESIGN.md, checked over real source files:
 *   protocol ← envs ← sandbox ← runner ← {cli, extension}; analysis depends only on protocol;
 *   webview-ui imports only types from protocol; only src/extension/** imports `vscode`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

export interface ImportRef {
  /** File that imports, relative to the root. */
  file: string;
  line: number;
  specifier: string;
  typeOnly: boolean;
}

export interface Violation extends ImportRef {
  rule: string;
}

/** Areas a given area may import from (besides itself and packages). */
const ALLOWED: Record<string, readonly string[]> = {
  protocol: [],
  envs: ['protocol'],
  sandbox: ['protocol', 'envs'],
  analysis: ['protocol'],
  runner: ['protocol', 'envs', 'sandbox', 'analysis'],
  agents: ['protocol', 'envs', 'sandbox', 'runner', 'analysis'],
  cli: ['protocol', 'envs', 'sandbox', 'runner', 'analysis', 'agents'],
  extension: ['protocol', 'envs', 'sandbox', 'runner', 'analysis', 'agents'],
};

export function listSourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(p);
    }
  };
  walk(path.join(root, 'src'));
  walk(path.join(root, 'webview-ui'));
  return out;
}

export function importsOf(root: string, file: string): ImportRef[] {
  const text = fs.readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const rel = path.relative(root, file).split(path.sep).join('/');
  const refs: ImportRef[] = [];
  const add = (node: ts.Node, specifier: string, typeOnly: boolean): void => {
    refs.push({ file: rel, line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1, specifier, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const allTypeNamed =
        !!clause && !clause.name && !!clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly);
      add(node, node.moduleSpecifier.text, !!clause && (clause.isTypeOnly || allTypeNamed));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node, node.moduleSpecifier.text, node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      add(node, node.moduleReference.expression.text, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0] as ts.Expression)) {
      const callee = node.expression;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      const isDynamicImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      if (isRequire || isDynamicImport) add(node, (node.arguments[0] as ts.StringLiteral).text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node, node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return refs;
}

/** `src/<area>/…` → area; `webview-ui/…` → 'webview-ui'; anything else → null. */
export function areaOf(relPath: string): string | null {
  const parts = relPath.split('/');
  if (parts[0] === 'webview-ui') return 'webview-ui';
  if (parts[0] === 'src' && parts.length > 2) return parts[1] ?? null;
  return null;
}

export function checkDependencyRules(root: string): Violation[] {
  const violations: Violation[] = [];
  for (const file of listSourceFiles(root)) {
    for (const ref of importsOf(root, file)) {
      const from = areaOf(ref.file);
      if (!from) continue;
      if (ref.specifier === 'vscode' && from !== 'extension') {
        violations.push({ ...ref, rule: `only src/extension/** may import "vscode" (${ref.file} is in ${from})` });
        continue;
      }
      if (!ref.specifier.startsWith('.')) continue;
      const target = path.relative(root, path.resolve(path.dirname(path.join(root, ref.file)), ref.specifier)).split(path.sep).join('/');
      const to = areaOf(target);
      if (!to || to === from) continue;
      if (from === 'webview-ui') {
        if (to !== 'protocol' || !ref.typeOnly) violations.push({ ...ref, rule: `webview-ui may import only types from src/protocol (imports ${target}${ref.typeOnly ? '' : ' as a value'})` });
        continue;
      }
      const allowed = ALLOWED[from];
      if (allowed && !allowed.includes(to)) violations.push({ ...ref, rule: `src/${from} must not import src/${to} (allowed: ${allowed.length ? allowed.join(', ') : 'nothing'})` });
    }
  }
  return violations;
}

export function formatViolation(v: Violation): string {
  return `${v.file}:${v.line}: import "${v.specifier}": ${v.rule}`;
}
