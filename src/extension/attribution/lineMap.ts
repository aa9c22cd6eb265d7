/**
 * Where the lines of a submission's checkpoint are in the file as it is now: attribution names
 * lines of the code that ran, and the user keeps editing. Only lines the edit left unchanged map;
 * a changed or deleted line has no place any more. No `vscode` import.
 */
import { diffArrays } from 'diff';

/** 1-based line in `before` → 1-based line in `after`, for the lines an edit did not touch. */
export function unchangedLines(before: string, after: string): Map<number, number> {
  const map = new Map<number, number>();
  if (before === after) {
    before.split('\n').forEach((_, i) => map.set(i + 1, i + 1));
    return map;
  }
  let a = 1;
  let b = 1;
  for (const part of diffArrays(before.split('\n'), after.split('\n'))) {
    const n = part.count ?? part.value.length;
    if (part.added) b += n;
    else if (part.removed) a += n;
    else for (let i = 0; i < n; i++) map.set(a++, b++);
  }
  return map;
}
