/**
 * Control-flow counting for the TypeScript walk: control-flow kinds per scope, branch and loop
 * totals, cyclomatic complexity of the current function, and whether a node nests its
 * children. Split from tsFacts.ts so the metric definitions (src/analysis/README.md,
 * "Metrics") live in one place; the walk passes its counters in explicitly.
 */
import type { ControlFlowKind } from '../protocol/analysis';
import type { Ts, TsNode } from './engine';
import type { Counter } from './facts';

/** The counters the walk keeps for the whole module. */
export interface FlowCounts {
  /** Control-flow kinds per scope. */
  readonly controlFlow: Counter;
  branches: number;
  loops: number;
}

/**
 * Counts a node's control flow and decisions (`scope`: the unit the node is in; `fn`: the
 * complexity of the function it is in); returns whether the node nests its children one
 * level deeper.
 */
export function countControlFlow(ts: Ts, node: TsNode, scope: string | null, fn: { complexity: number }, counts: FlowCounts): boolean {
  const K = ts.SyntaxKind;
  const cf = (kind: ControlFlowKind): void => counts.controlFlow.add(scope, kind);
  switch (node.kind) {
    case K.IfStatement: {
      cf('if');
      counts.branches++;
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
      counts.loops++;
      fn.complexity++;
      return true;
    case K.SwitchStatement:
      cf('switch');
      return true;
    case K.CaseClause:
      cf('case');
      counts.branches++;
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
      counts.branches++;
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
}
