/**
 * Records, in order, the fsyncs, renames and journal appends the runner makes in this process,
 * each by the path it concerns, while still doing them for real. It is how the tests check that
 * what survives a machine crash is what the charge vouches for: a power loss cannot be staged
 * in a unit test, but the order of fsyncs and renames that makes it harmless can be read.
 * Linux only (paths of descriptors are read from /proc/self/fd).
 */
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import { createRequire } from 'node:module';

export type FsEvent = { op: 'fsync'; path: string } | { op: 'rename'; from: string; to: string } | { op: 'write'; path: string; text: string };

export const canSpy = fs.existsSync('/proc/self/fd');

/** The real `fs` module object: the one the runner's namespace imports read their functions from. */
const nodeFs = createRequire(__filename)('node:fs') as typeof fs;

function pathOf(fd: number): string {
  return fs.readlinkSync(`/proc/self/fd/${fd}`);
}

/** Starts recording; returns the log and a function that stops recording and restores `fs`. */
export async function spyOnFsyncs(): Promise<{ events: FsEvent[]; restore: () => void }> {
  const events: FsEvent[] = [];
  const fsyncSync = nodeFs.fsyncSync;
  const fdatasyncSync = nodeFs.fdatasyncSync;
  const renameSync = nodeFs.renameSync;
  const writeSync = nodeFs.writeSync;
  const probe = await fsp.open(__filename, 'r');
  const handleProto = Object.getPrototypeOf(probe) as { sync: (this: { fd: number }) => Promise<void> };
  await probe.close();
  const handleSync = handleProto.sync;
  nodeFs.fsyncSync = (fd: number) => {
    events.push({ op: 'fsync', path: pathOf(fd) });
    fsyncSync(fd);
  };
  nodeFs.fdatasyncSync = (fd: number) => {
    events.push({ op: 'fsync', path: pathOf(fd) });
    fdatasyncSync(fd);
  };
  nodeFs.renameSync = (from: fs.PathLike, to: fs.PathLike) => {
    renameSync(from, to);
    events.push({ op: 'rename', from: String(from), to: String(to) });
  };
  nodeFs.writeSync = ((fd: number, data: unknown, ...rest: unknown[]) => {
    if (typeof data === 'string') events.push({ op: 'write', path: pathOf(fd), text: data });
    return (writeSync as (...a: unknown[]) => number)(fd, data, ...rest);
  }) as typeof fs.writeSync;
  handleProto.sync = async function (this: { fd: number }) {
    const file = pathOf(this.fd);
    await handleSync.call(this);
    events.push({ op: 'fsync', path: file });
  };
  return {
    events,
    restore: () => {
      nodeFs.fsyncSync = fsyncSync;
      nodeFs.fdatasyncSync = fdatasyncSync;
      nodeFs.renameSync = renameSync;
      nodeFs.writeSync = writeSync;
      handleProto.sync = handleSync;
    },
  };
}

/** Index of the first event matching `match`, or -1. */
export function indexOf(events: readonly FsEvent[], match: (e: FsEvent) => boolean): number {
  return events.findIndex(match);
}
