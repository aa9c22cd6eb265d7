/**
 * Reuses a build when `policy/` is byte-for-byte what was built before (an agent resubmitting
 * the same policy on more cases): the key hashes every file under `policy/` (paths and bytes)
 * plus the workspace root, so any change, even to a file the bundle does not reach, rebuilds.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BuildResult } from '../sandbox/types';

const MAX_ENTRIES = 32;
/** Folders larger than this are not cached (the sandbox's own limits reject them anyway). */
const MAX_FILES = 512;

export class BuildCache {
  private readonly entries = new Map<string, BuildResult>();

  /**
   * Synchronous: a policy folder is a handful of small files, which read in line in less time
   * than the thread-pool round trips of reading them asynchronously.
   */
  key(root: string): string | undefined {
    const hash = createHash('sha256').update(path.resolve(root)).update('\0');
    const files: string[] = [];
    const walk = (dir: string): boolean => {
      let entries;
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return false;
      }
      for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        const abs = path.join(dir, e.name);
        if (e.isSymbolicLink()) return false; // let the sandbox judge links every time
        if (e.isDirectory()) {
          if (!walk(abs)) return false;
        } else if (e.isFile()) {
          files.push(abs);
          if (files.length > MAX_FILES) return false;
        }
      }
      return true;
    };
    if (!walk(path.join(root, 'policy'))) return undefined;
    for (const f of files) {
      hash.update(path.relative(root, f)).update('\0');
      try {
        hash.update(fs.readFileSync(f)).update('\0');
      } catch {
        return undefined; // removed while hashing: build it and let the sandbox say what is missing
      }
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
