/**
 * A batch's progress as clients see it: its first count at once, then at most one notification
 * per interval carrying the newest count, and the final count always. A rolled-back batch stops
 * its throttle and sends nothing more, so no count arrives after its rollback.
 */
import type { ProgressNotification } from '../protocol/run';
import { progressBatch } from '../stats/progressText';

const PROGRESS_INTERVAL_MS = 100;

export class ProgressThrottle {
  private pending: ProgressNotification | null = null;
  private timer: NodeJS.Timeout | undefined;
  private lastSent = -Infinity;
  /** The batch the last notification counted. */
  private lastBatch = '';

  constructor(
    private readonly send: (progress: ProgressNotification) => void,
    private readonly intervalMs = PROGRESS_INTERVAL_MS,
  ) {}

  update(progress: ProgressNotification): void {
    this.pending = progress;
    const batch = progressBatch(progress);
    if (batch !== this.lastBatch) this.cancelTimer();
    else if (this.timer !== undefined) return;
    const wait = batch !== this.lastBatch ? 0 : this.lastSent + this.intervalMs - performance.now();
    if (wait <= 0) this.flush();
    else
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, wait).unref();
  }

  /** The batch ended: its newest count goes out now. */
  finish(): void {
    this.cancelTimer();
    this.flush();
  }

  /** The batch was rolled back: nothing pending goes out. */
  stop(): void {
    this.cancelTimer();
    this.pending = null;
  }

  private flush(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    this.lastSent = performance.now();
    this.lastBatch = progressBatch(p);
    this.send(p);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
