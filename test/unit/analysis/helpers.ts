/** Temp policy folders for the analysis tests. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Writes `files` (paths relative to `root`) and returns `root`. */
export function writeTree(root: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  }
  return root;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `pf-analysis-${prefix}-`));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}
