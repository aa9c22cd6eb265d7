/**
 * What one parsed module reduces to: its topology (a token stream of the syntax tree with literal
 * values replaced by placeholders), the literals themselves, the named units with the token range
 * each covers, and the counts the structural diff and the metrics need. Plain data, so it can be
 * cached by content hash and the syntax tree dropped.
 */
import type { CheckpointMetrics, LiteralKind, LiteralValue, Rename, UnitKind } from '../protocol/analysis';

export interface LiteralFact {
  kind: LiteralKind;
  value: LiteralValue;
  text: string;
  line: number;
  /** Source offsets [start, end) of the literal (the minus sign included). */
  start: number;
  end: number;
  scope: string | null;
  /** `scope` names this literal's own slot in a table (`Policy.weights[2]`, a JSON path), not only the code around it. */
  slot: boolean;
  /** Index of the literal's placeholder in `tokens`. */
  token: number;
}

export interface UnitFact {
  kind: UnitKind;
  name: string;
  /** Token range [start, end) of the unit's subtree. */
  start: number;
  end: number;
  /** Topology hash of that range. */
  hash: string;
  /** Nested inside another unit (class members): false for top-level units. */
  nested: boolean;
}

/** A count keyed by scope and a key (a control-flow kind, a call target). */
export interface CountFact {
  scope: string | null;
  key: string;
  count: number;
}

/** One module's share of the checkpoint metrics (summed or maxed across the bundle). */
export type ModuleMetrics = Omit<CheckpointMetrics, 'contentHash' | 'files'>;

export interface ModuleFacts {
  json: boolean;
  contentHash: string;
  /** Placeholder token stream; equal streams mean equal topology. */
  tokens: readonly string[];
  topologyHash: string;
  literals: LiteralFact[];
  units: UnitFact[];
  /** Topology hash of the module-level code outside every top-level unit. */
  moduleCodeHash: string;
  controlFlow: CountFact[];
  calls: CountFact[];
  /** State fields per class. */
  fields: { className: string; name: string }[];
  /** Runtime imports (type-only imports excluded). */
  imports: { from: string; name: string }[];
  /** Every module specifier, type-only ones included: what the bundle reader follows. */
  specifiers: string[];
  /** Declared identifier → what it declares (first declaration wins). */
  declared: ReadonlyMap<string, Rename['declares']>;
  metrics: ModuleMetrics;
  syntaxErrors: { line: number; message: string }[];
}

/** Placeholder tokens: everything else in a token stream is structure. */
export const PLACEHOLDER: Record<LiteralKind, string> = { number: '#n', string: '#s', boolean: '#b', bigint: '#g' };

export function isPlaceholder(token: string): boolean {
  return token.length === 2 && token.charCodeAt(0) === 35; /* '#' */
}

/** Identifier tokens start with '$' (names) or '.' (member names after a dot). */
export function isIdentifierToken(token: string): boolean {
  const c = token.charCodeAt(0);
  return c === 36 || c === 46;
}

export class Counter {
  private readonly counts = new Map<string, number>();

  add(scope: string | null, key: string): void {
    const k = `${scope ?? ''}\u0000${key}`;
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
  }

  facts(): CountFact[] {
    return [...this.counts].map(([k, count]) => {
      const sep = k.indexOf('\u0000');
      const scope = k.slice(0, sep);
      return { scope: scope === '' ? null : scope, key: k.slice(sep + 1), count };
    });
  }
}
