/**
 * Human-readable lines for an edit, most telling first: what machinery appeared or went, then
 * control flow and state, then the literals. Agents read these in feedback, so they name things
 * the way the code does ("if added in Policy.act", "Policy.gain: 0.5 → 0.7 (policy.ts:8)").
 */
import { COSMETIC_DETAIL, type ControlFlowChange, type ImportRef, type LiteralChange, type StateFieldRef, type StructuralChanges, type UnitRef } from '../protocol/analysis';
import type { Classification } from './classify';

const CF_NAMES: Record<ControlFlowChange['kind'], [string, string]> = {
  if: ['if', 'ifs'],
  for: ['for loop', 'for loops'],
  'for-of': ['for-of loop', 'for-of loops'],
  'for-in': ['for-in loop', 'for-in loops'],
  while: ['while loop', 'while loops'],
  'do-while': ['do-while loop', 'do-while loops'],
  switch: ['switch', 'switches'],
  case: ['case', 'cases'],
  ternary: ['ternary', 'ternaries'],
  and: ['&&', '&&'],
  or: ['||', '||'],
  nullish: ['??', '??'],
  try: ['try', 'tries'],
};

function count(n: number, [one, many]: [string, string]): string {
  return n === 1 ? one : `${n} ${many}`;
}

export function literalLine(c: LiteralChange): string {
  return `${c.enclosing ?? c.file}: ${c.oldText} → ${c.newText} (${c.file}:${c.line})`;
}

function unitLine(r: UnitRef, verb: string, cf: ControlFlowChange[]): string {
  const flow = cf.filter((c) => c.scope === r.name && c.delta !== 0).map((c) => count(Math.abs(c.delta), CF_NAMES[c.kind]));
  return `${r.kind} ${r.name} ${verb} (${r.file})${flow.length > 0 ? `: ${flow.join(', ')}` : ''}`;
}

/** One line per (file, specifier): "import added: policy.ts ← ./planner {bfs, Grid}". */
function importLines(refs: ImportRef[], verb: string): string[] {
  const groups = new Map<string, string[]>();
  for (const i of refs) {
    const k = `${i.file} ← ${i.from}`;
    groups.set(k, [...(groups.get(k) ?? []), ...(i.name ? [i.name] : [])]);
  }
  return [...groups].map(([k, names]) => `import ${verb}: ${k}${names.length > 0 ? ` {${names.join(', ')}}` : ''}`);
}

function structuralLines(s: StructuralChanges): string[] {
  if (s.renameOnly) {
    const byPair = new Map<string, { declares: string; files: string[] }>();
    for (const r of s.renames) {
      const k = `${r.from} → ${r.to}`;
      const row = byPair.get(k) ?? { declares: r.declares, files: [] };
      row.files.push(r.file);
      if (row.declares === 'unknown') row.declares = r.declares;
      byPair.set(k, row);
    }
    return [...byPair].map(([k, v]) => `rename only: ${v.declares === 'unknown' ? '' : `${v.declares} `}${k} (${v.files.join(', ')})`);
  }
  const lines: string[] = [];
  for (const m of s.modulesAdded) lines.push(`module added: ${m}`);
  for (const m of s.modulesRemoved) lines.push(`module removed: ${m}`);
  const gone = new Set([...s.unitsAdded, ...s.unitsRemoved].map((r) => r.name));
  // Members of a class added or removed as a whole are listed on the class's line; fields
  // added or removed are reported once, as state fields.
  const wholeClasses = new Set([...s.unitsAdded, ...s.unitsRemoved].filter((r) => r.kind === 'class').map((r) => r.name));
  const inWholeClass = (name: string): boolean => wholeClasses.has(name.slice(0, Math.max(0, name.indexOf('.'))));
  const fieldChanges = new Set([...s.stateFieldsAdded, ...s.stateFieldsRemoved].map((f) => `${f.className}.${f.name}`));
  const listed = (r: UnitRef): boolean => !inWholeClass(r.name) && (r.kind !== 'field' || !fieldChanges.has(r.name));
  const classLine = (r: UnitRef, verb: string, units: UnitRef[], fields: StateFieldRef[]): string => {
    const methods = units.filter((u) => u.kind === 'method' && u.name.startsWith(`${r.name}.`)).map((u) => u.name.slice(r.name.length + 1));
    const state = fields.filter((f) => f.className === r.name).map((f) => f.name);
    const parts = [methods.length > 0 ? `methods ${methods.join(', ')}` : '', state.length > 0 ? `state ${state.join(', ')}` : ''].filter(Boolean);
    return `class ${r.name} ${verb} (${r.file})${parts.length > 0 ? `: ${parts.join('; ')}` : ''}`;
  };
  const negated = s.controlFlow.map((c) => ({ ...c, delta: -c.delta }));
  for (const r of s.unitsAdded.filter(listed)) lines.push(r.kind === 'class' ? classLine(r, 'added', s.unitsAdded, s.stateFieldsAdded) : unitLine(r, 'added', s.controlFlow));
  for (const r of s.unitsRemoved.filter(listed)) lines.push(r.kind === 'class' ? classLine(r, 'removed', s.unitsRemoved, s.stateFieldsRemoved) : unitLine(r, 'removed', negated));
  for (const m of s.unitsMoved) lines.push(`${m.kind} ${m.name} moved ${m.from} → ${m.to}${m.modified ? ' (and modified)' : ''}`);
  for (const f of s.stateFieldsAdded) if (!wholeClasses.has(f.className)) lines.push(`state field ${f.className}.${f.name} added`);
  for (const f of s.stateFieldsRemoved) if (!wholeClasses.has(f.className)) lines.push(`state field ${f.className}.${f.name} removed`);
  for (const c of s.controlFlow) {
    if (c.scope !== null && (gone.has(c.scope) || inWholeClass(c.scope))) continue;
    const where = c.scope ?? `module code of ${c.file}`;
    lines.push(`${count(Math.abs(c.delta), CF_NAMES[c.kind])} ${c.delta > 0 ? 'added' : 'removed'} in ${where}`);
  }
  for (const r of s.unitsModified) lines.push(`${r.kind} ${r.name} modified (${r.file})`);
  lines.push(...importLines(s.importsAdded, 'added'), ...importLines(s.importsRemoved, 'removed'));
  for (const c of s.callsAdded) if (c.scope === null || !(gone.has(c.scope) || inWholeClass(c.scope))) lines.push(`call added: ${c.target} in ${c.scope ?? c.file}${c.delta > 1 ? ` (×${c.delta})` : ''}`);
  for (const c of s.callsRemoved) if (c.scope === null || !(gone.has(c.scope) || inWholeClass(c.scope))) lines.push(`call removed: ${c.target} in ${c.scope ?? c.file}${c.delta < -1 ? ` (×${-c.delta})` : ''}`);
  for (const f of s.moduleCodeChanged) lines.push(f.endsWith('.json') ? `shape of ${f} changed` : `module-level code changed in ${f}`);
  if (lines.length === 0) lines.push('syntax changed without a named unit, control-flow, state, call or import change');
  return lines;
}

export function describeEdit(c: Classification): string[] {
  if (c.class === 'identical') return ['no change (same content hash)'];
  if (c.class === 'parametric') return c.cosmetic ? [COSMETIC_DETAIL] : c.literalChanges.map(literalLine);
  return [...structuralLines(c.structural!), ...c.literalChanges.map(literalLine)];
}
