/**
 * The load-time half of modulePlan.ts's check: walks the module's top-level statements in
 * order and refuses (throws Impure) any that could run policy code or create state that
 * freezing the module's values cannot reach.
 */
import { ownMathMember, type Node } from './syntax';

/** Why a module cannot be shared (the plan's reason). */
export class Impure extends Error {}

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
export class TopLevelScope {
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
