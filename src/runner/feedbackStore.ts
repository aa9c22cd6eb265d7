/**
 * Writes a submission's feedback as one atomic unit: everything goes into
 * `feedback/.tmp-submit-NNNN-*` and is renamed to `feedback/submit-NNNN` only when complete, so an
 * agent never reads a half-written submission. Bulk trajectories are capped in total bytes; the
 * oldest submissions lose theirs first (never a summary, never the newest submission).
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { EpisodeRecord } from '../protocol/episodes';
import type { SubmissionSummary } from '../protocol/feedback';
import { fsyncDir, readJson, writeFileDurable, writeJsonAtomic } from './atomicFs';
import { caseFileName, submissionName, type WorkspacePaths } from './paths';

export interface PendingFeedback {
  /** Adds an episode's files, in the order of the summary's file lists. Idempotent per record object. */
  addEpisode(record: EpisodeRecord): void;
  commit(summary: SubmissionSummary): Promise<void>;
  abandon(): Promise<void>;
}

async function writeEpisodeFiles(tmp: string, stem: string, r: EpisodeRecord): Promise<void> {
  const header = { caseIndex: r.caseIndex, status: r.status, return: r.return, length: r.length, terminated: r.terminated, truncated: r.truncated, trajectoryTruncated: r.trajectory.truncated, initialSnapshot: r.trajectory.initialSnapshot };
  // The step lines come serialized from the sandbox worker that ran the episode.
  const errorText = r.error ? `\n[${r.status}] ${r.error.stack ?? r.error.message}\n` : '';
  await settleAll([
    writeDurableAsync(path.join(tmp, 'episodes', `${stem}.jsonl`), r.trajectory.stepsJsonl === '' ? `${JSON.stringify(header)}\n` : `${JSON.stringify(header)}\n${r.trajectory.stepsJsonl}\n`),
    writeDurableAsync(path.join(tmp, 'logs', `${stem}.txt`), `${r.log.text}${r.log.truncated ? '\n[log truncated]\n' : ''}${errorText}`),
  ]);
}

/**
 * Waits for every promise, then throws the first failure: a failed commit leaves no write in
 * flight, so abandon() never removes the dir under one.
 */
async function settleAll(promises: readonly Promise<void>[]): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((w): w is PromiseRejectedResult => w.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Write + fsync + close on the thread pool in one call (`flush`), so the event loop stays free. */
function writeDurableAsync(file: string, data: string): Promise<void> {
  return fsp.writeFile(file, data, { flush: true });
}

export class FeedbackStore {
  constructor(private readonly paths: WorkspacePaths, private readonly maxBulkBytes: number) {}

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
   * slower on 2 cores: the writes compete with the sandbox workers, and written afterwards, in
   * parallel on the thread pool, the same 15 MB take 10-60 ms.
   */
  begin(n: number): PendingFeedback {
    fs.mkdirSync(this.paths.feedback, { recursive: true });
    const tmp = path.join(this.paths.feedback, `.tmp-${submissionName(n)}-${randomBytes(4).toString('hex')}`);
    fs.mkdirSync(path.join(tmp, 'episodes'), { recursive: true });
    fs.mkdirSync(path.join(tmp, 'logs'), { recursive: true });
    const records: EpisodeRecord[] = [];
    const added = new WeakSet<EpisodeRecord>();
    return {
      addEpisode: (r) => {
        if (added.has(r)) return;
        added.add(r);
        records.push(r);
      },
      commit: async (summary) => {
        const stems = FeedbackStore.fileStems(records);
        await settleAll(records.map((r, i) => writeEpisodeFiles(tmp, stems[i] as string, r)));
        writeFileDurable(path.join(tmp, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
        fsyncDir(path.join(tmp, 'episodes'));
        fsyncDir(path.join(tmp, 'logs'));
        fsyncDir(tmp);
        const dst = this.paths.submissionDir(summary.submission);
        // A leftover from an earlier rolled-back attempt with this number would block the rename.
        fs.rmSync(dst, { recursive: true, force: true });
        fs.renameSync(tmp, dst);
        fsyncDir(this.paths.feedback);
        writeJsonAtomic(this.paths.latest, summary);
        this.evict(summary.submission);
      },
      abandon: async () => {
        fs.rmSync(tmp, { recursive: true, force: true });
      },
    };
  }

  /** Writes a whole submission at once (records in any order). */
  async write(summary: SubmissionSummary, records: readonly EpisodeRecord[]): Promise<void> {
    const pending = this.begin(summary.submission);
    for (const r of records) pending.addEpisode(r);
    await pending.commit(summary);
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
  }

  /** Oldest-first eviction of trajectories until the bulk total fits the cap. */
  evict(newest: number): void {
    if (!fs.existsSync(this.paths.feedback)) return;
    const subs = fs
      .readdirSync(this.paths.feedback)
      .map((name) => /^submit-(\d+)$/.exec(name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    const sizes = new Map<number, number>();
    let total = 0;
    for (const n of subs) {
      const s = dirBytes(path.join(this.paths.submissionDir(n), 'episodes'));
      sizes.set(n, s);
      total += s;
    }
    for (const n of subs) {
      if (total <= this.maxBulkBytes) break;
      if (n === newest) continue;
      const s = sizes.get(n) ?? 0;
      if (s === 0) continue;
      fs.rmSync(path.join(this.paths.submissionDir(n), 'episodes'), { recursive: true, force: true });
      total -= s;
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
