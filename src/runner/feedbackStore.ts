/**
 * Writes a submission's feedback as one atomic unit: everything goes into
 * `feedback/.tmp-submit-NNNN-*` and is renamed to `feedback/submit-NNNN` only when complete, so an
 * agent never reads a half-written submission. Bulk trajectories are capped in total bytes; the
 * oldest submissions lose theirs first (never a summary, never the newest submission).
 *
 * Durability is split by what a loss would cost. The summary (what was charged and why) is
 * fsynced before the rename, like the journal line that charges it. The bulk files (trajectory
 * lines and policy logs, ~15 MB for 128 CartPole episodes) are written before the rename but
 * fsynced in the background, starting right after it: forcing 15 MB to this VM's disk took
 * 60-80 ms, most of a 128-episode submit's overhead. A killed runner loses nothing (the data is
 * in the page cache); only a machine crash in that window can. For it, each commit first
 * writes, durably, the byte size of every bulk file to `.policyforge/unflushed/submit-NNNN.json`
 * and the background fsync removes that record when it is done. On restart, a submission with
 * a record left has its files checked against it, and the run re-runs the episodes whose files
 * are short (see Run.repairLostFeedback): episodes are deterministic in their seeds, so a
 * re-run that ends the same way with the same sizes rewrites the same files, and any other
 * gets a note that the file was lost. Sizes are enough only where a file's data reaches the disk
 * before the size that covers it (see DEFER_BULK_FSYNC); elsewhere the bulk files are fsynced
 * before the rename, as before.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { EpisodeRecord } from '../protocol/episodes';
import type { SubmissionSummary } from '../protocol/feedback';
import { fsyncAsync, fsyncDir, fsyncDirAsync, readJson, replaceFile, replaceJson, writeFileDurable, writeJsonAtomic } from './atomicFs';
import { caseFileName, submissionName, type WorkspacePaths } from './paths';
import { SpareFiles } from './spareFiles';

export interface PendingFeedback {
  /** Encodes an episode's files as it finishes, while the batch runs, so the commit only writes them. */
  encodeEarly(record: EpisodeRecord): void;
  /** Adds an episode's files, in the order of the summary's file lists. Idempotent per record object. */
  addEpisode(record: EpisodeRecord): void;
  commit(summary: SubmissionSummary): Promise<void>;
  abandon(): Promise<void>;
}

/** What `.policyforge/unflushed/submit-NNNN.json` holds: each bulk file's size, in the order of the summary's episodes. */
interface UnflushedRecord {
  submission: number;
  /** Which commit wrote it: a background fsync removes only its own commit's record. */
  attempt: string;
  trajectoryBytes: number[];
  logBytes: number[];
}

/**
 * Platforms whose usual file systems write a file's data before the size that covers it (ext4
 * in its default data=ordered mode, XFS, btrfs, APFS): after a machine crash a file whose fsync
 * had not finished is short or empty, never at its size with other bytes, so the size record
 * catches it. Elsewhere (NTFS among them) it could come back at its size holding zeros, so the
 * bulk files are fsynced before the rename there.
 */
export const DEFER_BULK_FSYNC = process.platform === 'linux' || process.platform === 'darwin';

/** An episode of a submission whose bulk files came back short after a restart. */
export interface DamagedEpisode {
  /** Index into the summary's `episodes` and file lists. */
  position: number;
  trajectory: boolean;
  log: boolean;
  /** The sizes the commit wrote, which a re-run must give again. */
  trajectoryBytes: number;
  logBytes: number;
}

export interface DamagedSubmission {
  submission: number;
  attempt: string;
  summary: SubmissionSummary;
  episodes: DamagedEpisode[];
}

/** A file's contents as the chunks one writev puts down. */
type FileBytes = readonly Buffer[];

const NEWLINE = Buffer.from('\n');

/**
 * Text as UTF-8. Trajectory lines are nearly always ASCII, and for ASCII the Latin-1 copy is the
 * same bytes at a fraction of the UTF-8 encoder's cost (it was a quarter of a 128-episode
 * CartPole commit). A UTF-8 length equal to the string's means every char is below 0x80.
 */
function utf8(text: string): Buffer {
  return Buffer.byteLength(text) === text.length ? Buffer.from(text, 'latin1') : Buffer.from(text, 'utf8');
}

function byteSize(chunks: FileBytes): number {
  return sum(chunks.map((c) => c.length));
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

type EpisodeOutcome = Pick<EpisodeRecord, 'caseIndex' | 'status' | 'return' | 'length' | 'terminated' | 'truncated'>;

/** How an episode ended: the first fields of its trajectory header. */
function outcomeOf(e: EpisodeOutcome): EpisodeOutcome {
  return { caseIndex: e.caseIndex, status: e.status, return: e.return, length: e.length, terminated: e.terminated, truncated: e.truncated };
}

/** An episode's trajectory file: a header line, then the step lines as the sandbox worker that ran it serialized them. */
function trajectoryFile(r: EpisodeRecord): FileBytes {
  const header = { ...outcomeOf(r), trajectoryTruncated: r.trajectory.truncated, initialSnapshot: r.trajectory.initialSnapshot };
  const headerLine = utf8(`${JSON.stringify(header)}\n`);
  // The steps text is not concatenated with the header: that would copy all of it once more.
  return r.trajectory.stepsJsonl === '' ? [headerLine] : [headerLine, utf8(r.trajectory.stepsJsonl), NEWLINE];
}

/** An episode's log file: what the policy printed, then the error that ended the episode, if any. */
function logFile(r: EpisodeRecord): Buffer {
  const errorText = r.error ? `\n[${r.status}] ${r.error.stack ?? r.error.message}\n` : '';
  return utf8(`${r.log.text}${r.log.truncated ? '\n[log truncated]\n' : ''}${errorText}`);
}

/** Both files of an episode, encoded. */
interface EpisodeFiles {
  trajectory: FileBytes;
  log: Buffer;
}

function episodeFiles(r: EpisodeRecord): EpisodeFiles {
  return { trajectory: trajectoryFile(r), log: logFile(r) };
}

/**
 * Writes `chunks` to a new, empty file opened as `fd`, fsynced when `flush`, and closes it.
 * Synchronous: on this VM each thread-pool round trip waits for an idle vCPU to wake, and the
 * 256 files of a 128-episode commit took 55-77 ms all through the pool against 37-50 ms all
 * written in line.
 */
function writeChunks(fd: number, chunks: FileBytes, flush = false): void {
  try {
    const total = byteSize(chunks);
    if (total > 0) {
      const written = fs.writevSync(fd, chunks as Buffer[]);
      // writev may stop short (a full disk); writeFileSync goes on from there or throws why.
      if (written < total) fs.writeFileSync(fd, Buffer.concat(chunks as Buffer[]).subarray(written));
    }
    if (flush) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Waits for every promise, then throws the first failure: nothing is left in flight when it is reported. */
async function settleAll(promises: readonly Promise<void>[]): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((w): w is PromiseRejectedResult => w.status === 'rejected');
  if (failed) throw failed.reason;
}

/** fsync on the thread pool. A file evicted meanwhile needs none. */
async function fsyncFile(file: string): Promise<void> {
  await fsyncAsync(file, 'r+').catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return -1;
  }
}

/** What a re-run could not restore: the summary's outcome and why the steps are gone. */
function lostFiles(e: SubmissionSummary['episodes'][number], why: string): EpisodeFiles {
  const header = { ...outcomeOf(e), lost: why };
  return { trajectory: [utf8(`${JSON.stringify(header)}\n`)], log: utf8(`[log ${why}]\n`) };
}

export interface FeedbackStoreOptions {
  /** Cap on the trajectory bytes of all submissions together; the oldest lose theirs first. */
  maxBulkBytes: number;
  /** The run's largest submission: spare files are kept ready for both files of each of its episodes. */
  maxEpisodesPerSubmit: number;
  log?: (message: string) => void;
  /** Tests choose; see DEFER_BULK_FSYNC. */
  deferBulkFsync?: boolean;
}

/** How many spare files a run keeps ready: both files of each episode of its largest submission, at most 512. */
export function spareFileTarget(maxEpisodesPerSubmit: number): number {
  return Math.min(512, 2 * maxEpisodesPerSubmit);
}

export class FeedbackStore {
  /** Background fsyncs of committed submissions' bulk files. */
  private readonly flushing = new Set<Promise<void>>();
  private readonly maxBulkBytes: number;
  private readonly log: (message: string) => void;
  private readonly deferBulkFsync: boolean;
  private readonly spares: SpareFiles;

  constructor(
    private readonly paths: WorkspacePaths,
    options: FeedbackStoreOptions,
  ) {
    this.maxBulkBytes = options.maxBulkBytes;
    this.log = options.log ?? (() => undefined);
    this.deferBulkFsync = options.deferBulkFsync ?? DEFER_BULK_FSYNC;
    this.spares = new SpareFiles(paths.spares, spareFileTarget(options.maxEpisodesPerSubmit));
  }

  /** Per-episode file stems; a repeated case index gets `-2`, `-3`, … so files never collide. */
  static fileStems(records: readonly { caseIndex: number }[]): string[] {
    const seen = new Map<number, number>();
    return records.map((r) => {
      const k = (seen.get(r.caseIndex) ?? 0) + 1;
      seen.set(r.caseIndex, k);
      const base = caseFileName(r.caseIndex, '').slice(0, -1);
      return k === 1 ? base : `${base}-${k}`;
    });
  }

  /** The relative file lists a summary will carry for these records. */
  static filesFor(n: number, records: readonly { caseIndex: number }[]): SubmissionSummary['files'] {
    const stems = FeedbackStore.fileStems(records);
    const dir = `feedback/${submissionName(n)}`;
    return { trajectories: stems.map((s) => `${dir}/episodes/${s}.jsonl`), logs: stems.map((s) => `${dir}/logs/${s}.txt`), evicted: false };
  }

  /**
   * Starts a submission's temp dir. Records are collected as episodes finish and written, with
   * the summary, by `commit`, which then renames the whole dir into place. Writing them while
   * the batch ran (to overlap the disk work) made 128-episode CartPole submits about 150 ms
   * slower on 2 cores: the writes compete with the sandbox workers. For the same reason the
   * spare files stop being made now, and are made again once the commit's fsyncs are done.
   */
  begin(n: number): PendingFeedback {
    this.spares.pause();
    fs.mkdirSync(this.paths.feedback, { recursive: true });
    if (this.deferBulkFsync && !fs.existsSync(this.paths.unflushed)) {
      fs.mkdirSync(this.paths.unflushed, { recursive: true });
      fsyncDir(this.paths.state);
    }
    const tmp = path.join(this.paths.feedback, `.tmp-${submissionName(n)}-${randomBytes(4).toString('hex')}`);
    fs.mkdirSync(path.join(tmp, 'episodes'), { recursive: true });
    fs.mkdirSync(path.join(tmp, 'logs'), { recursive: true });
    const records: EpisodeRecord[] = [];
    const added = new WeakSet<EpisodeRecord>();
    const encoded = new WeakMap<EpisodeRecord, EpisodeFiles>();
    return {
      encodeEarly: (r) => {
        encoded.set(r, episodeFiles(r));
      },
      addEpisode: (r) => {
        if (added.has(r)) return;
        added.add(r);
        records.push(r);
      },
      commit: async (summary) => {
        const stems = FeedbackStore.fileStems(records);
        const flush = !this.deferBulkFsync;
        // Unless flush: no fsync here (see the file comment); the sizes recorded below stand in
        // for it until the background fsync. Each file is a spare renamed into place when one
        // is ready (see spareFiles.ts), so what is left is writing the bytes.
        const trajectoryBytes: number[] = [];
        const logBytes: number[] = [];
        records.forEach((r, i) => {
          const { trajectory, log } = encoded.get(r) ?? episodeFiles(r);
          trajectoryBytes.push(byteSize(trajectory));
          writeChunks(this.spares.open(path.join(tmp, 'episodes', `${stems[i]}.jsonl`)), trajectory, flush);
          logBytes.push(log.length);
          writeChunks(this.spares.open(path.join(tmp, 'logs', `${stems[i]}.txt`)), [log], flush);
        });
        const attempt = randomBytes(6).toString('hex');
        if (flush) {
          fsyncDir(path.join(tmp, 'episodes'));
          fsyncDir(path.join(tmp, 'logs'));
        } else {
          const unflushed: UnflushedRecord = { submission: n, attempt, trajectoryBytes, logBytes };
          writeFileDurable(this.unflushedFile(n), JSON.stringify(unflushed));
          fsyncDir(this.paths.unflushed);
        }
        writeFileDurable(path.join(tmp, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
        fsyncDir(tmp);
        const dst = this.paths.submissionDir(summary.submission);
        // A leftover from an earlier rolled-back attempt with this number would block the rename.
        fs.rmSync(dst, { recursive: true, force: true });
        fs.renameSync(tmp, dst);
        fsyncDir(this.paths.feedback);
        replaceJson(this.paths.latest, summary);
        this.evict(summary.submission, sum(trajectoryBytes));
        if (flush) void this.prepareSpares();
        else this.flushLater(n, attempt);
      },
      abandon: async () => {
        fs.rmSync(tmp, { recursive: true, force: true });
        void this.prepareSpares();
      },
    };
  }

  read(n: number): SubmissionSummary | undefined {
    return readJson<SubmissionSummary>(path.join(this.paths.submissionDir(n), 'summary.json'));
  }

  /** Resolves once every background fsync has finished (runner shutdown; tests). */
  async flushed(): Promise<void> {
    while (this.flushing.size > 0) await Promise.allSettled([...this.flushing]);
  }

  /** Makes spare files for the next commits in the background (see spareFiles.ts); resolves when they are ready or a submission began. */
  prepareSpares(): Promise<void> {
    return this.spares.refill();
  }

  /** Waits for the background fsyncs and makes no more spare files (the runner is stopping). */
  async close(): Promise<void> {
    this.spares.close();
    await this.flushed();
  }

  /** Removes the spare files: the agent phase is over. */
  retireSpares(): void {
    this.spares.retire();
  }

  /**
   * Submissions whose bulk files were not known to be on disk when the runner stopped. Those
   * whose files all have their recorded sizes are fsynced now (a killed runner leaves them in
   * the page cache); those with short or missing files are returned, for the run to re-run
   * their episodes and `repair` them. Records of submissions that never completed are dropped.
   */
  checkUnflushed(isSubmitted: (n: number) => boolean): DamagedSubmission[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.paths.unflushed);
    } catch {
      return [];
    }
    const damaged: DamagedSubmission[] = [];
    for (const name of names) {
      const m = /^submit-(\d+)\.json$/.exec(name);
      if (!m) continue;
      const n = Number(m[1]);
      const record = readJson<UnflushedRecord>(path.join(this.paths.unflushed, name));
      const summary = this.read(n);
      // The record is durable before the rename, so a submission that exists has a whole one.
      if (!record || !summary || !isSubmitted(n)) {
        fs.rmSync(path.join(this.paths.unflushed, name), { force: true });
        continue;
      }
      const dir = this.paths.submissionDir(n);
      const episodes: DamagedEpisode[] = [];
      FeedbackStore.fileStems(summary.episodes).forEach((stem, position) => {
        const trajectoryBytes = record.trajectoryBytes[position] ?? -1;
        const logBytes = record.logBytes[position] ?? -1;
        const trajectory = !summary.files.evicted && fileSize(path.join(dir, 'episodes', `${stem}.jsonl`)) !== trajectoryBytes;
        const log = fileSize(path.join(dir, 'logs', `${stem}.txt`)) !== logBytes;
        if (trajectory || log) episodes.push({ position, trajectory, log, trajectoryBytes, logBytes });
      });
      if (episodes.length > 0) damaged.push({ submission: n, attempt: record.attempt, summary, episodes });
      else this.flushLater(n, record.attempt);
    }
    return damaged;
  }

  /**
   * Rewrites a damaged submission's short files, each from its episode's re-run (`reruns[k]` for
   * `episodes[k]`, null where the re-run ended differently) when the re-run gives the recorded
   * sizes again, or else as a note that the file was lost and why. Each file is replaced whole
   * (temp + rename); the flush after it fsyncs them with the rest of the submission's bulk files
   * and their directories, then drops the record. Returns how many episodes came back.
   */
  async repair(d: DamagedSubmission, reruns: readonly (EpisodeRecord | null)[], lostWhy: string): Promise<{ restored: number; lost: number }> {
    const dir = this.paths.submissionDir(d.submission);
    const stems = FeedbackStore.fileStems(d.summary.episodes);
    let restored = 0;
    d.episodes.forEach((e, k) => {
      const rerun = reruns[k];
      const again = rerun ? episodeFiles(rerun) : null;
      const same = again !== null && (!e.trajectory || byteSize(again.trajectory) === e.trajectoryBytes) && (!e.log || again.log.length === e.logBytes);
      const files = same ? again : lostFiles(d.summary.episodes[e.position]!, lostWhy);
      if (same) restored++;
      const stem = stems[e.position]!;
      if (e.trajectory) replaceFile(path.join(dir, 'episodes', `${stem}.jsonl`), Buffer.concat(files.trajectory as Buffer[]), { durable: false });
      if (e.log) replaceFile(path.join(dir, 'logs', `${stem}.txt`), files.log, { durable: false });
    });
    await this.flush(d.submission, d.attempt);
    return { restored, lost: d.episodes.length - restored };
  }

  private unflushedFile(n: number): string {
    return path.join(this.paths.unflushed, `${submissionName(n)}.json`);
  }

  /** fsyncs a committed submission's bulk files in the background; a failure leaves its record for the next start. */
  private flushLater(n: number, attempt: string): void {
    const p: Promise<void> = this.flush(n, attempt)
      .catch((e: unknown) => this.log(`fsync of feedback/${submissionName(n)}'s trajectories and logs failed (${String(e)}); they are checked again when the runner restarts`))
      .finally(() => {
        this.flushing.delete(p);
        if (this.flushing.size === 0) void this.prepareSpares();
      });
    this.flushing.add(p);
  }

  private async flush(n: number, attempt: string): Promise<void> {
    const dir = this.paths.submissionDir(n);
    const files = async (sub: string): Promise<string[]> => (await fsp.readdir(path.join(dir, sub)).catch(() => [])).map((f) => path.join(dir, sub, f));
    const all = [...(await files('episodes')), ...(await files('logs'))];
    await settleAll([...all.map(fsyncFile), fsyncDirAsync(path.join(dir, 'episodes')), fsyncDirAsync(path.join(dir, 'logs'))]);
    // A later commit with this number (after a failed charge) has its own record.
    if (readJson<UnflushedRecord>(this.unflushedFile(n))?.attempt === attempt) await fsp.rm(this.unflushedFile(n), { force: true });
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
    fs.rmSync(this.unflushedFile(n), { force: true });
    this.bulkBytes?.delete(n);
  }

  /**
   * Trajectory bytes of each submission still holding its trajectories: read from disk once,
   * then kept up to date by this store (the runner lock makes it the only writer).
   * Walking every submission's files on each commit grew by about 1 ms per 5 submissions.
   */
  private bulkBytes: Map<number, number> | null = null;

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

  /** Oldest-first eviction of trajectories until the bulk total fits the cap. */
  private evict(newest: number, newestBytes: number): void {
    const index = this.bulkIndex();
    index.set(newest, newestBytes);
    let total = sum([...index.values()]);
    // Oldest first.
    for (const [n, bytes] of [...index].sort((a, b) => a[0] - b[0])) {
      if (total <= this.maxBulkBytes) break;
      if (n === newest || bytes === 0) continue;
      fs.rmSync(path.join(this.paths.submissionDir(n), 'episodes'), { recursive: true, force: true });
      total -= bytes;
      index.set(n, 0);
      const summary = this.read(n);
      if (summary) writeJsonAtomic(path.join(this.paths.submissionDir(n), 'summary.json'), { ...summary, files: { ...summary.files, trajectories: [], evicted: true } });
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
