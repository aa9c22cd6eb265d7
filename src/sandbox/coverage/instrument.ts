/**
 * A bundle with a counter write at each coverage probe (probes.ts): `C[id]=1` where `C` is a
 * parameter of the module function, a Uint8Array of the policy's own realm that the worker
 * clears before each episode and reads after it. Writes never add a line, so the bundle's
 * source map still gives every line; the columns they shift are given back for stack traces
 * (`bundleColumn`).
 *
 * A policy could name the parameter and read or write the counters: it would only mislead its
 * own attribution, and a bundle that names it gets no probes at all.
 */
import { bundleProbes, type ProbeSite } from './probes';

/** The module function's parameter holding the counters. */
export const COVERAGE_PARAMETER = '__policyforge_coverage';

export interface InstrumentedBundle {
  code: string;
  /** Number of probes (the counters' length); 0 when the bundle could not be instrumented. */
  probes: number;
  /** A 1-based column of the instrumented bundle's line as the column of the bundle before the writes. */
  bundleColumn(line: number, column: number): number;
}

interface Edit {
  at: number;
  text: string;
  /** Closers before openers at one offset; inner closers first, outer openers first. */
  order: number;
  tie: number;
}

export function instrumentBundle(code: string): InstrumentedBundle {
  const { sites } = code.includes(COVERAGE_PARAMETER) ? { sites: [] } : bundleProbes(code);
  if (sites.length === 0) return { code, probes: 0, bundleColumn: (_l, c) => c };
  const edits = sites.flatMap((site, id) => editsOf(site, id));
  edits.sort((a, b) => a.at - b.at || a.order - b.order || a.tie - b.tie);
  const parts: string[] = [];
  // Per line of the output: [output column (0-based) after an insertion, characters inserted on the line up to there].
  const shifts = new Map<number, [number, number][]>();
  let from = 0;
  let line = 1;
  let lineStart = 0;
  let outLength = 0;
  let insertedOnLine = 0;
  for (const e of edits) {
    const chunk = code.slice(from, e.at);
    for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) {
      line++;
      lineStart = outLength + i + 1;
      insertedOnLine = 0;
    }
    parts.push(chunk, e.text);
    outLength += chunk.length + e.text.length;
    insertedOnLine += e.text.length;
    let list = shifts.get(line);
    if (!list) shifts.set(line, (list = []));
    list.push([outLength - lineStart, insertedOnLine]);
    from = e.at;
  }
  parts.push(code.slice(from));
  return {
    code: parts.join(''),
    probes: sites.length,
    bundleColumn(l: number, column: number): number {
      const list = shifts.get(l);
      if (!list) return column;
      let inserted = 0;
      for (const [after, total] of list) {
        if (after > column - 1) break;
        inserted = total;
      }
      return column - inserted;
    },
  };
}

function editsOf(site: ProbeSite, id: number): Edit[] {
  const write = `${COVERAGE_PARAMETER}[${id}]=1`;
  switch (site.form) {
    case 'block':
      return [{ at: site.insertAt, text: `${write};`, order: 1, tie: -Infinity }];
    case 'statement':
      return [
        { at: site.start, text: `{${write};`, order: 1, tie: -site.end },
        { at: site.end, text: '}', order: 0, tie: -site.start },
      ];
    case 'expression':
      return [
        { at: site.start, text: `(${write},`, order: 1, tie: -site.end },
        { at: site.end, text: ')', order: 0, tie: -site.start },
      ];
  }
}

/**
 * Clears the counters (a realm's Uint8Array, through the host's own method); false when they
 * cannot be cleared (a policy detached their buffer where the realm can), so the realm is replaced.
 */
export function clearCounters(counters: Uint8Array): boolean {
  try {
    Uint8Array.prototype.fill.call(counters, 0);
    return true;
  } catch {
    return false;
  }
}

/** The ids of the first `probes` counters that are set, ascending. */
export function probesHit(counters: Uint8Array, probes: number): number[] {
  const hit: number[] = [];
  for (let i = 0; i < probes; i++) if (counters[i] !== 0) hit.push(i);
  return hit;
}
