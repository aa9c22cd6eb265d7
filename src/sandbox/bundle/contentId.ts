/** The checkpoint id: sha256 over the sorted (path, bytes) of a bundle's source files. */
import { createHash } from 'node:crypto';

export function contentId(files: ReadonlyMap<string, Uint8Array>): string {
  const hash = createHash('sha256');
  for (const p of [...files.keys()].sort()) {
    const bytes = files.get(p) as Uint8Array;
    // Length-prefixed fields, so ("ab", "c") and ("a", "bc") never collide.
    hash.update(`${Buffer.byteLength(p)}:${p}\0${bytes.byteLength}:`);
    hash.update(bytes);
  }
  return hash.digest('hex');
}
