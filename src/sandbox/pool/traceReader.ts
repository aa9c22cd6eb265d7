/**
 * The host's end of a worker's trace pipe (see worker/trace.ts): the last position and the log
 * so far of the traced episode. Lines of an earlier job are forgotten when another job's arrive.
 */
import type { EpisodePhase, EpisodePosition } from '../worker/messages';

const PHASES: ReadonlySet<string> = new Set<EpisodePhase>(['setup', 'module', 'constructor', 'reset', 'act']);

export class TraceReader {
  private partial = '';
  private job = -1;
  private where: Omit<EpisodePosition, 'elapsedMs'> | undefined;
  private logText = '';
  private logTruncated = false;

  /** Text read from the pipe, in order. */
  push(chunk: string): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.line(line);
  }

  /** Where the traced episode of `job` last said it was. */
  position(job: number): Omit<EpisodePosition, 'elapsedMs'> | undefined {
    return this.job === job ? this.where : undefined;
  }

  /** What the traced episode of `job` printed, as the record's `log` would hold it. */
  log(job: number): { text: string; truncated: boolean } | undefined {
    return this.job === job ? { text: this.logText, truncated: this.logTruncated } : undefined;
  }

  private line(line: string): void {
    const a = line.indexOf(' ');
    const b = line.indexOf(' ', a + 1);
    const c = line.indexOf(' ', b + 1);
    if (a < 0 || b < 0 || c < 0) return;
    const job = Number(line.slice(0, a));
    const kind = line.slice(a + 1, b);
    if (!Number.isInteger(job)) return;
    if (job !== this.job) {
      this.job = job;
      this.where = undefined;
      this.logText = '';
      this.logTruncated = false;
    }
    if (kind === 'log') {
      try {
        const text = JSON.parse(line.slice(c + 1)) as unknown;
        if (typeof text === 'string') this.logText += text;
      } catch {
        return;
      }
      this.logTruncated = line.slice(b + 1, c) === '1';
    } else if (PHASES.has(kind)) {
      this.where = { job, phase: kind as EpisodePhase, steps: Number(line.slice(b + 1, c)), return: Number(line.slice(c + 1)) };
    }
  }
}
