/**
 * Whether the policy's `act` only reads its observation while it runs, so that one realm array
 * can carry every step's observation instead of a new one per step.
 *
 * The policy ABI hands `act` a fresh typed array each step: a policy may keep it (a history of
 * observations) or write into it. Allocating that array is most of what the sandbox adds to a
 * CartPole step (~25 ns of ~35). A policy whose `act` never lets the array out of the call,
 * never writes it and only reads its elements and length cannot tell a reused array from a
 * fresh one, and for it the sandbox copies each observation into the same array.
 *
 * The check is on the bundle's syntax, with eslint-scope resolving names. It holds when the
 * exported `Policy` class declares one plain `act` method whose first parameter is referenced
 * only, in `act` itself (not in a closure), as
 * - `observation.length`,
 * - `observation[index]` read (not assigned, deleted or called) with an `index` that can only
 *   be a number: numeric literals, arithmetic, `Math` calls, elements and lengths of the
 *   observation, and variables only ever assigned such values (a string index could reach the
 *   array's `buffer` or `subarray`, which would let the array out), or
 * - `const [a, b, …] = observation` (the values are copied out).
 * `arguments` must not occur in `act`. At run time the reused array is passed only while the
 * instance's `act` is that very method (see observationCopy.ts), so a constructor or an `act`
 * that installs another `act` gets fresh arrays again.
 */
import { analyze, type Reference, type Scope, type Variable } from 'eslint-scope';
import type * as ESTree from 'estree';
import { ownMathMember, parentsOf, type Node } from './syntax';

/** Operators whose result is a number or a bigint whatever their operands. */
const ARITHMETIC = new Set(['-', '*', '/', '%', '**', '|', '&', '^', '<<', '>>', '>>>']);
const ARITHMETIC_ASSIGN = new Set([...ARITHMETIC].map((op) => `${op}=`));
/** Globals that hold numbers (the realm's globals cannot be reassigned once hardened). */
const NUMERIC_GLOBALS = new Set(['NaN', 'Infinity', 'undefined']);

/**
 * `program`: the bundle, parsed with ranges; `declaration`: the top-level declaration of what it
 * exports as `Policy` (see modulePlan.ts).
 */
export function actOnlyReadsObservation(program: Node, declaration: Node): boolean {
  const act = actMethod(declaration);
  const param = (act?.['params'] as Node[] | undefined)?.[0];
  if (!act || param?.type !== 'Identifier') return false;
  let scopes: ReturnType<typeof analyze>;
  try {
    scopes = analyze(program as unknown as ESTree.Program, { ecmaVersion: 2022, sourceType: 'script' });
  } catch {
    return false; // syntax newer than the analysis knows: fresh arrays, as always
  }
  const actScope = scopes.acquire(act as unknown as ESTree.Function);
  if (!actScope) return false;
  const observation = actScope.set.get(param['name'] as string);
  if (!observation || observation.defs.length !== 1) return false;
  if ((actScope.set.get('arguments')?.references.length ?? 0) > 0) return false;
  return new ObservationUse(program, scopes.scopes, actScope, observation).readsOnly();
}

/** The `act` method of a class declaration or `var C = class {…}`, if it is one plain method. */
function actMethod(declaration: Node): Node | undefined {
  const cls = declaration.type === 'ClassDeclaration' ? declaration : declaration.type === 'VariableDeclarator' ? (declaration['init'] as Node | null) : null;
  if (cls?.type !== 'ClassDeclaration' && cls?.type !== 'ClassExpression') return undefined;
  const members = (cls['body'] as Node)['body'] as Node[];
  // A computed key could be "act" too.
  if (members.some((m) => m['computed'])) return undefined;
  const named = members.filter((m) => keyName(m['key'] as Node | undefined) === 'act');
  const method = named[0];
  if (named.length !== 1 || method?.type !== 'MethodDefinition' || method['kind'] !== 'method' || method['static']) return undefined;
  const fn = method['value'] as Node;
  return fn['generator'] || fn['async'] ? undefined : fn;
}

function keyName(key: Node | undefined): unknown {
  return key?.type === 'Identifier' ? key['name'] : key?.type === 'Literal' ? key['value'] : undefined;
}

class ObservationUse {
  private readonly parents: Map<Node, Node>;
  private readonly references = new Map<Node, Reference>();
  /** Variables checked to hold only numbers; `true` while being checked (a cycle assumes it). */
  private readonly numericVariables = new Map<Variable, boolean>();

  constructor(program: Node, scopes: readonly Scope[], private readonly actScope: Scope, private readonly observation: Variable) {
    this.parents = parentsOf(program);
    for (const s of scopes) for (const r of s.references) this.references.set(r.identifier as unknown as Node, r);
  }

  readsOnly(): boolean {
    return this.observation.references.every((r) => !r.isWrite() && r.from.variableScope === this.actScope && this.allowedUse(r.identifier as unknown as Node));
  }

  private allowedUse(id: Node): boolean {
    const parent = this.parents.get(id);
    if (parent?.type === 'MemberExpression' && parent['object'] === id && !parent['optional']) {
      const property = parent['property'] as Node;
      const ok = parent['computed'] ? this.isNumeric(property) : property.type === 'Identifier' && property['name'] === 'length';
      return ok && this.isPlainRead(parent);
    }
    if (parent?.type === 'VariableDeclarator' && parent['init'] === id) {
      const pattern = parent['id'] as Node;
      return pattern.type === 'ArrayPattern' && (pattern['elements'] as (Node | null)[]).every((e) => e === null || e.type === 'Identifier' || (e.type === 'RestElement' && (e['argument'] as Node).type === 'Identifier'));
    }
    return false;
  }

  /** The member expression's value is only read: not assigned to, deleted, called or destructured into. */
  private isPlainRead(member: Node): boolean {
    const p = this.parents.get(member);
    if (!p) return false;
    switch (p.type) {
      case 'AssignmentExpression':
        return p['left'] !== member;
      case 'UpdateExpression':
        return false;
      case 'UnaryExpression':
        return p['operator'] !== 'delete';
      case 'CallExpression':
      case 'NewExpression':
        return p['callee'] !== member;
      case 'TaggedTemplateExpression':
        return p['tag'] !== member;
      case 'ForInStatement':
      case 'ForOfStatement':
        return p['left'] !== member;
      case 'ArrayPattern':
      case 'ObjectPattern':
      case 'RestElement':
      case 'ChainExpression':
        return false;
      case 'AssignmentPattern':
        return p['left'] !== member;
      case 'Property':
        // `{ x: observation[0] } = …` is a target; in an object literal it is a value.
        return this.parents.get(p)?.type !== 'ObjectPattern';
      default:
        return true;
    }
  }

  /** Whether `e` can only evaluate to a number, a bigint or undefined (never a property name). */
  private isNumeric(e: Node): boolean {
    switch (e.type) {
      case 'Literal':
        return typeof e['value'] === 'number' || typeof e['value'] === 'bigint';
      case 'Identifier': {
        const ref = this.references.get(e);
        if (!ref) return false;
        if (!ref.resolved) return NUMERIC_GLOBALS.has(e['name'] as string);
        return this.isNumericVariable(ref.resolved);
      }
      case 'UnaryExpression':
        return e['operator'] === '-' || e['operator'] === '+' || e['operator'] === '~';
      case 'BinaryExpression':
        if (ARITHMETIC.has(e['operator'] as string)) return true;
        return e['operator'] === '+' && this.isNumeric(e['left'] as Node) && this.isNumeric(e['right'] as Node);
      case 'UpdateExpression':
        return true;
      case 'ConditionalExpression':
        return this.isNumeric(e['consequent'] as Node) && this.isNumeric(e['alternate'] as Node);
      case 'SequenceExpression': {
        const all = e['expressions'] as Node[];
        return this.isNumeric(all[all.length - 1] as Node);
      }
      case 'AssignmentExpression':
        return ARITHMETIC_ASSIGN.has(e['operator'] as string) || ((e['operator'] === '=' || e['operator'] === '+=') && this.isNumeric(e['right'] as Node));
      case 'MemberExpression': {
        if (e['optional']) return false;
        const object = e['object'] as Node;
        // Math's own constants (Math.PI); not what it inherits (Math.constructor is Object).
        if (this.isGlobalMath(object) && !e['computed']) return typeof ownMathMember((e['property'] as Node)['name']) === 'number';
        if (object.type === 'Identifier' && this.references.get(object)?.resolved === this.observation) {
          // An element (a number, or undefined out of range) or the length.
          return e['computed'] ? this.isNumeric(e['property'] as Node) : (e['property'] as Node)['name'] === 'length';
        }
        return false;
      }
      case 'CallExpression': {
        // Math's own functions return numbers (Math.random.call, Math.constructor(…) are not these).
        const callee = e['callee'] as Node;
        return !e['optional'] && callee.type === 'MemberExpression' && !callee['computed'] && !callee['optional'] && this.isGlobalMath(callee['object'] as Node) && typeof ownMathMember((callee['property'] as Node)['name']) === 'function';
      }
      default:
        return false;
    }
  }

  private isGlobalMath(e: Node): boolean {
    return e.type === 'Identifier' && e['name'] === 'Math' && this.references.get(e)?.resolved === null;
  }

  /** Every value the variable is ever given is numeric (declarations and all writes). */
  private isNumericVariable(v: Variable): boolean {
    const known = this.numericVariables.get(v);
    if (known !== undefined) return known;
    this.numericVariables.set(v, true);
    const numeric = v.defs.every((d) => this.isNumericDefinition(d.type, d.node as unknown as Node, d.parent as unknown as Node | null)) && v.references.every((r) => !r.isWrite() || this.isNumericWrite(r));
    this.numericVariables.set(v, numeric);
    return numeric;
  }

  private isNumericDefinition(type: string, declarator: Node, declaration: Node | null): boolean {
    if (type !== 'Variable' || declarator.type !== 'VariableDeclarator' || (declarator['id'] as Node).type !== 'Identifier') return false;
    // `for (const k in o)` / `for (const x of xs)`: the loop gives the values.
    const loop = declaration ? this.parents.get(declaration) : undefined;
    if ((loop?.type === 'ForInStatement' || loop?.type === 'ForOfStatement') && loop['left'] === declaration) return false;
    const init = declarator['init'] as Node | null;
    return init === null || this.isNumeric(init);
  }

  private isNumericWrite(r: Reference): boolean {
    const id = r.identifier as unknown as Node;
    const p = this.parents.get(id);
    if (p?.type === 'VariableDeclarator' && p['id'] === id) return true; // its definition, checked above
    if (p?.type === 'UpdateExpression') return true;
    if (p?.type === 'AssignmentExpression' && p['left'] === id) return this.isNumeric(p);
    return false;
  }
}
