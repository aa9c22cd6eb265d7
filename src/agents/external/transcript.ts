/**
 * `.policyforge/agent/transcript.jsonl`: what the agent printed, one JSON line per output line,
 * time-stamped, with the launcher's own events between them. Line numbers (from 1) are how a
 * submission points at the moment it came from.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export type TranscriptStream = 'stdout' | 'stderr' | 'launcher';

export interface TranscriptLine {
  /** ISO time the line was complete. */
  t: string;
  /** Milliseconds since the launch. */
  ms: number;
  attempt: number;
  stream: TranscriptStream;
  text: string;
  /** Launcher events only: the submission the line records. */
  submission?: number;
}

export const TRANSCRIPT_FILE = 'transcript.jsonl';

export class Transcript {
  private count = 0;
  private readonly started = Date.now();
  private readonly partial: Record<'stdout' | 'stderr', string> = { stdout: '', stderr: '' };
  readonly file: string;

  constructor(dir: string) {
    fs.mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, TRANSCRIPT_FILE);
    fs.writeFileSync(this.file, '');
  }

  /** Lines written so far: the number of the latest one. */
  get lines(): number {
    return this.count;
  }

  /** A chunk of the agent's output; complete lines are written, the rest waits for its newline. */
  output(stream: 'stdout' | 'stderr', attempt: number, chunk: string): void {
    const parts = (this.partial[stream] + chunk).split('\n');
    this.partial[stream] = parts.pop() ?? '';
    for (const text of parts) this.write({ attempt, stream, text: text.replace(/\r$/, '') });
  }

  /** Writes what is left of unterminated output (the process ended). */
  flush(attempt: number): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.partial[stream]) this.write({ attempt, stream, text: this.partial[stream] });
      this.partial[stream] = '';
    }
  }

  /** A launcher event; returns its line number. */
  event(attempt: number, text: string, submission?: number): number {
    this.write({ attempt, stream: 'launcher', text, ...(submission === undefined ? {} : { submission }) });
    return this.count;
  }

  private write(line: Omit<TranscriptLine, 't' | 'ms'>): void {
    const now = Date.now();
    fs.appendFileSync(this.file, `${JSON.stringify({ t: new Date(now).toISOString(), ms: now - this.started, ...line })}\n`);
    this.count++;
  }
}

export function readTranscript(file: string): TranscriptLine[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as TranscriptLine);
}
