/**
 * History of a numeric literal across checkpoints, for the hover. The literal under the cursor is
 * followed through the edit analysis's literal mapping (src/analysis/literalMap.ts), not by its
 * position among the file's literals, so it is still found after structural edits (a new branch,
 * a new helper) as long as it survived them. It is followed newest to oldest, one checkpoint to
 * the one before, the way the edits were made; where that chain breaks, the checkpoint is
 * matched against the open document directly. No `vscode` import: unit-tested as is.
 */
import { literalAtOffset, mapLiterals, moduleFacts, type LiteralFact, type ModuleFacts } from '../../analysis';

export interface CheckpointSource {
  submission: number;
  /** The same file's source in that checkpoint, or undefined when the file did not exist then. */
  source: string | undefined;
  /** Train mean of the submission and its edit class, for the hover table. */
  mean: number;
  editClass?: string;
}

export type MissingReason = 'file missing' | 'not in this checkpoint';

export type HistoryEntry =
  | { submission: number; mean: number; editClass?: string; value: number; text: string }
  | { submission: number; mean: number; editClass?: string; value: null; reason: MissingReason };

export interface LiteralHistory {
  /** The numeric literal under the cursor in the open document (offsets into its text). */
  literal: Pick<LiteralFact, 'start' | 'end' | 'text' | 'value'>;
  /** Oldest first. */
  entries: HistoryEntry[];
}

/** Mappings by (parent, child) content: hovering again, or over another literal, reuses them. */
const MAX_CACHED_MAPS = 512;
const maps = new Map<string, (number | null)[]>();

function cachedMap(parent: ModuleFacts, child: ModuleFacts): (number | null)[] {
  const key = `${parent.contentHash}:${child.contentHash}`;
  let m = maps.get(key);
  if (!m) {
    m = mapLiterals(parent, child);
    maps.set(key, m);
    if (maps.size > MAX_CACHED_MAPS) maps.delete(maps.keys().next().value as string);
  }
  return m;
}

/**
 * The numeric literal at `offset` in `current` (the open document's text of `file`) and its value
 * in each checkpoint, or undefined when no numeric literal is there.
 */
export async function literalHistory(file: string, current: string, offset: number, checkpoints: readonly CheckpointSource[]): Promise<LiteralHistory | undefined> {
  const now = await moduleFacts(file, current);
  const at = literalAtOffset(now, offset);
  if (!at || at.literal.kind !== 'number') return undefined;
  const sorted = [...checkpoints].sort((a, b) => a.submission - b.submission);
  const entries: HistoryEntry[] = new Array<HistoryEntry>(sorted.length);
  // Walk back from the document: `newer` is the last version the literal was found in.
  let newer: { facts: ModuleFacts; index: number } | null = { facts: now, index: at.index };
  for (let k = sorted.length - 1; k >= 0; k--) {
    const cp = sorted[k]!;
    const base = { submission: cp.submission, mean: cp.mean, ...(cp.editClass ? { editClass: cp.editClass } : {}) };
    if (cp.source === undefined) {
      entries[k] = { ...base, value: null, reason: 'file missing' };
      continue;
    }
    const facts = await moduleFacts(file, cp.source);
    let index: number | null = newer ? (cachedMap(facts, newer.facts)[newer.index] ?? null) : null;
    if (index === null && newer?.facts !== now) index = cachedMap(facts, now)[at.index] ?? null;
    const lit = index === null ? undefined : facts.literals[index];
    if (index === null || !lit || lit.kind !== 'number') {
      entries[k] = { ...base, value: null, reason: 'not in this checkpoint' };
      newer = null;
      continue;
    }
    entries[k] = { ...base, value: lit.value as number, text: lit.text };
    newer = { facts, index };
  }
  const { start, end, text, value } = at.literal;
  return { literal: { start, end, text, value }, entries };
}
