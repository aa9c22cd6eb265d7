/**
 * A worker's garbage, collected at the end of a chunk once it has grown past a small margin.
 *
 * Workers run with a 1 MiB young generation (pool/workerSpawn.ts), so what an episode holds for a
 * few steps (its trajectory, its records, a policy's own per-episode state) is promoted to the old
 * generation and left there as garbage when the episode ends. V8 collects the old generation only
 * once it has grown by about 8 MiB (or a factor of the live size) past what the last collection
 * kept, and keeps the freed pages committed until its memory reducer runs, seconds after the
 * process went idle, and only if a collection ran lately. So a worker's resident memory rose with
 * every submit, to ~10 MiB above what it holds, and stayed there between back-to-back submits.
 * A full collection of a worker's heap (~15 MiB live) takes a few milliseconds: done at a chunk's
 * end, where no policy code runs and no deadline is armed, once GROWTH_BYTES of garbage may have
 * accumulated, it keeps the worker within that margin of its live size at no measurable cost.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Growth of the used or the committed heap since the last collection that triggers the next one. */
export const GROWTH_BYTES = 2 * 1024 * 1024;

export class HeapCollector {
  private usedAfter: number;
  private committedAfter: number;
  private count = 0;

  constructor(private readonly gc: (() => void) | undefined = exposeGc()) {
    const heap = getHeapStatistics();
    this.usedAfter = heap.used_heap_size;
    this.committedAfter = heap.total_heap_size;
  }

  /** Collections run so far. */
  get collections(): number {
    return this.count;
  }

  /** Collects the garbage if the heap grew by GROWTH_BYTES since the last time; whether it did. */
  atChunkEnd(): boolean {
    if (!this.gc) return false;
    const heap = getHeapStatistics();
    // Committed memory too: after a collection of V8's own the used size is back down, but the
    // pages it freed stay committed until a collection that gives them back.
    if (heap.used_heap_size < this.usedAfter + GROWTH_BYTES && heap.total_heap_size < this.committedAfter + GROWTH_BYTES) return false;
    this.gc();
    this.count++;
    const after = getHeapStatistics();
    this.usedAfter = after.used_heap_size;
    this.committedAfter = after.total_heap_size;
    return true;
  }
}

/**
 * V8's `gc` function, taken from a context made while `--expose-gc` was on, and the flag turned off
 * again at once: contexts made later (every policy realm) do not get it. The worker's command line
 * cannot carry the flag, which would hand `gc` to every realm. Undefined where the flag cannot be set.
 */
function exposeGc(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
