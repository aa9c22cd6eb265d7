/**
 * The layering rules of docs/DESIGN.md, checked over real source files:
 *   protocol ← envs ← sandbox ← runner ← {cli, extension}; analysis and stats depend only on
 *   protocol; src/protocol imports nothing but itself and zod; webview-ui imports (types and
 *   values) only from src/protocol and src/stats, and nothing a browser bundle takes in imports
 *   Node or `vscode`; only src/extension/** imports `vscode`; nothing the sandbox worker takes in
 *   loads zod or the TypeScript tools.
 */
import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
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
  sandbox: ['protocol', 'envs', 'skills'],
  skills: ['protocol', 'envs', 'stats'],
  analysis: ['protocol'],
  stats: ['protocol'],
  leaderboard: ['protocol'],
  suite: ['protocol', 'envs', 'sandbox', 'runner', 'analysis', 'agents', 'stats', 'leaderboard'],
  runner: ['protocol', 'envs', 'sandbox', 'analysis', 'stats', 'skills'],
  agents: ['protocol', 'envs', 'sandbox', 'runner', 'analysis', 'stats'],
  cli: ['protocol', 'envs', 'sandbox', 'runner', 'analysis', 'agents', 'stats', 'leaderboard', 'suite'],
  extension: ['protocol', 'envs', 'sandbox', 'runner', 'analysis', 'agents', 'stats', 'leaderboard', 'suite'],
  'webview-ui': ['protocol', 'stats'],
};

/** The only package src/protocol may import: it is shared by Node, the extension host and browser bundles. */
const PROTOCOL_PACKAGES: readonly string[] = ['zod'];

const NODE_BUILTINS = new Set(builtinModules);

/** `fs`, `node:fs`, `fs/promises`… */
export function isNodeBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || NODE_BUILTINS.has(specifier) || NODE_BUILTINS.has(specifier.split('/')[0] ?? '');
}

const packageName = (specifier: string): string => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? specifier));

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

/** The file a relative specifier names (`.ts` or `/index.ts` added), or null when there is none. */
function resolveRelative(root: string, fromRel: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(path.join(root, fromRel)), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const relativeTo = (root: string, file: string): string => path.relative(root, file).split(path.sep).join('/');

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
      if (!ref.specifier.startsWith('.')) {
        if (from === 'protocol' && !PROTOCOL_PACKAGES.includes(packageName(ref.specifier))) {
          violations.push({ ...ref, rule: `src/protocol may import only ${PROTOCOL_PACKAGES.join(', ')} (it runs in Node, the extension host and the webviews)` });
        } else if (from === 'webview-ui' && isNodeBuiltin(ref.specifier)) {
          violations.push({ ...ref, rule: 'webview-ui runs in a browser: no Node built-ins' });
        }
        continue;
      }
      const target = relativeTo(root, path.resolve(path.dirname(path.join(root, ref.file)), ref.specifier));
      const to = areaOf(target);
      if (!to || to === from) continue;
      const allowed = ALLOWED[from];
      const where = (a: string): string => (a === 'webview-ui' ? a : `src/${a}`);
      if (allowed && !allowed.includes(to)) violations.push({ ...ref, rule: `${where(from)} must not import ${where(to)} (allowed: ${allowed.length ? allowed.map(where).join(', ') : 'nothing'})` });
    }
  }
  violations.push(...checkBrowserClosure(root), ...checkWorkerClosure(root));
  return violations;
}

/** Calls `check` on each import of every module reached from `entries` through value imports (type-only imports are not bundled). */
function walkValueClosure(root: string, entries: readonly string[], check: (ref: ImportRef, file: string) => void): void {
  const seen = new Set<string>();
  const pending = [...entries];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const ref of importsOf(root, file)) {
      if (ref.typeOnly) continue;
      if (ref.specifier.startsWith('.')) {
        const next = resolveRelative(root, ref.file, ref.specifier);
        if (next !== null) pending.push(next);
      }
      check(ref, file);
    }
  }
}

/**
 * Every module a webview bundle takes in (following value imports from webview-ui/) is free of
 * Node built-ins and `vscode`, wherever it lives: a shared rule in src/stats that starts reading
 * files would otherwise break the panels only at bundle time.
 */
function checkBrowserClosure(root: string): Violation[] {
  const violations: Violation[] = [];
  const entries = listSourceFiles(root).filter((f) => areaOf(relativeTo(root, f)) === 'webview-ui');
  walkValueClosure(root, entries, (ref, file) => {
    const inWebview = areaOf(relativeTo(root, file)) === 'webview-ui';
    if (!inWebview && !ref.specifier.startsWith('.') && (ref.specifier === 'vscode' || isNodeBuiltin(ref.specifier))) {
      violations.push({ ...ref, rule: `webview-ui bundles this module, so it must not import Node built-ins or "vscode"` });
    }
  });
  return violations;
}

/** The sandbox worker's entry (dist/sandboxWorker.js is built from it). */
const WORKER_ENTRY = 'src/sandbox/worker/workerMain.ts';
/**
 * Packages no sandbox worker loads: every worker process holds what its bundle executes for
 * life, and these serve the runner's side (validating documents, analysing policies).
 */
const WORKER_FORBIDDEN_PACKAGES: readonly string[] = ['zod', 'ts-morph', 'typescript'];

/** No module the sandbox worker takes in (through any chain of value imports) loads a package of WORKER_FORBIDDEN_PACKAGES. */
function checkWorkerClosure(root: string): Violation[] {
  const entry = path.join(root, WORKER_ENTRY);
  if (!fs.existsSync(entry)) return [];
  const violations: Violation[] = [];
  walkValueClosure(root, [entry], (ref) => {
    if (!ref.specifier.startsWith('.') && WORKER_FORBIDDEN_PACKAGES.includes(packageName(ref.specifier))) {
      violations.push({ ...ref, rule: `every sandbox worker loads this module (from ${WORKER_ENTRY}), so it must not load ${packageName(ref.specifier)}: keep the schema or tool on the runner's side` });
    }
  });
  return violations;
}

export function formatViolation(v: Violation): string {
  return `${v.file}:${v.line}: import "${v.specifier}": ${v.rule}`;
}
