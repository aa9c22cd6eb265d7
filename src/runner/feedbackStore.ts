/**
 * A submission's feedback as one atomic, durable unit. Everything is written into
 * `feedback/.tmp-submit-NNNN-*`, each episode's two files as soon as the episode finishes (written
 * and fsynced on the thread pool while the batch goes on, so the disk works beside the
 * episodes instead of after them). The commit waits for those, writes and fsyncs the summary,
 * fsyncs the folders, renames the temp dir to `feedback/submit-NNNN` and fsyncs `feedback/`.
 * So an agent never reads a half-written submission, and once `commit` returns all of it
 * survives a machine crash: the charge (a journal line written after `commit`) never vouches
 * for files that could still be lost.
 *
 * Trajectories are capped in total bytes over all submissions; the oldest submissions lose
 * theirs first (never a summary, never a log, never the newest submission's).
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { EpisodeRecord } from '../protocol/episodes';
import type { SubmissionSummary } from '../protocol/feedback';
import { fsyncDir, readJson, replaceJson, writeFileDurable, writeJsonAtomic } from './atomicFs';
import { caseFileName, submissionName, type WorkspacePaths } from './paths';

export interface PendingFeedback {
  /** Starts writing an episode's files (as it finishes). Never throws: a failed write fails the commit. */
  add(record: EpisodeRecord): void;
  /** The summary's file lists for `records`, in their order (adding any not added yet). */
  files(records: readonly EpisodeRecord[]): SubmissionSummary['files'];
  /** Waits for the episodes' files, writes the summary, all durably, and publishes the submission. */
  commit(summary: SubmissionSummary): Promise<void>;
  /** Waits for writes in flight, then removes the temp dir: the submission was rolled back. */
  abandon(): Promise<void>;
}

/** A file's contents as the chunks one writev puts down. */
type FileBytes = readonly Buffer[];

const NEWLINE = Buffer.from('\n');

/**
 * Text as UTF-8. Trajectory lines are nearly always ASCII, and for ASCII the Latin-1 copy is the
 * same bytes at a fraction of the UTF-8 encoder's cost. A UTF-8 length equal to the string's
 * means every char is below 0x80.
 */
function utf8(text: string): Buffer {
  return Buffer.byteLength(text) === text.length ? Buffer.from(text, 'latin1') : Buffer.from(text, 'utf8');
}

function caseStem(caseIndex: number): string {
  return caseFileName(caseIndex, '').slice(0, -1);
}

function byteSize(chunks: FileBytes): number {
  let total = 0;
  for (const c of chunks) total += c.length;
  return total;
}

/**
 * An episode's trajectory file: a header line, then the step lines as the sandbox worker that ran
 * it serialized them. The header's `format` (absent for plain steps) says how to read the lines.
 */
function trajectoryFile(r: EpisodeRecord): FileBytes {
  const header = {
    caseIndex: r.caseIndex,
    status: r.status,
    return: r.return,
    length: r.length,
    terminated: r.terminated,
    truncated: r.truncated,
    trajectoryTruncated: r.trajectory.truncated,
    format: r.trajectory.format,
    initialSnapshot: r.trajectory.initialSnapshot,
  };
  const headerLine = utf8(`${JSON.stringify(header)}\n`);
  // Not concatenated with the header: that would copy all of the steps text once more.
  return r.trajectory.stepsJsonl === '' ? [headerLine] : [headerLine, utf8(r.trajectory.stepsJsonl), NEWLINE];
}

/** An episode's log file: what the policy printed, then the error that ended the episode, if any. */
function logFile(r: EpisodeRecord): Buffer {
  const errorText = r.error ? `\n[${r.status}] ${r.error.stack ?? r.error.message}\n` : '';
  return utf8(`${r.log.text}${r.log.truncated ? '\n[log truncated]\n' : ''}${errorText}`);
}

/** Creates `file`, writes `chunks` into it and fsyncs it, on the thread pool. */
async function writeNewDurable(file: string, chunks: FileBytes): Promise<void> {
  const handle = await fsp.open(file, 'wx');
  try {
    const total = byteSize(chunks);
    const { bytesWritten } = total > 0 ? await handle.writev(chunks as Buffer[]) : { bytesWritten: 0 };
    // writev may stop short (a full disk); writeFile goes on from there or throws why.
    if (bytesWritten < total) await handle.writeFile(Buffer.concat(chunks as Buffer[]).subarray(bytesWritten));
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Waits for every promise, then throws the first failure: nothing is left in flight when it is reported. */
async function settleAll(promises: readonly Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

export interface FeedbackStoreOptions {
  /** Cap on the trajectory bytes of all submissions together; the oldest lose theirs first. */
  maxBulkBytes: number;
}

export class FeedbackStore {
  private readonly maxBulkBytes: number;
  /**
   * Trajectory bytes of each submission still holding its trajectories: read from disk once,
   * then kept up to date by this store (the runner lock makes it the only writer), so a commit
   * does not walk every earlier submission's files.
   */
  private bulkBytes: Map<number, number> | null = null;

  constructor(
    private readonly paths: WorkspacePaths,
    options: FeedbackStoreOptions,
  ) {
    this.maxBulkBytes = options.maxBulkBytes;
  }

  /** Starts submission `n`'s temp dir. Nothing is visible under `feedback/submit-NNNN` before `commit`. */
  begin(n: number): PendingFeedback {
    const tmp = path.join(this.paths.feedback, `.tmp-${submissionName(n)}-${randomBytes(4).toString('hex')}`);
    fs.mkdirSync(path.join(tmp, 'episodes'), { recursive: true });
    fs.mkdirSync(path.join(tmp, 'logs'), { recursive: true });
    const writes: Promise<void>[] = [];
    const stems = new Map<EpisodeRecord, string>();
    const seen = new Map<number, number>();
    let trajectoryBytes = 0;
    const add = (r: EpisodeRecord): void => {
      if (stems.has(r)) return;
      // A case run twice in one submission gets `-2`, `-3`, … so its files never collide.
      const k = (seen.get(r.caseIndex) ?? 0) + 1;
      seen.set(r.caseIndex, k);
      const stem = k === 1 ? caseStem(r.caseIndex) : `${caseStem(r.caseIndex)}-${k}`;
      stems.set(r, stem);
      const trajectory = trajectoryFile(r);
      trajectoryBytes += byteSize(trajectory);
      const written = Promise.all([writeNewDurable(path.join(tmp, 'episodes', `${stem}.jsonl`), trajectory), writeNewDurable(path.join(tmp, 'logs', `${stem}.txt`), [logFile(r)])]).then(() => undefined);
      written.catch(() => undefined); // Reported by the commit.
      writes.push(written);
    };
    return {
      add,
      files: (records) => {
        for (const r of records) add(r);
        const dir = `feedback/${submissionName(n)}`;
        const list = records.map((r) => stems.get(r)!);
        return { trajectories: list.map((s) => `${dir}/episodes/${s}.jsonl`), logs: list.map((s) => `${dir}/logs/${s}.txt`), evicted: false };
      },
      commit: async (summary) => {
        await settleAll(writes);
        fsyncDir(path.join(tmp, 'episodes'));
        fsyncDir(path.join(tmp, 'logs'));
        writeFileDurable(path.join(tmp, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
        fsyncDir(tmp);
        const dst = this.paths.submissionDir(n);
        // A leftover from an earlier rolled-back attempt with this number would block the rename.
        fs.rmSync(dst, { recursive: true, force: true });
        fs.renameSync(tmp, dst);
        fsyncDir(this.paths.feedback);
        replaceJson(this.paths.latest, summary);
        this.evict(n, trajectoryBytes);
      },
      abandon: async () => {
        await Promise.allSettled(writes);
        fs.rmSync(tmp, { recursive: true, force: true });
      },
    };
  }

  read(n: number): SubmissionSummary | undefined {
    return readJson<SubmissionSummary>(path.join(this.paths.submissionDir(n), 'summary.json'));
  }

  /** Removes temp dirs of submissions that never completed (crash or rollback). */
  cleanTemp(): void {
    if (!fs.existsSync(this.paths.feedback)) return;
    for (const name of fs.readdirSync(this.paths.feedback)) {
      if (name.startsWith('.tmp-')) fs.rmSync(path.join(this.paths.feedback, name), { recursive: true, force: true });
    }
  }

  /** Deletes a completed submission dir whose journal entry never made it (rollback on restart). */
  remove(n: number): void {
    fs.rmSync(this.paths.submissionDir(n), { recursive: true, force: true });
    this.bulkBytes?.delete(n);
  }

  private bulkIndex(): Map<number, number> {
    if (this.bulkBytes) return this.bulkBytes;
    const index = new Map<number, number>();
    if (fs.existsSync(this.paths.feedback)) {
      for (const name of fs.readdirSync(this.paths.feedback)) {
        const m = /^submit-(\d+)$/.exec(name);
        if (m) index.set(Number(m[1]), dirBytes(path.join(this.paths.feedback, name, 'episodes')));
      }
    }
    this.bulkBytes = index;
    return index;
  }

  /**
   * Oldest-first eviction of trajectories until the total fits the cap. The summary says so
   * before the files go: a crash in between leaves files no summary lists (removed by the next
   * eviction), never a summary listing files that are gone.
   */
  private evict(newest: number, newestBytes: number): void {
    const index = this.bulkIndex();
    index.set(newest, newestBytes);
    let total = 0;
    for (const bytes of index.values()) total += bytes;
    for (const [n, bytes] of [...index].sort((a, b) => a[0] - b[0])) {
      if (total <= this.maxBulkBytes) break;
      if (n === newest || bytes === 0) continue;
      const summary = this.read(n);
      if (summary && !summary.files.evicted) writeJsonAtomic(path.join(this.paths.submissionDir(n), 'summary.json'), { ...summary, files: { ...summary.files, trajectories: [], evicted: true } });
      fs.rmSync(path.join(this.paths.submissionDir(n), 'episodes'), { recursive: true, force: true });
      total -= bytes;
      index.set(n, 0);
    }
  }
}

function dirBytes(dir: string): number {
  let total = 0;
  try {
    for (const name of fs.readdirSync(dir)) total += fs.statSync(path.join(dir, name)).size;
  } catch {
    return 0;
  }
  return total;
}
