/**
 * Restart policy of the runner supervisor: exponential backoff from `baseMs` capped at `maxMs`,
 * reset once a runner stayed up for `stableMs`; after `maxAttempts` quick deaths in a row it
 * gives up (a runner that cannot start will not start on the tenth try either).
 */
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  stableMs: number;
  maxAttempts: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 15_000, stableMs: 30_000, maxAttempts: 6 };

export class RestartBackoff {
  private failures = 0;

  constructor(private readonly options: BackoffOptions = DEFAULT_BACKOFF) {}

  /** Delay before the next start after a runner that lived `uptimeMs` died, or null to give up. */
  next(uptimeMs: number): number | null {
    if (uptimeMs >= this.options.stableMs) this.failures = 0;
    this.failures++;
    if (this.failures > this.options.maxAttempts) return null;
    return Math.min(this.options.maxMs, this.options.baseMs * 2 ** (this.failures - 1));
  }

  get attempts(): number {
    return this.failures;
  }

  reset(): void {
    this.failures = 0;
  }
}
