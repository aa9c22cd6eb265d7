/**
 * The trace channel. While it runs a traced episode (an exact chunk, see messages.ts) the worker
 * writes where it is — each phase, and the step count and return after every step — and every
 * log line the policy prints, to a pipe of its own (fd TRACE_FD), synchronously: the write is
 * done before the policy's next instruction runs. So when the host kills a worker stuck in a
 * call, it knows the call (`act` at step N, not the last step a coalesced progress message
 * named) and what the policy printed up to it. IPC messages cannot promise that: a message the
 * pipe cannot take at once waits in the worker's event loop, which a stuck call never reaches.
 *
 * Untraced chunks write nothing here: a kill among them sends their episodes to be re-run
 * traced, one at a time (see pool/workerHandle.ts).
 *
 * One text line per event, fields separated by single spaces:
 *   `<job> <phase> <steps> <return>`          a position
 *   `<job> log <0|1> <JSON string>`           a log line (1: the log is now truncated)
 */
import { writeSync } from 'node:fs';
import type { EpisodePhase } from './messages';

/** The worker's fd of the trace pipe: stdio index 4 (after stdin, stdout, stderr and IPC). */
export const TRACE_FD = 4;

class Tracer {
  /** The traced episode's job, or -1 while nothing is traced. */
  private job = -1;
  /** The pipe is gone (a worker started without it, or the host closed it): stop writing. */
  private broken = false;

  begin(job: number, traced: boolean): void {
    this.job = traced && !this.broken ? job : -1;
  }

  get active(): boolean {
    return this.job >= 0;
  }

  position(phase: EpisodePhase, steps: number, ret: number): void {
    if (this.job >= 0) this.write(`${this.job} ${phase} ${steps} ${ret}\n`);
  }

  /** The realm's log sink (see prelude.ts): called only while the episode is traced. */
  readonly log = (text: string, truncated: boolean): void => {
    if (this.job >= 0) this.write(`${this.job} log ${truncated ? 1 : 0} ${JSON.stringify(text)}\n`);
  };

  private write(line: string): void {
    const bytes = Buffer.from(line, 'utf8');
    try {
      // The worker's end of the pipe blocks: every byte is written before this returns.
      for (let off = 0; off < bytes.length; ) off += writeSync(TRACE_FD, bytes, off);
    } catch (e) {
      // Only a missing or closed pipe stops tracing; anything else (a stack overflow a policy
      // provoked inside a log call) loses this line only.
      const code = (e as NodeJS.ErrnoException | undefined)?.code;
      if (code === 'EBADF' || code === 'EPIPE') {
        this.broken = true;
        this.job = -1;
      }
    }
  }
}

export const tracer = new Tracer();
