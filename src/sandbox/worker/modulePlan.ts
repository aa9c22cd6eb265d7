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
 * every top-level statement must be a declaration whose initializer runs no policy code and
 * cannot create state or depend on the episode (literals without getters, functions, classes
 * without static blocks or private static fields, arithmetic on primitives, calls of `Math`
 * functions other than `random`; see TopLevelScope), and no code anywhere may assign a
 * top-level binding, write into a top-level value or call a mutating method on it. Everything else runs
 * the module per episode, as before. A write that slips past (through an alias) throws on the
 * frozen value, and the episode is run again in a fresh realm of its own (see episode.ts), like
 * a write to a frozen built-in.
 */
import { actOnlyReadsObservation } from './observationUse';
import { parseBundle, visitNodes, type Node } from './syntax';
import { Impure, TopLevelScope } from './topLevelScope';

/** The parameter the module function gets its seal function through. */
export const SEAL_PARAMETER = '__policyforge_seal';

export type ModulePlan = (
  /** `code` calls SEAL_PARAMETER with every top-level value before returning the exports. */
  | {
      reuse: true;
      code: string;
      /** `act` only reads its observation during the call: one realm array may carry every step's (see observationUse.ts). */
      borrowObservation: boolean;
    }
  | { reuse: false; reason: string }
) & {
  /**
   * False when the code never names `globalThis`: bundles are strict and run inside a function,
   * so that is the only way to reach the global object (no sloppy `this`, no string code), and
   * such a policy cannot leave globals behind for the host to look for before each episode.
   */
  mayAddGlobals: boolean;
};

/** Methods that change the array, map, set or typed array they are called on. */
const MUTATORS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin', 'set', 'add', 'delete', 'clear']);

export function planModule(code: string): ModulePlan {
  let program: Node;
  try {
    program = parseBundle(code);
  } catch (e) {
    return { reuse: false, reason: `the bundle did not parse: ${e instanceof Error ? e.message : String(e)}`, mayAddGlobals: true };
  }
  const mayAddGlobals = namesGlobalThis(program) || !isStrict(program);
  return { ...sharing(code, program), mayAddGlobals };
}

type Sharing = { reuse: true; code: string; borrowObservation: boolean } | { reuse: false; reason: string };

function sharing(code: string, program: Node): Sharing {
  try {
    const body = moduleBody(program);
    const names = topLevelNames(body);
    if (names.has(SEAL_PARAMETER)) throw new Impure(`the module declares ${SEAL_PARAMETER}`);
    const scope = new TopLevelScope(code, names, body);
    let returnAt = -1;
    body.forEach((statement, i) => {
      if (statement.type === 'ReturnStatement') {
        if (i !== body.length - 1) throw new Impure('a return before the end of the module');
        returnAt = statement.start;
      } else {
        scope.statement(statement);
      }
    });
    if (returnAt < 0) throw new Impure('the module returns no exports');
    visitNodes(program, (node) => checkMutation(node, names));
    const seal = `${SEAL_PARAMETER}([${[...names].join(', ')}]); `;
    const policy = scope.policyDeclaration();
    const borrowObservation = policy !== undefined && actOnlyReadsObservation(program, policy);
    return { reuse: true, code: code.slice(0, returnAt) + seal + code.slice(returnAt), borrowObservation };
  } catch (e) {
    if (e instanceof Impure) return { reuse: false, reason: e.message };
    throw e;
  }
}

function isStrict(program: Node): boolean {
  const first = (program['body'] as Node[])[0];
  return first?.type === 'ExpressionStatement' && first['directive'] === 'use strict';
}

/** Whether the identifier `globalThis` occurs (property names such as `x.globalThis` are not identifiers to visitNodes). */
function namesGlobalThis(program: Node): boolean {
  let found = false;
  visitNodes(program, (node) => {
    if (node.type === 'Identifier' && node['name'] === 'globalThis') found = true;
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
