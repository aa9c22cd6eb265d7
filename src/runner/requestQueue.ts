/**
 * The run's one request queue: submits, restores, finishes and prebuilds run one at a time in
 * arrival order, so no two of them ever see the run's state half-changed. Queries (`status`,
 * `feedback`) do not queue.
 */
import { RunError } from './runError';

const MAX_QUEUE = 16;

export class RequestQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  /** Nothing queued or running. */
  get empty(): boolean {
    return this.waiting === 0;
  }

  /** Runs `fn` after everything queued before it; rejects with `busy` when the queue is full. */
  enqueue<T>(fn: () => Promise<T>): Promise<T> {
    if (this.waiting >= MAX_QUEUE) return Promise.reject(new RunError('busy', `${this.waiting} requests are already queued; wait for them to finish`));
    this.waiting++;
    const p = this.tail.then(fn, fn).finally(() => {
      this.waiting--;
    });
    this.tail = p.catch(() => undefined);
    return p;
  }

  /** Resolves once everything queued so far has settled. */
  async drained(): Promise<void> {
    await this.tail;
  }
}
