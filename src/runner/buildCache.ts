/**
 * Reuses a build when `policy/` is byte-for-byte what was built before (an agent resubmitting
 * the same policy on more cases): the key hashes every file under `policy/` (paths and bytes)
 * plus the workspace root, so any change, even to a file the bundle does not reach, rebuilds.
 */
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { BuildResult } from '../sandbox/types';

const MAX_ENTRIES = 32;
/** Folders larger than this are not cached (the sandbox's own limits reject them anyway). */
const MAX_FILES = 512;

export class BuildCache {
  private readonly entries = new Map<string, BuildResult>();

  async key(root: string): Promise<string | undefined> {
    const hash = createHash('sha256').update(path.resolve(root)).update('\0');
    const files: string[] = [];
    const walk = async (dir: string): Promise<boolean> => {
      let entries;
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch {
        return false;
      }
      for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        const abs = path.join(dir, e.name);
        if (e.isSymbolicLink()) return false; // let the sandbox judge links every time
        if (e.isDirectory()) {
          if (!(await walk(abs))) return false;
        } else if (e.isFile()) {
          files.push(abs);
          if (files.length > MAX_FILES) return false;
        }
      }
      return true;
    };
    if (!(await walk(path.join(root, 'policy')))) return undefined;
    for (const f of files) {
      hash.update(path.relative(root, f)).update('\0');
      hash.update(await fsp.readFile(f)).update('\0');
    }
    return hash.digest('hex');
  }

  get(key: string): BuildResult | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, result: BuildResult): void {
    this.entries.set(key, result);
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }
}
