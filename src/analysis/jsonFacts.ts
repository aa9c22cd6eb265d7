/**
 * Facts of an imported JSON file: its shape (keys, array lengths, nesting) is topology, every
 * value is a literal placeholder whose enclosing scope is its JSON path (`weights[2]`, `gains.kp`).
 */
import type { LiteralKind, LiteralValue } from '../protocol/analysis';
import type { Ts, TsNode, TsSourceFile } from './engine';
import { PLACEHOLDER, type LiteralFact, type ModuleFacts } from './facts';
import { countSourceLines, syntaxErrors } from './sourceLines';
import { hashTokens } from './tsFacts';

const IDENT = /^[A-Za-z_$][\w$]*$/;

export function extractJsonFacts(ts: Ts, sf: TsSourceFile, text: string, contentHash: string): ModuleFacts {
  const K = ts.SyntaxKind;
  const tokens: string[] = [];
  const literals: LiteralFact[] = [];

  const literal = (node: TsNode, path: string, kind: LiteralKind, value: LiteralValue): void => {
    literals.push({
      kind,
      value,
      text: node.getText(sf),
      line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1,
      start: node.getStart(sf),
      end: node.end,
      scope: path === '' ? null : path,
      slot: path !== '',
      token: tokens.length,
    });
    tokens.push(PLACEHOLDER[kind]);
  };

  const walk = (node: TsNode, path: string): void => {
    if (ts.isObjectLiteralExpression(node)) {
      tokens.push('{');
      for (const p of node.properties) {
        const key = p.name && (ts.isStringLiteral(p.name) || ts.isIdentifier(p.name) || ts.isNumericLiteral(p.name)) ? p.name.text : (p.name?.getText(sf) ?? '');
        tokens.push(`"${key}`);
        const sub = IDENT.test(key) ? (path === '' ? key : `${path}.${key}`) : `${path}[${JSON.stringify(key)}]`;
        if (ts.isPropertyAssignment(p)) walk(p.initializer, sub);
      }
      tokens.push('}');
    } else if (ts.isArrayLiteralExpression(node)) {
      tokens.push('[');
      node.elements.forEach((e, i) => walk(e, `${path}[${i}]`));
      tokens.push(']');
    } else if (ts.isNumericLiteral(node)) literal(node, path, 'number', Number(node.text));
    else if (ts.isStringLiteral(node)) literal(node, path, 'string', node.text);
    else if (node.kind === K.TrueKeyword || node.kind === K.FalseKeyword) literal(node, path, 'boolean', node.kind === K.TrueKeyword);
    else if (ts.isPrefixUnaryExpression(node) && node.operator === K.MinusToken && ts.isNumericLiteral(node.operand)) {
      literal(node, path, 'number', -Number(node.operand.text));
    } else if (node.kind === K.NullKeyword) tokens.push('null');
    else tokens.push(`?${node.getText(sf)}`);
  };

  const root = sf.statements[0];
  if (root && ts.isExpressionStatement(root)) walk(root.expression, '');
  const lines = countSourceLines(ts, sf, text);
  return {
    json: true,
    contentHash,
    tokens,
    topologyHash: hashTokens(tokens),
    literals,
    units: [],
    moduleCodeHash: hashTokens(tokens),
    controlFlow: [],
    calls: [],
    fields: [],
    imports: [],
    specifiers: [],
    declared: new Map(),
    metrics: { ...lines, functions: 0, classes: 0, branches: 0, loops: 0, cyclomaticTotal: 0, cyclomaticMax: 0, maxNestingDepth: 0, stateFields: 0, literals: literals.length },
    syntaxErrors: syntaxErrors(sf),
  };
}
