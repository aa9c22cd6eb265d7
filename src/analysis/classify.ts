/**
 * Classification of an edit from the facts of two bundles: identical (same content hash),
 * parametric (same topology, with the literals whose value changed) or structural (with what
 * changed, by name). See docs/DESIGN.md, "Edit classification".
 */
import type {
  CallChange,
  ControlFlowChange,
  ControlFlowKind,
  ImportRef,
  LiteralChange,
  Rename,
  StateFieldRef,
  StructuralChanges,
  UnitMove,
  UnitRef,
} from '../protocol/analysis';
import type { Bundle, BundleModule } from './bundle';
import { isIdentifierToken, type CountFact, type LiteralFact, type ModuleFacts, type UnitFact } from './facts';
import { alignedLiteralPairs, unitLiteralPairs, type LiteralPair } from './literalMap';

export interface Classification {
  class: 'identical' | 'parametric' | 'structural';
  cosmetic: boolean;
  literalChanges: LiteralChange[];
  structural: StructuralChanges | null;
}

export function classifyBundles(parent: Bundle, child: Bundle): Classification {
  if (parent.contentHash === child.contentHash) {
    return { class: 'identical', cosmetic: false, literalChanges: [], structural: null };
  }
  const before = new Map(parent.modules.map((m) => [m.path, m]));
  const after = new Map(child.modules.map((m) => [m.path, m]));
  const samePaths = before.size === after.size && [...before.keys()].every((p) => after.has(p));
  const sameTopology = samePaths && [...before].every(([p, m]) => after.get(p)!.facts.topologyHash === m.facts.topologyHash);

  if (sameTopology) {
    const literalChanges = [...before].flatMap(([p, m]) => positionalChanges(p, m.facts.literals, after.get(p)!.facts.literals));
    return { class: 'parametric', cosmetic: literalChanges.length === 0, literalChanges: sortChanges(literalChanges), structural: null };
  }

  const renames = samePaths ? renamesOnly(before, after) : null;
  if (renames) {
    const literalChanges = [...before].flatMap(([p, m]) => positionalChanges(p, m.facts.literals, after.get(p)!.facts.literals));
    return { class: 'structural', cosmetic: false, literalChanges: sortChanges(literalChanges), structural: { ...emptyChanges(), renames, renameOnly: true } };
  }

  const structural = structuralChanges(before, after);
  return { class: 'structural', cosmetic: false, literalChanges: sortChanges(alignedLiteralChanges(before, after, structural)), structural };
}

function emptyChanges(): StructuralChanges {
  return {
    modulesAdded: [],
    modulesRemoved: [],
    importsAdded: [],
    importsRemoved: [],
    unitsAdded: [],
    unitsRemoved: [],
    unitsModified: [],
    unitsMoved: [],
    controlFlow: [],
    stateFieldsAdded: [],
    stateFieldsRemoved: [],
    callsAdded: [],
    callsRemoved: [],
    renames: [],
    renameOnly: false,
    moduleCodeChanged: [],
  };
}

// --- literals ------------------------------------------------------------------------------

function literalChange(file: string, a: LiteralFact, b: LiteralFact): LiteralChange | null {
  if (a.kind === b.kind && a.value === b.value) return null;
  return { file, line: b.line, parentLine: a.line, kind: b.kind, old: a.value, new: b.value, oldText: a.text, newText: b.text, enclosing: b.scope };
}

function positionalChanges(file: string, a: readonly LiteralFact[], b: readonly LiteralFact[]): LiteralChange[] {
  const out: LiteralChange[] = [];
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = literalChange(file, a[i]!, b[i]!);
    if (c) out.push(c);
  }
  return out;
}

function pairChanges(file: string, a: ModuleFacts, b: ModuleFacts, pairs: readonly LiteralPair[]): LiteralChange[] {
  return pairs.flatMap(([i, j]) => literalChange(file, a.literals[i]!, b.literals[j]!) ?? []);
}

/** Value changes of the literals that survived a structural edit (literalMap.ts, rules 1 and 2). */
function alignedLiteralChanges(before: Map<string, BundleModule>, after: Map<string, BundleModule>, structural: StructuralChanges): LiteralChange[] {
  const out: LiteralChange[] = [];
  for (const [p, m] of before) {
    const n = after.get(p);
    if (n) out.push(...pairChanges(p, m.facts, n.facts, alignedLiteralPairs(m.facts, n.facts)));
  }
  // Units that moved to another file: compare them where they went.
  for (const move of structural.unitsMoved) {
    const a = before.get(move.from)?.facts;
    const b = after.get(move.to)?.facts;
    const ua = a?.units.find((u) => u.name === move.name);
    const ub = b?.units.find((u) => u.name === move.name);
    if (a && b && ua && ub) out.push(...pairChanges(move.to, a, b, unitLiteralPairs(a, ua, b, ub)));
  }
  return out;
}

function sortChanges(changes: LiteralChange[]): LiteralChange[] {
  return changes.sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : x.line - y.line));
}

// --- renames -------------------------------------------------------------------------------

/**
 * When every topology difference is one identifier standing for another, consistently in both
 * directions within each file, the edit is a pure rename: returns the renames, else null.
 */
function renamesOnly(before: Map<string, BundleModule>, after: Map<string, BundleModule>): Rename[] | null {
  const renames: Rename[] = [];
  for (const [p, m] of before) {
    const a = m.facts.tokens;
    const b = after.get(p)!.facts.tokens;
    if (a.length !== b.length) return null;
    if (m.facts.topologyHash === after.get(p)!.facts.topologyHash) continue;
    const forward = new Map<string, string>();
    const backward = new Map<string, string>();
    for (let i = 0; i < a.length; i++) {
      const x = a[i]!;
      const y = b[i]!;
      if (x === y) continue;
      if (!isIdentifierToken(x) || !isIdentifierToken(y)) return null;
      if ((forward.get(x) ?? y) !== y || (backward.get(y) ?? x) !== x) return null;
      forward.set(x, y);
      backward.set(y, x);
    }
    // A renamed name still used unchanged elsewhere is a rebinding, not a rename.
    for (let i = 0; i < a.length; i++) {
      const x = a[i]!;
      if (x === b[i] && isIdentifierToken(x) && (forward.has(x) || backward.has(x))) return null;
    }
    // Only names the policy declares can be renamed; `Math.tanh` → `Math.atan` is a different call.
    const declared = after.get(p)!.facts.declared;
    const declaredBefore = m.facts.declared;
    for (const [x, y] of forward) if (!declaredBefore.has(x.slice(1)) || !declared.has(y.slice(1))) return null;
    // `$speed → $velocity` and `.speed → .velocity` are one rename.
    const pairs = new Set([...forward].map(([x, y]) => `${x.slice(1)}\u0000${y.slice(1)}`));
    for (const pair of pairs) {
      const [from, to] = pair.split('\u0000') as [string, string];
      renames.push({ file: p, from, to, declares: declared.get(to) ?? 'unknown' });
    }
  }
  return renames.length > 0 ? renames : null;
}

// --- structure -----------------------------------------------------------------------------

interface Located {
  file: string;
  unit: UnitFact;
}

function unitsOf(modules: Map<string, BundleModule>): Located[] {
  return [...modules].flatMap(([file, m]) => m.facts.units.map((unit) => ({ file, unit })));
}

function ref(l: Located): UnitRef {
  return { kind: l.unit.kind, name: l.unit.name, file: l.file };
}

function structuralChanges(before: Map<string, BundleModule>, after: Map<string, BundleModule>): StructuralChanges {
  const changes = emptyChanges();
  changes.modulesAdded = [...after.keys()].filter((p) => !before.has(p));
  changes.modulesRemoved = [...before.keys()].filter((p) => !after.has(p));

  // Imports: multiset difference of (file, specifier, name).
  const importKeys = (mods: Map<string, BundleModule>): Map<string, ImportRef> => {
    const out = new Map<string, ImportRef>();
    for (const [file, m] of mods) for (const i of m.facts.imports) out.set(`${file}\u0000${i.from}\u0000${i.name}`, { file, from: i.from, name: i.name });
    return out;
  };
  const ia = importKeys(before);
  const ib = importKeys(after);
  changes.importsAdded = [...ib].filter(([k]) => !ia.has(k)).map(([, v]) => v);
  changes.importsRemoved = [...ia].filter(([k]) => !ib.has(k)).map(([, v]) => v);

  // Units: by file and name, then by name across files (moves).
  const ua = unitsOf(before);
  const ub = unitsOf(after);
  const key = (l: Located): string => `${l.file}\u0000${l.unit.name}`;
  const ubByKey = new Map(ub.map((l) => [key(l), l]));
  const matched = new Set<string>();
  const leftA: Located[] = [];
  for (const l of ua) {
    const m = ubByKey.get(key(l));
    if (m) {
      matched.add(key(m));
      if (m.unit.hash !== l.unit.hash) changes.unitsModified.push(ref(m));
    } else leftA.push(l);
  }
  const leftB = ub.filter((l) => !matched.has(key(l)));
  const byName = (ls: Located[]): Map<string, Located[]> => {
    const out = new Map<string, Located[]>();
    for (const l of ls) out.set(l.unit.name, [...(out.get(l.unit.name) ?? []), l]);
    return out;
  };
  const leftBByName = byName(leftB);
  const moved = new Set<Located>();
  for (const [name, as] of byName(leftA)) {
    const bs = leftBByName.get(name);
    if (as.length === 1 && bs?.length === 1) {
      const a = as[0]!;
      const b = bs[0]!;
      moved.add(a).add(b);
      const move: UnitMove = { kind: b.unit.kind, name, from: a.file, to: b.file, modified: a.unit.hash !== b.unit.hash };
      changes.unitsMoved.push(move);
    }
  }
  changes.unitsAdded = leftB.filter((l) => !moved.has(l)).map(ref);
  changes.unitsRemoved = leftA.filter((l) => !moved.has(l)).map(ref);

  // State fields.
  const fieldKeys = (mods: Map<string, BundleModule>): Map<string, StateFieldRef> => {
    const out = new Map<string, StateFieldRef>();
    for (const [file, m] of mods) for (const f of m.facts.fields) out.set(`${f.className}.${f.name}`, { className: f.className, name: f.name, file });
    return out;
  };
  const fa = fieldKeys(before);
  const fb = fieldKeys(after);
  changes.stateFieldsAdded = [...fb].filter(([k]) => !fa.has(k)).map(([, v]) => v);
  changes.stateFieldsRemoved = [...fa].filter(([k]) => !fb.has(k)).map(([, v]) => v);

  // A class counts as modified only when no member-level change explains it.
  const explained = new Set<string>();
  const owner = (name: string): string => name.slice(0, Math.max(0, name.indexOf('.')));
  for (const r of [...changes.unitsAdded, ...changes.unitsRemoved, ...changes.unitsModified]) if (r.name.includes('.')) explained.add(owner(r.name));
  for (const m of changes.unitsMoved) if (m.name.includes('.')) explained.add(owner(m.name));
  for (const f of [...changes.stateFieldsAdded, ...changes.stateFieldsRemoved]) explained.add(f.className);
  changes.unitsModified = changes.unitsModified.filter((r) => r.kind !== 'class' || !explained.has(r.name));

  changes.controlFlow = countDiff(before, after, (f) => f.controlFlow).map((d) => ({ kind: d.key as ControlFlowKind, scope: d.scope, file: d.file, delta: d.delta }) satisfies ControlFlowChange);
  const calls = countDiff(before, after, (f) => f.calls);
  changes.callsAdded = calls.filter((d) => d.delta > 0).map((d) => ({ target: d.key, scope: d.scope, file: d.file, delta: d.delta }) satisfies CallChange);
  changes.callsRemoved = calls.filter((d) => d.delta < 0).map((d) => ({ target: d.key, scope: d.scope, file: d.file, delta: d.delta }) satisfies CallChange);

  changes.moduleCodeChanged = [...before].filter(([p, m]) => after.has(p) && after.get(p)!.facts.moduleCodeHash !== m.facts.moduleCodeHash).map(([p]) => p);
  return changes;
}

/** Net count changes per (scope, key); module-level scopes are kept apart per file. */
function countDiff(before: Map<string, BundleModule>, after: Map<string, BundleModule>, pick: (f: ModuleFacts) => CountFact[]): { scope: string | null; key: string; file: string; delta: number }[] {
  const table = new Map<string, { scope: string | null; key: string; file: string; delta: number }>();
  const add = (mods: Map<string, BundleModule>, sign: number): void => {
    for (const [file, m] of mods) {
      for (const c of pick(m.facts)) {
        const k = `${c.scope ?? `<module ${file}>`}\u0000${c.key}`;
        const row = table.get(k);
        if (row) {
          row.delta += sign * c.count;
          if (sign > 0) row.file = file;
        } else table.set(k, { scope: c.scope, key: c.key, file, delta: sign * c.count });
      }
    }
  };
  add(before, -1);
  add(after, 1);
  return [...table.values()].filter((r) => r.delta !== 0);
}
