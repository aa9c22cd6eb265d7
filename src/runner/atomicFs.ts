/** Crash-safe file writes: write beside the target, fsync, rename over it, fsync the directory. */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

export function fsyncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Some filesystems refuse fsync on directories; the rename is still atomic there.
  }
}

/** fsync of a file (`r+`: Windows flushes only handles opened for writing) or directory (`r`) on the thread pool. */
async function fsyncAsync(file: string, flags: 'r' | 'r+'): Promise<void> {
  const handle = await fsp.open(file, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** fsyncDir on the thread pool. */
export async function fsyncDirAsync(dir: string): Promise<void> {
  await fsyncAsync(dir, 'r').catch(() => {
    // As fsyncDir.
  });
}

/**
 * Replaces `file` with one rename over it from a temp file beside it: readers see the old or the
 * new contents, never part of either. `durable` fsyncs the file before the rename and the
 * directory after it; without, a machine crash may leave the old or an empty file.
 */
export function replaceFile(file: string, data: string | Uint8Array, opts: { durable: boolean; mode?: number }): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = fs.openSync(tmp, 'w', opts.mode ?? 0o644);
  try {
    fs.writeFileSync(fd, data);
    if (opts.durable) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  if (opts.mode !== undefined) fs.chmodSync(tmp, opts.mode);
  fs.renameSync(tmp, file);
  if (opts.durable) fsyncDir(dir);
}

export function writeFileAtomic(file: string, data: string | Uint8Array, mode?: number): void {
  replaceFile(file, data, { durable: true, mode });
}

export function writeJsonAtomic(file: string, value: unknown, mode?: number): void {
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, mode);
}

/**
 * As writeJsonAtomic but without fsync: for files the runner writes again on every start
 * (`feedback/latest.json`), where an old or empty file after a machine crash does no harm.
 */
export function replaceJson(file: string, value: unknown): void {
  replaceFile(file, `${JSON.stringify(value, null, 2)}\n`, { durable: false });
}

/** Writes and fsyncs a file in place (inside a temp dir that is renamed as a whole, or a file whose loss is caught later). */
export function writeFileDurable(file: string, data: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** writeFileDurable on the thread pool, for a file whose folder exists. */
export async function writeFileDurableAsync(file: string, data: string | Uint8Array): Promise<void> {
  const handle = await fsp.open(file, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}
