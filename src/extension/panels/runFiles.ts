/**
 * Reads the run's documents from the workspace for the panels: summaries, the report and
 * recorded trajectories. Plain Node (no `vscode`), so it is unit-tested against real files.
 * Every document is validated with the panel protocol's schemas; a bad file becomes a problem
 * string for the user, never an exception.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Trajectory, TrajectoryStep } from '../../protocol/episodes';
import type { RunReport, SubmissionSummary } from '../../protocol/feedback';
import { describeIssues, runReportSchema, submissionSummarySchema, trajectorySchema, trajectoryStepSchema } from '../../protocol/webview';

export interface RunFiles {
  summaries: SubmissionSummary[];
  report: RunReport | null;
  envId: string | null;
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
  const envId = summaries[0]?.envId ?? (report && typeof report !== 'string' ? report.envId : null) ?? (await readEnvId(root));
  return { summaries, report: typeof report === 'string' ? null : report, envId, problems };
}

/** A summary, null when absent (a submission being written), or a problem string. */
export async function readSummary(file: string): Promise<SubmissionSummary | string | null> {
  const text = await readText(file);
  if (text === null) return null;
  return parseWith(file, text, (v) => submissionSummarySchema.safeParse(v));
}

export async function readReport(root: string): Promise<RunReport | string | null> {
  const file = path.join(root, '.policyforge', 'report.json');
  const text = await readText(file);
  if (text === null) return null;
  return parseWith(file, text, (v) => runReportSchema.safeParse(v));
}

async function readEnvId(root: string): Promise<string | null> {
  const text = await readText(path.join(root, '.policyforge', 'run.json'));
  if (text === null) return null;
  try {
    const v = JSON.parse(text) as { envId?: unknown; env?: { id?: unknown } };
    if (typeof v.envId === 'string') return v.envId;
    if (typeof v.env?.id === 'string') return v.env.id;
  } catch {
    // unreadable run.json: the panels show "no run"
  }
  return null;
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
    const step = trajectoryStepSchema.safeParse(v);
    if (step.success) {
      steps.push(step.data);
      continue;
    }
    if (typeof v === 'object' && v !== null && i === 0) {
      const header = v as { initialSnapshot?: unknown; trajectoryTruncated?: unknown; truncated?: unknown; lost?: unknown };
      // The runner could not restore this file after a machine crash (see src/runner/feedbackStore.ts).
      if (typeof header.lost === 'string') return `the trajectory was ${header.lost}`;
      initialSnapshot = header.initialSnapshot;
      truncated = header.trajectoryTruncated === true;
      continue;
    }
    return `line ${i + 1} is not a trajectory step (${describeIssues(step.error)})`;
  }
  return { initialSnapshot, steps, truncated };
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

function parseWith<T>(file: string, text: string, parse: (v: unknown) => { success: true; data: T } | { success: false; error: import('zod').ZodError }): T | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return `${file}: not JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  const r = parse(v);
  return r.success ? r.data : `${file}: ${describeIssues(r.error)}`;
}
