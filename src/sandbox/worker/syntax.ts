/**
 * What the bundle checks (modulePlan.ts, observationUse.ts) share: the ESTree nodes acorn
 * gives, a walk over them, and which members of `Math` are its own.
 */

/** An ESTree node as acorn parses it (with `ranges`, for eslint-scope). */
export interface Node {
  type: string;
  start: number;
  [key: string]: unknown;
}

/** Visits `node` and every node below it, depth first, each with its parent. */
export function walk(node: Node, visit: (n: Node, parent: Node | undefined) => void, parent?: Node): void {
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

/**
 * An own property of Math (the realm's is the same built-in, frozen), or undefined: its
 * constants are numbers and its functions return numbers, unlike what it inherits
 * (`Math.constructor` is Object).
 */
export function ownMathMember(name: unknown): unknown {
  return typeof name === 'string' && Object.hasOwn(Math, name) ? (Math as unknown as Record<string, unknown>)[name] : undefined;
}
