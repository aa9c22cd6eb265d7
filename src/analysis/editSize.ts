/** Edit size: lines added and removed across the bundle (jsdiff line diff), and its bin. */
import { diffLines } from 'diff';
import type { EditSize, EditSizeBin, FileEditSize } from '../protocol/analysis';
import type { Bundle } from './bundle';

export function sizeBin(linesChanged: number): EditSizeBin {
  if (linesChanged === 0) return 'none';
  if (linesChanged <= 5) return 'small';
  if (linesChanged <= 30) return 'medium';
  return 'large';
}

function lineCount(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export function editSize(parent: Bundle, child: Bundle): EditSize {
  const before = new Map(parent.modules.map((m) => [m.path, m.text]));
  const after = new Map(child.modules.map((m) => [m.path, m.text]));
  const files: FileEditSize[] = [];
  for (const p of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const a = before.get(p);
    const b = after.get(p);
    if (a === b) continue;
    let added = 0;
    let removed = 0;
    if (a === undefined) added = lineCount(b!);
    else if (b === undefined) removed = lineCount(a);
    else {
      for (const part of diffLines(a, b)) {
        if (part.added) added += part.count;
        else if (part.removed) removed += part.count;
      }
    }
    files.push({ file: p, added, removed });
  }
  const linesAdded = files.reduce((s, f) => s + f.added, 0);
  const linesRemoved = files.reduce((s, f) => s + f.removed, 0);
  const linesChanged = Math.max(linesAdded, linesRemoved);
  return { linesAdded, linesRemoved, linesChanged, bin: sizeBin(linesChanged), files };
}
