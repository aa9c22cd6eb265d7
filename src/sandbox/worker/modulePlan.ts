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
import { ownMathMember, parseBundle, visitNodes, type Node } from './syntax';

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
/**
 * esbuild's own helpers that run at load time, as esbuild writes them (whitespace removed). The
 * bundler renames policy code that uses these names, and the text is checked anyway: a helper
 * that reads otherwise only costs the sharing.
 */
const ESBUILD_HELPERS: ReadonlyMap<string, string> = new Map([
  ['__defProp', 'Object.defineProperty'],
  ['__export', '(target,all)=>{for(varnameinall)__defProp(target,name,{get:all[name],enumerable:true});}'],
]);
/**
 * Built-ins whose properties the top level may read (`Object.defineProperty`, `Math.PI`): the
 * realm's intrinsics are frozen before any module runs, so reading them runs no policy code.
 */
const INTRINSICS = new Set(['Object', 'Math', 'Number', 'Array', 'String', 'Symbol', 'JSON', 'Reflect', 'Float64Array', 'Float32Array', 'Int32Array', 'Uint8Array']);
/** Global names of primitive values. */
const PRIMITIVE_GLOBALS = new Set(['undefined', 'NaN', 'Infinity']);

class Impure extends Error {}

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

/**
 * What a top-level binding holds, as far as load-time code is concerned: a primitive (or a
 * frozen built-in) may be converted, data (an array or object literal) may be read from,
 * anything else only passed on.
 */
type Kind = 'primitive' | 'array' | 'data' | 'other';

/**
 * Checks the top-level statements in order. Loading the module must not run policy code (a
 * getter, a `valueOf`, a call) nor create a value that freezing cannot fix (a Map, a private
 * static field), so every expression evaluated at load time is checked in one of two contexts:
 * `primitive` (its value is coerced, or must be a primitive) and `value` (it is only stored).
 */
class TopLevelScope {
  private readonly kinds = new Map<string, Kind>();
  /** Source text of each top-level `var NAME = …` initializer. */
  private readonly initializers = new Map<string, string>();
  /** The declaration (declarator or class) of each top-level name declared once. */
  private readonly declarations = new Map<string, Node | null>();
  /** The binding esbuild exports as `Policy`. */
  private policyName: string | undefined;

  constructor(code: string, private readonly names: ReadonlySet<string>, body: readonly Node[]) {
    const declare = (name: string, node: Node): void => void this.declarations.set(name, this.declarations.has(name) ? null : node);
    for (const s of body) {
      // Function declarations are hoisted: they exist (as functions) before any statement runs.
      if (s.type === 'FunctionDeclaration' && s['id']) this.kinds.set((s['id'] as Node)['name'] as string, 'other');
      if ((s.type === 'FunctionDeclaration' || s.type === 'ClassDeclaration') && s['id']) declare((s['id'] as Node)['name'] as string, s);
      if (s.type !== 'VariableDeclaration') continue;
      for (const d of s['declarations'] as Node[]) {
        const name = (d['id'] as Node)['name'] as string;
        declare(name, d);
        const init = d['init'] as Node | null;
        if (init) this.initializers.set(name, code.slice(init.start, init['end'] as number));
      }
    }
  }

  statement(s: Node): void {
    switch (s.type) {
      case 'EmptyStatement':
      case 'FunctionDeclaration':
        return;
      case 'ClassDeclaration':
        this.checkClass(s);
        this.kinds.set((s['id'] as Node)['name'] as string, 'other');
        return;
      case 'VariableDeclaration':
        for (const d of s['declarations'] as Node[]) {
          const name = (d['id'] as Node)['name'] as string;
          const init = d['init'] as Node | null;
          const kind = init ? this.value(init) : 'primitive';
          // `var X = …; var X;` keeps the first value: a name declared twice is only passed on.
          this.kinds.set(name, this.declarations.get(name) === null ? 'other' : kind);
        }
        return;
      case 'ExpressionStatement': {
        if (typeof s['directive'] === 'string') return;
        const e = s['expression'] as Node;
        if (this.isExportCall(e)) return;
        throw new Impure(`a top-level statement that runs code (${e.type})`);
      }
      default:
        throw new Impure(`a top-level ${s.type}`);
    }
  }

  /** `__export(module_exports, { Policy: () => Policy, … })`, esbuild's own, on a module-level object. */
  private isExportCall(e: Node): boolean {
    if (e.type !== 'CallExpression' || (e['callee'] as Node).type !== 'Identifier' || (e['callee'] as Node)['name'] !== '__export') return false;
    if (!this.isEsbuildHelper('__export') || !this.isEsbuildHelper('__defProp')) return false;
    const [target, getters, ...rest] = e['arguments'] as Node[];
    if (rest.length > 0 || target?.type !== 'Identifier' || this.kinds.get(target['name'] as string) !== 'data' || getters?.type !== 'ObjectExpression') return false;
    const exported = getters['properties'] as Node[];
    if (!exported.every((p) => p.type === 'Property' && (p['value'] as Node).type === 'ArrowFunctionExpression' && ((p['value'] as Node)['body'] as Node).type === 'Identifier')) return false;
    const policy = exported.find((p) => !p['computed'] && ((p['key'] as Node)['name'] ?? (p['key'] as Node)['value']) === 'Policy');
    if (policy) this.policyName = ((policy['value'] as Node)['body'] as Node)['name'] as string;
    return true;
  }

  /** The top-level declaration of the class exported as `Policy`, if there is exactly one. */
  policyDeclaration(): Node | undefined {
    return this.policyName === undefined ? undefined : (this.declarations.get(this.policyName) ?? undefined);
  }

  private isEsbuildHelper(name: string): boolean {
    return this.declarations.get(name) !== null && this.initializers.get(name)?.replace(/\s+/g, '') === ESBUILD_HELPERS.get(name);
  }

  /** An expression evaluated at load time whose value is only stored; returns what it holds. */
  private value(e: Node): Kind {
    switch (e.type) {
      case 'Literal':
        return e['regex'] ? 'other' : 'primitive';
      case 'Identifier':
        return this.kinds.get(e['name'] as string) ?? (this.isPrimitiveGlobal(e) ? 'primitive' : 'other');
      case 'ThisExpression':
      case 'ArrowFunctionExpression':
      case 'FunctionExpression':
        return 'other';
      case 'ClassExpression':
        this.checkClass(e);
        return 'other';
      case 'ArrayExpression':
        for (const el of e['elements'] as (Node | null)[]) {
          if (el?.type === 'SpreadElement') throw new Impure('a spread at the top level (it runs an iterator)');
          if (el) this.value(el);
        }
        return 'array';
      case 'ObjectExpression':
        for (const p of e['properties'] as Node[]) {
          if (p.type === 'SpreadElement') throw new Impure('a spread at the top level (it may run getters)');
          if (p['kind'] !== 'init') throw new Impure(`a ${p['kind'] as string}ter in a module-level object (it runs code when read)`);
          const key = p['key'] as Node;
          if (p['computed']) this.primitive(key);
          else if ((key['name'] ?? key['value']) === '__proto__') throw new Impure('__proto__ in a module-level object');
          this.value(p['value'] as Node);
        }
        return 'data';
      case 'MemberExpression':
        return this.member(e);
      case 'LogicalExpression': {
        // ToBoolean runs no code; the value is one of the two operands.
        const left = this.value(e['left'] as Node);
        const right = this.value(e['right'] as Node);
        return left === 'primitive' && right === 'primitive' ? 'primitive' : 'other';
      }
      case 'ConditionalExpression': {
        this.value(e['test'] as Node);
        const a = this.value(e['consequent'] as Node);
        const b = this.value(e['alternate'] as Node);
        return a === b ? a : 'other';
      }
      case 'SequenceExpression': {
        const all = (e['expressions'] as Node[]).map((x) => this.value(x));
        return all[all.length - 1]!;
      }
      case 'UnaryExpression':
      case 'BinaryExpression':
      case 'TemplateLiteral':
      case 'CallExpression':
        this.primitive(e);
        return 'primitive';
      default:
        throw new Impure(`a top-level ${e.type}`);
    }
  }

  /**
   * An expression evaluated at load time that is, or is coerced to, a primitive: it must not
   * reach an object whose `valueOf`, `toString` or `Symbol.toPrimitive` the policy wrote.
   */
  private primitive(e: Node): void {
    switch (e.type) {
      case 'Literal':
        if (e['regex']) throw new Impure('a regular expression used as a value at the top level');
        return;
      case 'Identifier':
        if (this.kinds.get(e['name'] as string) === 'primitive' || (!this.kinds.has(e['name'] as string) && this.isPrimitiveGlobal(e))) return;
        throw new Impure(`module-level ${e['name'] as string} is converted at load time (it may run its valueOf or toString)`);
      case 'TemplateLiteral':
        return (e['expressions'] as Node[]).forEach((x) => this.primitive(x));
      case 'UnaryExpression':
        if (e['operator'] === 'delete') throw new Impure('delete at the top level');
        // !, typeof and void do not convert through user code.
        if (e['operator'] === '!' || e['operator'] === 'typeof' || e['operator'] === 'void') this.value(e['argument'] as Node);
        else this.primitive(e['argument'] as Node);
        return;
      case 'BinaryExpression':
        if (e['operator'] === '===' || e['operator'] === '!==') {
          this.value(e['left'] as Node);
          this.value(e['right'] as Node);
        } else {
          this.primitive(e['left'] as Node);
          this.primitive(e['right'] as Node);
        }
        return;
      case 'LogicalExpression':
        this.primitive(e['left'] as Node);
        return this.primitive(e['right'] as Node);
      case 'ConditionalExpression':
        this.value(e['test'] as Node);
        this.primitive(e['consequent'] as Node);
        return this.primitive(e['alternate'] as Node);
      case 'SequenceExpression': {
        const all = e['expressions'] as Node[];
        all.slice(0, -1).forEach((x) => this.value(x));
        return this.primitive(all[all.length - 1]!);
      }
      case 'MemberExpression':
        if (this.member(e) === 'primitive') return;
        throw new Impure('a module-level property converted at load time (it may run its valueOf or toString)');
      case 'CallExpression': {
        // Math functions give the same number every time; Math.random would differ by episode.
        // Only Math's own functions, called as Math.f(…): not Math.random.call, Math.constructor(…).
        const callee = e['callee'] as Node;
        const object = callee['object'] as Node | undefined;
        const name = (callee['property'] as Node | undefined)?.['name'];
        const mathCall =
          callee.type === 'MemberExpression' && !callee['computed'] && !callee['optional'] && object?.type === 'Identifier' && this.intrinsic(object) === 'Math' && name !== 'random' && typeof ownMathMember(name) === 'function';
        if (!mathCall) throw new Impure('a call at the top level (its result may hold state)');
        for (const a of e['arguments'] as Node[]) {
          if (a.type === 'SpreadElement') throw new Impure('a spread at the top level (it runs an iterator)');
          this.primitive(a);
        }
        return;
      }
      default:
        throw new Impure(`a top-level ${e.type}`);
    }
  }

  /** Reading a property: of a built-in (`Object.prototype.hasOwnProperty`) or of a module-level literal. */
  private member(e: Node): Kind {
    if (e['optional']) throw new Impure('optional chaining at the top level');
    const object = e['object'] as Node;
    const property = e['property'] as Node;
    if (e['computed']) this.primitive(property);
    if (!e['computed'] && property.type === 'PrivateIdentifier') throw new Impure('a private field read at the top level');
    // Built-ins are frozen before the module runs: their conversions are their own.
    if (this.intrinsic(object) !== undefined && !e['computed']) return 'primitive';
    const kind = object.type === 'Identifier' ? this.kinds.get(object['name'] as string) : undefined;
    if (kind === 'array' && !e['computed'] && property['name'] === 'length') return 'primitive';
    // A literal without getters, spreads or __proto__: reading it runs no policy code. What it
    // holds may be an object, so the result is only passed on.
    if (kind === 'array' || kind === 'data') return 'other';
    throw new Impure('a property read at the top level (it may run a getter)');
  }

  /** The built-in a property chain starts at (`Object` for `Object.prototype`), if not shadowed. */
  private intrinsic(e: Node): string | undefined {
    let n = e;
    while (n.type === 'MemberExpression' && !n['computed'] && !n['optional'] && (n['property'] as Node).type === 'Identifier') n = n['object'] as Node;
    if (n.type !== 'Identifier') return undefined;
    const name = n['name'] as string;
    return INTRINSICS.has(name) && !this.names.has(name) ? name : undefined;
  }

  private isPrimitiveGlobal(e: Node): boolean {
    return PRIMITIVE_GLOBALS.has(e['name'] as string) && !this.names.has(e['name'] as string);
  }

  private checkClass(c: Node): void {
    // Its static initializers and computed keys see the class's own name: `class JSON { … }`
    // would make JSON.x below mean the class, not the built-in.
    const name = (c['id'] as Node | null)?.['name'] as string | undefined;
    if (name !== undefined && (INTRINSICS.has(name) || PRIMITIVE_GLOBALS.has(name))) throw new Impure(`a class named ${name}, like a built-in`);
    if (c['superClass']) this.value(c['superClass'] as Node);
    for (const member of (c['body'] as Node)['body'] as Node[]) {
      if (member.type === 'StaticBlock') throw new Impure('a static block');
      if (member.type !== 'PropertyDefinition' && member.type !== 'MethodDefinition') throw new Impure(`a class member of kind ${member.type}`);
      if (member['computed']) this.primitive(member['key'] as Node);
      if (member.type === 'PropertyDefinition' && member['static']) {
        // Freezing the class does not reach its private fields.
        if ((member['key'] as Node).type === 'PrivateIdentifier') throw new Impure('a private static field (freezing cannot reach it)');
        if (member['value']) this.value(member['value'] as Node);
      }
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
