/**
 * Empty files made while the runner is idle, for a feedback commit to rename into place instead
 * of creating its 2 files per episode then.
 *
 * Why: creating a file allocates an inode, and what that costs depends on the file system's
 * recent past. On ext4 without a journal (these VMs' disks), the allocator steps over every
 * inode of the block group deleted in the last 1-6 minutes (`recently_deleted` in
 * `find_inode_bit`): after a test run or a cleanup had deleted a few thousand files, a create
 * took 40-230 µs instead of 15, and the 256 creates of a 128-episode commit were most of a
 * submit's overhead. A rename only moves a directory entry and allocates nothing, so the
 * allocation happens in the time an agent spends reading feedback and editing, not while it
 * waits. Elsewhere a rename costs about what a create does, so nothing is lost there.
 *
 * A spare is taken whole, by one rename; it is opened without O_TRUNC (truncating makes ext4
 * write the file's data back at close, as for a file replaced in place) and cut to 0 only in
 * the unexpected case that something wrote into it. Refilling runs a slice per event-loop turn
 * and stops as soon as a submission begins, so it never competes with a batch for the CPU.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Files made per event-loop turn while refilling: small enough that a request is not kept waiting. */
const REFILL_SLICE = 16;
const SPARE_NAME = /^spare-[0-9a-f]{8}-\d+$/;

export class SpareFiles {
  /** Spares known to exist, taken from the end. */
  private readonly available: string[] = [];
  private readonly prefix = `spare-${randomBytes(4).toString('hex')}-`;
  private made = 0;
  private refilling: Promise<void> | null = null;
  private paused = false;
  /** Retired, closed, or after a rename that cannot work here (another file system, no permission): files are created as before. */
  private disabled = false;

  constructor(
    private readonly dir: string,
    /** How many to keep ready: both files of the largest submission, within reason. */
    readonly target: number,
  ) {
    try {
      for (const name of fs.readdirSync(dir)) if (SPARE_NAME.test(name)) this.available.push(name);
    } catch {
      // None yet.
    }
  }

  get count(): number {
    return this.available.length;
  }

  /**
   * Moves a spare to `file` (which must not exist) and opens it for writing, empty; or, with no
   * spare left, creates `file`. Returns the open descriptor.
   */
  open(file: string): number {
    while (!this.disabled && this.available.length > 0) {
      const name = this.available.pop()!;
      try {
        fs.renameSync(path.join(this.dir, name), file);
      } catch (e) {
        // Gone meanwhile (someone cleaned the folder): try the next one. Anything else: stop using spares.
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.disabled = true;
        continue;
      }
      const fd = fs.openSync(file, 'r+');
      if (fs.fstatSync(fd).size !== 0) fs.ftruncateSync(fd, 0);
      return fd;
    }
    return fs.openSync(file, 'w');
  }

  /** Stops a refill at its next slice: a submission is about to use the CPU and the disk. */
  pause(): void {
    this.paused = true;
  }

  /** Makes spares up to the target in the background; resolves when done or paused. */
  refill(): Promise<void> {
    this.paused = false;
    if (this.disabled || this.available.length >= this.target) return Promise.resolve();
    this.refilling ??= this.fill().finally(() => {
      this.refilling = null;
    });
    return this.refilling;
  }

  private async fill(): Promise<void> {
    try {
      // Not recursive: a workspace deleted under a closing runner is not brought back.
      if (!fs.existsSync(this.dir)) fs.mkdirSync(this.dir);
      while (!this.paused && this.available.length < this.target) {
        for (let i = 0; i < REFILL_SLICE && this.available.length < this.target; i++) {
          const name = `${this.prefix}${this.made++}`;
          // 'wx': a name this runner made is never reused, and an existing file is not touched.
          fs.closeSync(fs.openSync(path.join(this.dir, name), 'wx'));
          this.available.push(name);
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch {
      // A full disk, say: commits create their files as before (and report the disk if it stops them).
    }
  }

  /** Makes no more (the runner is stopping); the spares stay for the next runner. */
  close(): void {
    this.paused = true;
    this.disabled = true;
  }

  /** Removes every spare (the agent phase is over: no more feedback will be written). */
  retire(): void {
    this.close();
    this.available.length = 0;
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
