/**
 * `.policyforge/events.jsonl`: one JSON line per lifecycle event, appended and fsynced before any
 * client hears about it. On restart the runner replays it to rebuild the run's state; a torn last
 * line (a crash mid-append) is dropped.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ReturnStats } from '../protocol/feedback';

export type JournalEvent =
  | { type: 'created'; runId: string; envId: string; budget: number; secretFingerprint?: string }
  | { type: 'runner_started'; pid: number }
  | { type: 'submit_rejected'; reason: string; code: number; message: string }
  | { type: 'submit_started'; submission: number; checkpoint: string; parent: number | null; cases: number[]; note?: string }
  | { type: 'episode_finished'; submission: number; caseIndex: number; status: string; return: number; length: number }
  | { type: 'submitted'; submission: number; checkpoint: string; parent: number | null; cases: number[]; charged: number; mean: number; okCount: number; count: number; budgetUsed: number; editClass?: string }
  | { type: 'submit_rolled_back'; submission: number; why: string }
  /** Trajectory/log files a machine crash cut short, re-run on restart (not charged): `lost` could not be reproduced. */
  | { type: 'feedback_repaired'; submission: number; rerun: number; lost: number }
  | { type: 'restored'; submission: number; checkpoint: string }
  | { type: 'finished'; mode: 'paper' | 'candidates'; candidates: number[]; trigger: 'finish' | 'budget' }
  | { type: 'validated'; submission: number; checkpoint: string; stats: ReturnStats }
  | { type: 'selected'; submission: number | null; reason?: string }
  | { type: 'assessed'; submission: number; stats: ReturnStats }
  | { type: 'assessed_starter'; stats: ReturnStats | null; error?: string }
  | { type: 'completed' };

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

  /** Lines appended with `sync: false` that are not written yet. */
  private unwritten = '';

  /**
   * Appends one event and fsyncs before returning. `sync: false` batches: the line is written
   * with the next sync (in order, before any later line). Episode lines arrive while the
   * submission's feedback files are being written, and a write() to this file blocks for as long
   * as an fsync of it is in flight, which on ext4 waits for all that data: writing them only
   * when the next fsync starts keeps the event loop, and so the workers' channel, moving.
   */
  append(event: JournalEvent, sync = true): StampedEvent {
    const stamped = { seq: ++this.seq, at: new Date().toISOString(), ...event } as StampedEvent;
    this.unwritten += `${JSON.stringify(stamped)}\n`;
    if (sync) this.sync();
    return stamped;
  }

  sync(): void {
    this.writeUnwritten();
    fs.fdatasyncSync(this.fd);
  }

  private writeUnwritten(): void {
    if (this.unwritten === '') return;
    const text = this.unwritten;
    this.unwritten = '';
    fs.writeSync(this.fd, text);
  }

  private syncing: Promise<void> | null = null;
  private syncAgain = false;

  /**
   * fdatasync on the thread pool, coalesced: while one is in flight, later callers share the
   * next one. Resolves once every line appended before the call is durable.
   */
  syncAsync(): Promise<void> {
    if (this.syncing) {
      this.syncAgain = true;
      return this.syncing.then(() => this.syncAsync());
    }
    try {
      this.writeUnwritten();
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    this.syncing = new Promise<void>((resolve, reject) => {
      fs.fdatasync(this.fd, (err) => {
        this.syncing = null;
        if (err) reject(err);
        else resolve();
      });
    });
    const p = this.syncing;
    this.syncAgain = false;
    return p;
  }

  close(): void {
    try {
      this.writeUnwritten();
      fs.closeSync(this.fd);
    } catch {
      // already closed
    }
  }
}
