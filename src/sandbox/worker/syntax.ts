/**
 * What the bundle checks (modulePlan.ts, observationUse.ts) share: acorn, the one JavaScript
 * parser of the sandbox, acorn-walk to visit its tree, and which members of `Math` are its own.
 */
import { parse } from 'acorn';
import { full, fullAncestor } from 'acorn-walk';

/** An ESTree node as acorn parses it (with `ranges`, for eslint-scope). */
export interface Node {
  type: string;
  start: number;
  [key: string]: unknown;
}

/** The bundle (an esbuild IIFE script) as an ESTree program; throws acorn's SyntaxError. */
export function parseBundle(code: string): Node {
  return parse(code, { ecmaVersion: 'latest', sourceType: 'script', ranges: true }) as unknown as Node;
}

/**
 * Visits every node below `program` once, children first. Names that are not expressions
 * (non-computed property names and keys, labels) are not nodes of their own here.
 */
export function visitNodes(program: Node, visit: (node: Node) => void): void {
  full(program as never, (node) => visit(node as unknown as Node));
}

/** Each node's parent, for the nodes visitNodes reaches. */
export function parentsOf(program: Node): Map<Node, Node> {
  const parents = new Map<Node, Node>();
  fullAncestor(program as never, (node, _state, ancestors) => {
    const parent = ancestors[ancestors.length - 2];
    if (parent) parents.set(node as unknown as Node, parent as unknown as Node);
  });
  return parents;
}

/**
 * An own property of Math (the realm's is the same built-in, frozen), or undefined: its
 * constants are numbers and its functions return numbers, unlike what it inherits
 * (`Math.constructor` is Object).
 */
export function ownMathMember(name: unknown): unknown {
  return typeof name === 'string' && Object.hasOwn(Math, name) ? (Math as unknown as Record<string, unknown>)[name] : undefined;
}
