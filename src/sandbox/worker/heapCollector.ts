/**
 * A worker's garbage, collected at the end of a chunk once it has grown past a small margin.
 *
 * Workers run with a 1 MiB young generation (pool/workerSpawn.ts), so what an episode holds for a
 * few steps (its trajectory, its records, a policy's own per-episode state) is promoted to the old
 * generation and left there as garbage when the episode ends. V8 collects the old generation only
 * once it has grown by about 8 MiB (or a factor of the live size) past what the last collection
 * kept, and keeps the pages committed until its memory reducer runs, seconds after the process
 * went idle and only if it had collected lately. So a worker's resident memory rose with every
 * submit, to ~10 MiB above what it holds, and stayed there between back-to-back submits.
 *
 * The collection is the one `vm.measureMemory({ execution: 'eager' })` starts: an ordinary full
 * collection, 7 ms (CartPole) to 16 ms (FetchPickAndPlace, about one per 128-episode batch, 2% of
 * it), far inside the host's deadlines. Not V8's `gc()` (which `--expose-gc` would
 * also hand to every policy realm): a forced collection throws away compiled code and type
 * feedback, and the next batch of a short-episode environment ran twice as long while it warmed up
 * again.
 */
import { getHeapStatistics } from 'node:v8';
import { measureMemory } from 'node:vm';

/** Growth of the used heap since the last collection that makes the next one due. */
export const GROWTH_BYTES = 2 * 1024 * 1024;

/**
 * Longest the chunk's report waits for a collection: the measurement's promise is settled by a
 * task V8 posts to the event loop, and a worker must never hang on one that does not come.
 */
const MAX_WAIT_MS = 1000;

export class HeapCollector {
  private usedAfter = getHeapStatistics().used_heap_size;

  constructor(private readonly run: () => Promise<unknown> = () => measureMemory({ execution: 'eager' })) {}

  /** Whether the used heap grew by GROWTH_BYTES since the last collection. */
  due(): boolean {
    return getHeapStatistics().used_heap_size >= this.usedAfter + GROWTH_BYTES;
  }

  /** Collects the garbage; resolves once it is done (never rejects: a failed collection only skips one). */
  async collect(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([this.run(), new Promise((resolve) => (timer = setTimeout(resolve, MAX_WAIT_MS)))]);
    } catch {
      // The next chunk's end tries again.
    } finally {
      clearTimeout(timer);
    }
    this.usedAfter = getHeapStatistics().used_heap_size;
  }
}
