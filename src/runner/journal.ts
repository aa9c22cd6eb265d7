/**
 * `.policyforge/events.jsonl`: one JSON line per lifecycle event, appended and fsynced before any
 * client hears about it. On restart the runner replays it to rebuild the run's state; a torn last
 * line (a crash mid-append) is dropped, and lines of event types this version does not know
 * (older runners wrote per-episode lines) are ignored by the fold.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ReturnStats, SelectionEvidence } from '../protocol/feedback';

export type JournalEvent =
  | { type: 'created'; runId: string; envId: string; budget: number; secretFingerprint?: string }
  | { type: 'runner_started'; pid: number }
  | { type: 'submit_rejected'; reason: string; code: number; message: string }
  /** `practice`: a practice submit's parameter overrides; its charge goes to the practice budget. */
  | { type: 'submit_started'; submission: number; checkpoint: string; parent: number | null; cases: number[]; note?: string; practice?: PracticeParams }
  | { type: 'submitted'; submission: number; checkpoint: string; parent: number | null; cases: number[]; charged: number; mean: number; okCount: number; count: number; budgetUsed: number; editClass?: string; practice?: PracticeParams }
  | { type: 'submit_rolled_back'; submission: number; why: string }
  | { type: 'restored'; submission: number; checkpoint: string }
  | { type: 'finished'; mode: 'paper' | 'candidates' | 'gated'; candidates: number[]; trigger: 'finish' | 'budget' }
  /** `returns`: the scored return per validation case, in case order (what the gated selection compares). */
  | { type: 'validated'; submission: number; checkpoint: string; stats: ReturnStats; returns?: number[] }
  /** Elite re-evaluation: a top candidate's checkpoint on fresh validation cases (after the first V). */
  | { type: 'revalidated'; checkpoint: string; stats: ReturnStats; returns: number[] }
  | { type: 'selected'; submission: number | null; reason?: string; evidence?: SelectionEvidence }
  | { type: 'assessed'; submission: number; stats: ReturnStats }
  | { type: 'assessed_starter'; stats: ReturnStats | null; error?: string }
  /** Another baseline policy on the held-out cases (`uniform-random`: the uniform random policy). */
  | { type: 'assessed_baseline'; name: string; stats: ReturnStats | null; error?: string }
  | { type: 'completed' };

export type PracticeParams = Record<string, number | boolean | string>;

export type StampedEvent = JournalEvent & { seq: number; at: string };

export class Journal {
  private fd: number;
  private seq: number;

  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const existing = Journal.read(file);
    this.seq = existing.length ? existing[existing.length - 1]!.seq : 0;
    // Drop a torn tail so the next append starts on a fresh line.
    if (fs.existsSync(file)) {
      const text = fs.readFileSync(file, 'utf8');
      if (text.length > 0 && !text.endsWith('\n')) {
        const keep = text.slice(0, text.lastIndexOf('\n') + 1);
        fs.writeFileSync(file, keep);
      }
    }
    this.fd = fs.openSync(file, 'a');
  }

  static read(file: string): StampedEvent[] {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return [];
    }
    const out: StampedEvent[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line) as StampedEvent);
      } catch {
        // A torn last line from a crash mid-append: ignore it.
      }
    }
    return out;
  }

  /** Appends one event and fdatasyncs it before returning: no one hears of an event a crash could take back. */
  append(event: JournalEvent): StampedEvent {
    const stamped = { seq: ++this.seq, at: new Date().toISOString(), ...event } as StampedEvent;
    fs.writeSync(this.fd, `${JSON.stringify(stamped)}\n`);
    fs.fdatasyncSync(this.fd);
    return stamped;
  }

  close(): void {
    try {
      fs.closeSync(this.fd);
    } catch {
      // already closed
    }
  }
}
