/**
 * Whether a bundle's module code may run once per realm and serve all of its episodes, instead
 * of once per episode.
 *
 * Running the module again for every episode gives each episode fresh module state, but also a
 * fresh `Policy` class, and V8 keys property access on the class: after four episodes every
 * `this.field` in the policy's methods goes megamorphic (a policy that keeps a small history in
 * fields ran ~4× slower per step than with one class). A module whose top level only declares
 * constants, functions and classes has no state to renew, so it is evaluated once and its
 * values are then frozen (`seal`), which keeps it that way: episodes still cannot pass anything
 * to each other, and the outcome of an episode does not depend on which ran before it.
 *
 * The check is syntactic and conservative, on the esbuild IIFE (one scope for all modules):
 * every top-level statement must be a declaration whose initializer cannot create state or
 * depend on the episode (literals, functions, classes without static blocks, arithmetic, calls
 * of `Math` functions other than `random`), and no code anywhere may assign a top-level
 * binding, write into a top-level value or call a mutating method on it. Everything else runs
 * the module per episode, as before. A write that slips past (through an alias) throws on the
 * frozen value, and the episode is run again in a fresh realm of its own (see episode.ts), like
 * a write to a frozen built-in.
 */
import { parse } from 'acorn';

/** The parameter the module function gets its seal function through. */
export const SEAL_PARAMETER = '__policyforge_seal';

export type ModulePlan = (
  /** `code` calls SEAL_PARAMETER with every top-level value before returning the exports. */
  | { reuse: true; code: string }
  | { reuse: false; reason: string }
) & {
  /**
   * False when the code never names `globalThis`: bundles are strict and run inside a function,
   * so that is the only way to reach the global object (no sloppy `this`, no string code), and
   * such a policy cannot leave globals behind for the host to look for before each episode.
   */
  mayAddGlobals: boolean;
};

interface Node {
  type: string;
  start: number;
  [key: string]: unknown;
}

/** Methods that change the array, map, set or typed array they are called on. */
const MUTATORS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin', 'set', 'add', 'delete', 'clear']);
/** esbuild's own top-level statements: `__export(module_exports, {...})`. */
const ESBUILD_CALLS = new Set(['__export']);

class Impure extends Error {}

export function planModule(code: string): ModulePlan {
  let program: Node;
  try {
    program = parse(code, { ecmaVersion: 'latest', sourceType: 'script' }) as unknown as Node;
  } catch (e) {
    return { reuse: false, reason: `the bundle did not parse: ${e instanceof Error ? e.message : String(e)}`, mayAddGlobals: true };
  }
  const mayAddGlobals = namesGlobalThis(program) || !isStrict(program);
  return { ...sharing(code, program), mayAddGlobals };
}

function sharing(code: string, program: Node): { reuse: true; code: string } | { reuse: false; reason: string } {
  try {
    const body = moduleBody(program);
    const names = topLevelNames(body);
    if (names.has(SEAL_PARAMETER)) throw new Impure(`the module declares ${SEAL_PARAMETER}`);
    let returnAt = -1;
    body.forEach((statement, i) => {
      if (statement.type === 'ReturnStatement') {
        if (i !== body.length - 1) throw new Impure('a return before the end of the module');
        returnAt = statement.start;
      } else {
        checkTopLevel(statement);
      }
    });
    if (returnAt < 0) throw new Impure('the module returns no exports');
    walk(program, (node) => checkMutation(node, names));
    const seal = `${SEAL_PARAMETER}([${[...names].join(', ')}]); `;
    return { reuse: true, code: code.slice(0, returnAt) + seal + code.slice(returnAt) };
  } catch (e) {
    if (e instanceof Impure) return { reuse: false, reason: e.message };
    throw e;
  }
}

function isStrict(program: Node): boolean {
  const first = (program['body'] as Node[])[0];
  return first?.type === 'ExpressionStatement' && first['directive'] === 'use strict';
}

/** Whether the identifier `globalThis` occurs (a property named so, `x.globalThis`, does not count). */
function namesGlobalThis(program: Node): boolean {
  let found = false;
  walk(program, (node, parent) => {
    if (node.type !== 'Identifier' || node['name'] !== 'globalThis') return;
    const isPropertyName = parent !== undefined && ((parent.type === 'MemberExpression' && parent['property'] === node && !parent['computed']) || (parent.type === 'Property' && parent['key'] === node && !parent['computed']) || ((parent.type === 'MethodDefinition' || parent.type === 'PropertyDefinition') && parent['key'] === node && !parent['computed']));
    if (!isPropertyName) found = true;
  });
  return found;
}

/** The statements of `var __policyforge_module = (() => { … })();`. */
function moduleBody(program: Node): Node[] {
  const statements = (program['body'] as Node[]).filter((s) => !(s.type === 'ExpressionStatement' && typeof s['directive'] === 'string'));
  const decl = statements[0];
  if (statements.length !== 1 || decl?.type !== 'VariableDeclaration') throw new Impure('not an esbuild IIFE bundle');
  const init = (decl['declarations'] as Node[])[0]?.['init'] as Node | undefined;
  const fn = init?.type === 'CallExpression' ? (init['callee'] as Node) : undefined;
  const block = fn?.type === 'ArrowFunctionExpression' || fn?.type === 'FunctionExpression' ? (fn['body'] as Node) : undefined;
  if (block?.type !== 'BlockStatement') throw new Impure('not an esbuild IIFE bundle');
  return block['body'] as Node[];
}

function topLevelNames(body: Node[]): Set<string> {
  const names = new Set<string>();
  for (const s of body) {
    if (s.type === 'VariableDeclaration') {
      for (const d of s['declarations'] as Node[]) {
        const id = d['id'] as Node;
        if (id.type !== 'Identifier') throw new Impure('a destructuring declaration at the top level');
        names.add(id['name'] as string);
      }
    } else if ((s.type === 'FunctionDeclaration' || s.type === 'ClassDeclaration') && s['id']) {
      names.add((s['id'] as Node)['name'] as string);
    }
  }
  return names;
}

function checkTopLevel(s: Node): void {
  switch (s.type) {
    case 'EmptyStatement':
    case 'FunctionDeclaration':
      return;
    case 'ClassDeclaration':
      return checkClass(s);
    case 'VariableDeclaration':
      for (const d of s['declarations'] as Node[]) if (d['init']) checkPure(d['init'] as Node);
      return;
    case 'ExpressionStatement': {
      const e = s['expression'] as Node;
      if (e.type === 'CallExpression' && (e['callee'] as Node).type === 'Identifier' && ESBUILD_CALLS.has((e['callee'] as Node)['name'] as string)) return;
      if (typeof s['directive'] === 'string') return;
      throw new Impure(`a top-level statement that runs code (${e.type})`);
    }
    default:
      throw new Impure(`a top-level ${s.type}`);
  }
}

/** An expression evaluated once at module load whose value holds no state of its own. */
function checkPure(e: Node): void {
  switch (e.type) {
    case 'Literal':
    case 'Identifier':
    case 'ThisExpression':
    case 'ArrowFunctionExpression':
    case 'FunctionExpression':
      return;
    case 'TemplateLiteral':
      return (e['expressions'] as Node[]).forEach(checkPure);
    case 'ClassExpression':
      return checkClass(e);
    case 'MemberExpression':
      checkPure(e['object'] as Node);
      if (e['computed']) checkPure(e['property'] as Node);
      return;
    case 'ArrayExpression':
      for (const el of e['elements'] as (Node | null)[]) if (el) checkPure(el.type === 'SpreadElement' ? (el['argument'] as Node) : el);
      return;
    case 'ObjectExpression':
      for (const p of e['properties'] as Node[]) {
        if (p.type === 'SpreadElement') checkPure(p['argument'] as Node);
        else {
          if (p['computed']) checkPure(p['key'] as Node);
          checkPure(p['value'] as Node);
        }
      }
      return;
    case 'UnaryExpression':
      if (e['operator'] === 'delete') throw new Impure('delete at the top level');
      return checkPure(e['argument'] as Node);
    case 'BinaryExpression':
    case 'LogicalExpression':
      checkPure(e['left'] as Node);
      return checkPure(e['right'] as Node);
    case 'ConditionalExpression':
      checkPure(e['test'] as Node);
      checkPure(e['consequent'] as Node);
      return checkPure(e['alternate'] as Node);
    case 'SequenceExpression':
      return (e['expressions'] as Node[]).forEach(checkPure);
    case 'CallExpression': {
      // Math functions give the same number every time; Math.random would differ by episode.
      const callee = e['callee'] as Node;
      const object = callee['object'] as Node | undefined;
      const property = callee['property'] as Node | undefined;
      const mathCall = callee.type === 'MemberExpression' && !callee['computed'] && object?.type === 'Identifier' && object['name'] === 'Math' && property?.['name'] !== 'random';
      if (!mathCall) throw new Impure('a call at the top level (its result may hold state)');
      return (e['arguments'] as Node[]).forEach(checkPure);
    }
    default:
      throw new Impure(`a top-level ${e.type}`);
  }
}

function checkClass(c: Node): void {
  if (c['superClass']) checkPure(c['superClass'] as Node);
  for (const member of (c['body'] as Node)['body'] as Node[]) {
    if (member.type === 'StaticBlock') throw new Impure('a static block');
    if (member.type === 'PropertyDefinition') {
      if (member['computed']) checkPure(member['key'] as Node);
      if (member['static'] && member['value']) checkPure(member['value'] as Node);
    } else if (member.type !== 'MethodDefinition') {
      throw new Impure(`a class member of kind ${member.type}`);
    }
  }
}

/** The top-level binding an assignment target or call receiver leads back to, if any. */
function rootName(target: Node): string | undefined {
  let n = target;
  while (n.type === 'MemberExpression') n = n['object'] as Node;
  return n.type === 'Identifier' ? (n['name'] as string) : undefined;
}

function checkTarget(target: Node, names: Set<string>): void {
  if (target.type === 'ArrayPattern') {
    for (const el of target['elements'] as (Node | null)[]) if (el) checkTarget(el, names);
    return;
  }
  if (target.type === 'ObjectPattern') {
    for (const p of target['properties'] as Node[]) checkTarget((p.type === 'RestElement' ? p['argument'] : p['value']) as Node, names);
    return;
  }
  if (target.type === 'RestElement' || target.type === 'AssignmentPattern') return checkTarget((target['argument'] ?? target['left']) as Node, names);
  const root = rootName(target);
  if (root !== undefined && names.has(root)) {
    throw new Impure(target.type === 'Identifier' ? `module-level ${root} is reassigned` : `module-level ${root} is written into`);
  }
}

function checkMutation(node: Node, names: Set<string>): void {
  switch (node.type) {
    case 'AssignmentExpression':
      return checkTarget(node['left'] as Node, names);
    case 'UpdateExpression':
      return checkTarget(node['argument'] as Node, names);
    case 'UnaryExpression':
      if (node['operator'] === 'delete') checkTarget(node['argument'] as Node, names);
      return;
    case 'ForInStatement':
    case 'ForOfStatement': {
      const left = node['left'] as Node;
      if (left.type !== 'VariableDeclaration') checkTarget(left, names);
      return;
    }
    case 'CallExpression': {
      const callee = node['callee'] as Node;
      if (callee.type !== 'MemberExpression') return;
      const property = callee['property'] as Node;
      const method = callee['computed'] ? undefined : (property['name'] as string | undefined);
      const root = rootName(callee['object'] as Node);
      if (root !== undefined && names.has(root) && (method === undefined || MUTATORS.has(method))) {
        throw new Impure(`module-level ${root} may be changed by .${method ?? '[…]'}()`);
      }
      return;
    }
  }
}

function walk(node: Node, visit: (n: Node, parent: Node | undefined) => void, parent?: Node): void {
  visit(node, parent);
  for (const key of Object.keys(node)) {
    const v = node[key];
    if (Array.isArray(v)) {
      for (const c of v) if (c && typeof c === 'object' && typeof (c as Node).type === 'string') walk(c as Node, visit, node);
    } else if (v && typeof v === 'object' && typeof (v as Node).type === 'string') {
      walk(v as Node, visit, node);
    }
  }
}
