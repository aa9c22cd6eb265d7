/**
 * The pool's queue of episodes waiting for a worker. Every operation the dispatch loop repeats
 * per chunk costs time in the chunk's size, not in the queue's length, so a batch of 64k
 * episodes costs per episode what a batch of 4k does: the front is a moving index, not a shift,
 * and what is queued per batch and per plugin set is counted as jobs come and go.
 */

/** What the queue needs to know of a job. */
export interface QueueJob {
  /** The batch the job belongs to (compared by identity). */
  readonly batch: object;
  /** The plugin set a worker must have loaded to run it. */
  readonly pluginKey: string;
  readonly plugins: readonly string[];
  /** Runs alone (see workerHandle.ts): never part of a chunk. */
  exact: boolean;
}

/** A front index this far in (and past half the array) is cut off, so taken jobs can be freed. */
const COMPACT_AT = 1024;

export class JobQueue<J extends QueueJob> {
  private jobs: J[] = [];
  private head = 0;
  private readonly perBatch = new Map<object, number>();
  /** Queued jobs per plugin set, with that set's plugin paths. */
  private readonly perPlugins = new Map<string, { plugins: readonly string[]; count: number }>();

  get length(): number {
    return this.jobs.length - this.head;
  }

  /** Jobs of `batch` still queued. */
  queuedOf(batch: object): number {
    return this.perBatch.get(batch) ?? 0;
  }

  /** The plugin sets of the queued jobs, in no particular order, with their plugin paths. */
  pluginSets(): IterableIterator<[string, { plugins: readonly string[]; count: number }]> {
    return this.perPlugins.entries();
  }

  /** Appends jobs at the back. */
  push(jobs: readonly J[]): void {
    for (const j of jobs) {
      this.jobs.push(j);
      this.counted(j, 1);
    }
  }

  /** Puts jobs back at the front, in the order given (before everything queued). */
  putFront(jobs: readonly J[]): void {
    if (jobs.length === 0) return;
    if (this.head >= jobs.length) {
      this.head -= jobs.length;
      jobs.forEach((j, i) => (this.jobs[this.head + i] = j));
    } else {
      this.jobs = [...jobs, ...this.jobs.slice(this.head)];
      this.head = 0;
    }
    for (const j of jobs) this.counted(j, 1);
  }

  /** The first queued job a worker with `pluginKey` can run and `accepts`, if any. */
  firstFor(pluginKey: string, accepts: (job: J) => boolean = () => true): J | undefined {
    if (!this.perPlugins.has(pluginKey)) return undefined;
    for (let k = this.head; k < this.jobs.length; k++) {
      const job = this.jobs[k] as J;
      if (job.pluginKey === pluginKey && accepts(job)) return job;
    }
    return undefined;
  }

  /**
   * Takes `first` (a queued job) and, unless it is exact, up to `size - 1` more non-exact jobs
   * of its batch that follow it, skipping others, which keep their places.
   */
  take(first: J, size: number): J[] {
    let k = this.jobs.indexOf(first, this.head);
    if (k < 0) return [];
    const taken: J[] = [];
    const skipped: J[] = [];
    const start = k;
    // Bounded by what the batch has queued: the scan need not run past the batch's last job.
    const wanted = first.exact ? 1 : Math.max(1, Math.min(size, this.queuedOf(first.batch)));
    for (; k < this.jobs.length && taken.length < wanted; k++) {
      const j = this.jobs[k] as J;
      if (j === first || (j.batch === first.batch && !j.exact && !first.exact)) taken.push(j);
      else skipped.push(j);
    }
    // The jobs before `start` and the skipped ones stay, in order, ahead of the rest.
    const before = this.jobs.slice(this.head, start);
    const kept = [...before, ...skipped];
    this.head = k - kept.length;
    kept.forEach((j, i) => (this.jobs[this.head + i] = j));
    for (const j of taken) this.counted(j, -1);
    this.compact();
    return taken;
  }

  /** Removes and returns every queued job `match` accepts (rare: aborts, failures). */
  removeWhere(match: (j: J) => boolean): J[] {
    const removed: J[] = [];
    const kept: J[] = [];
    for (let k = this.head; k < this.jobs.length; k++) {
      const j = this.jobs[k] as J;
      (match(j) ? removed : kept).push(j);
    }
    this.jobs = kept;
    this.head = 0;
    for (const j of removed) this.counted(j, -1);
    return removed;
  }

  private counted(j: J, delta: 1 | -1): void {
    const n = (this.perBatch.get(j.batch) ?? 0) + delta;
    if (n === 0) this.perBatch.delete(j.batch);
    else this.perBatch.set(j.batch, n);
    const p = this.perPlugins.get(j.pluginKey);
    if (!p) this.perPlugins.set(j.pluginKey, { plugins: j.plugins, count: 1 });
    else if ((p.count += delta) === 0) this.perPlugins.delete(j.pluginKey);
  }

  private compact(): void {
    if (this.head >= COMPACT_AT && this.head * 2 >= this.jobs.length) {
      this.jobs = this.jobs.slice(this.head);
      this.head = 0;
    }
  }
}
