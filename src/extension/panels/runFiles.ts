/**
 * Reads the run's documents from the workspace for the panels: summaries, the report and
 * recorded trajectories. Plain Node (no `vscode`), so it is unit-tested against real files.
 * Every document is read through its protocol schema (src/protocol/documents.ts); a bad file
 * becomes a problem string for the user, never an exception.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { describeIssues, parseRunReport, parseSubmissionSummary, trajectorySchema, trajectoryStepSchema, type Checked } from '../../protocol/documents';
import type { Trajectory, TrajectoryStep } from '../../protocol/episodes';
import type { RunReport, SubmissionSummary } from '../../protocol/feedback';
import { parseFrozenConfig, type RunConfig } from '../../runner/config';
import { comparableEpisodes } from '../../stats/bestTrain';

export interface RunFiles {
  summaries: SubmissionSummary[];
  report: RunReport | null;
  envId: string | null;
  /** Episodes a submission needs before its train mean competes for "best" (src/stats/bestTrain.ts); 1 without a readable run.json. */
  bestMinEpisodes: number;
  /** Files that exist but could not be read or failed validation. */
  problems: string[];
}

const SUBMISSION_DIR = /^submit-(\d{4,})$/;

export function submissionDirName(n: number): string {
  return `submit-${String(n).padStart(4, '0')}`;
}

export async function readRunFiles(root: string): Promise<RunFiles> {
  const problems: string[] = [];
  const feedback = path.join(root, 'feedback');
  let names: string[] = [];
  try {
    names = (await fs.readdir(feedback)).filter((n) => SUBMISSION_DIR.test(n));
  } catch {
    // No feedback folder yet: a run with no submissions.
  }
  const read = await Promise.all(names.map(async (n) => readSummary(path.join(feedback, n, 'summary.json'))));
  const summaries: SubmissionSummary[] = [];
  for (const r of read) {
    if (r === null) continue;
    if (typeof r === 'string') problems.push(r);
    else summaries.push(r);
  }
  summaries.sort((a, b) => a.submission - b.submission);
  const report = await readReport(root);
  if (typeof report === 'string') problems.push(report);
  const config = await readConfig(root);
  const envId = summaries[0]?.envId ?? (report && typeof report !== 'string' ? report.envId : null) ?? config?.envId ?? null;
  return { summaries, report: typeof report === 'string' ? null : report, envId, bestMinEpisodes: config ? comparableEpisodes(config) : 1, problems };
}

/** A summary, null when absent (a submission being written), or a problem string. */
export async function readSummary(file: string): Promise<SubmissionSummary | string | null> {
  const text = await readText(file);
  if (text === null) return null;
  return orProblem(file, parseSubmissionSummary(text));
}

export async function readReport(root: string): Promise<RunReport | string | null> {
  const file = path.join(root, '.policyforge', 'report.json');
  const text = await readText(file);
  if (text === null) return null;
  return orProblem(file, parseRunReport(text));
}

async function readConfig(root: string): Promise<RunConfig | null> {
  const text = await readText(path.join(root, '.policyforge', 'run.json'));
  if (text === null) return null;
  // An unreadable run.json leaves the panels showing "no run".
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = parseFrozenConfig(json);
  return parsed.ok ? parsed.config : null;
}

/**
 * The trajectory of `caseIndex` in a submission. The runner writes JSONL: a header line
 * (caseIndex, status, …, initialSnapshot, trajectoryTruncated) then one step per line; a single
 * JSON document ({initialSnapshot, steps, truncated} or an EpisodeRecord with `trajectory`) is
 * accepted too. `occurrence` picks among repeats of the same case (case-003-2.jsonl).
 */
export async function readTrajectory(root: string, summary: SubmissionSummary, caseIndex: number, occurrence = 1): Promise<{ trajectory: Trajectory } | { problem: string }> {
  if (summary.files.evicted && summary.files.trajectories.length === 0) return { problem: `The trajectories of submission #${summary.submission} were evicted to stay under the feedback size cap.` };
  const file = trajectoryFile(root, summary, caseIndex, occurrence);
  const text = await readText(file);
  if (text === null) return { problem: `No trajectory file for case ${caseIndex} of submission #${summary.submission} (${path.relative(root, file)}).` };
  const parsed = parseTrajectory(text);
  return typeof parsed === 'string' ? { problem: `${path.relative(root, file)}: ${parsed}` } : { trajectory: parsed };
}

export function trajectoryFile(root: string, summary: SubmissionSummary, caseIndex: number, occurrence = 1): string {
  const stem = `case-${String(caseIndex).padStart(3, '0')}${occurrence > 1 ? `-${occurrence}` : ''}`;
  const listed = summary.files.trajectories.find((f) => path.basename(f).replace(/\.jsonl?$/, '') === stem);
  if (listed !== undefined) return path.resolve(root, listed);
  return path.join(root, 'feedback', submissionDirName(summary.submission), 'episodes', `${stem}.jsonl`);
}

export function parseTrajectory(text: string): Trajectory | string {
  const trimmed = text.trim();
  if (trimmed === '') return 'empty file';
  // One JSON document?
  if (!trimmed.includes('\n')) {
    try {
      const doc = JSON.parse(trimmed) as unknown;
      const whole = wholeDocument(doc);
      if (whole !== null) return whole;
    } catch (e) {
      return `not JSON (${e instanceof Error ? e.message : String(e)})`;
    }
  } else {
    try {
      const whole = wholeDocument(JSON.parse(trimmed));
      if (whole !== null) return whole;
    } catch {
      // JSONL: parse line by line below
    }
  }
  const steps: TrajectoryStep[] = [];
  let initialSnapshot: unknown;
  let truncated = false;
  let format: string | undefined;
  const lines = trimmed.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]?.trim();
    if (!line) continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (e) {
      return `line ${i + 1} is not JSON (${e instanceof Error ? e.message : String(e)})`;
    }
    // A layout that stores changes (the header's `format`) leaves false flags out; the replay expands the rest.
    const step = trajectoryStepSchema.safeParse(format !== undefined && typeof v === 'object' && v !== null ? { terminated: false, truncated: false, ...v } : v);
    if (step.success) {
      steps.push(step.data);
      continue;
    }
    if (typeof v === 'object' && v !== null && i === 0) {
      const header = v as { initialSnapshot?: unknown; trajectoryTruncated?: unknown; truncated?: unknown; format?: unknown };
      initialSnapshot = header.initialSnapshot;
      truncated = header.trajectoryTruncated === true;
      if (typeof header.format === 'string') format = header.format;
      continue;
    }
    return `line ${i + 1} is not a trajectory step (${describeIssues(step.error)})`;
  }
  return format === undefined ? { initialSnapshot, steps, truncated } : { format, initialSnapshot, steps, truncated };
}

function wholeDocument(doc: unknown): Trajectory | null {
  const direct = trajectorySchema.safeParse(doc);
  if (direct.success) return direct.data;
  const nested = trajectorySchema.safeParse((doc as { trajectory?: unknown } | null)?.trajectory);
  return nested.success ? nested.data : null;
}

async function readText(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return null;
  }
}

function orProblem<T>(file: string, checked: Checked<T>): T | string {
  return checked.ok ? checked.value : `${file}: ${checked.error}`;
}
