/**
 * A whole run read back from its workspace: `feedback/submit-NNNN/summary.json` for each
 * submission, `.policyforge/checkpoints/<id>/` (a copy of `policy/`) for its code, and
 * `.policyforge/events.jsonl` / `report.json` for lineage and validation means. Every edit is
 * re-analysed from the checkpoints; what cannot be read is reported, not thrown.
 *
 * Lineage: a submission's parent is the one the runner recorded (`summary.parent`, the journal's
 * `submitted.parent`, which account for restores), else the previous submission.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { CheckpointMetrics, DiagnosticsSubmission, EditAnalysis, RunDiagnostics } from '../protocol/analysis';
import { parseRunReport, parseSubmissionSummary } from '../protocol/documents';
import type { EditSummary, SubmissionSummary } from '../protocol/feedback';
import { analyzeEdit, computeMetrics } from './analyzeEdit';
import { runDiagnostics } from './diagnostics';
import { initialEditSummary, toEditSummary } from './summary';

export interface RunSubmissionAnalysis {
  submission: number;
  parent: number | null;
  checkpoint: string;
  /** Absolute checkpoint folder, or null when it is not on disk. */
  checkpointDir: string | null;
  budgetUsed: number;
  trainMean: number | null;
  validationMean: number | null;
  edit: EditSummary | null;
  /** The full analysis when both checkpoints could be read. */
  analysis: EditAnalysis | null;
  metrics: CheckpointMetrics | null;
}

export interface RunAnalysis {
  workspace: string;
  submissions: RunSubmissionAnalysis[];
  diagnostics: RunDiagnostics;
  /** What could not be read or analysed, one line each. */
  problems: string[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A summary.json through the protocol's schema; throws with the reason when it is unreadable or does not match. */
async function readSummary(file: string): Promise<SubmissionSummary> {
  const parsed = parseSubmissionSummary(await fsp.readFile(file, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

async function readJournal(file: string): Promise<Record<string, unknown>[]> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch {
    return [];
  }
  const out: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as unknown;
      if (isRecord(e)) out.push(e);
    } catch {
      // a torn last line
    }
  }
  return out;
}

async function findCheckpointDir(checkpoints: string, id: string): Promise<string | null> {
  const exact = path.join(checkpoints, id);
  try {
    if ((await fsp.stat(exact)).isDirectory()) return exact;
  } catch {
    // fall through to a prefix match (short ids)
  }
  try {
    const names = await fsp.readdir(checkpoints);
    const hit = names.find((n) => !n.startsWith('.') && (n.startsWith(id) || id.startsWith(n)));
    return hit ? path.join(checkpoints, hit) : null;
  } catch {
    return null;
  }
}

export interface AnalyzeRunOptions {
  /**
   * Re-analyse every edit from the checkpoints (default). With false, a summary's recorded
   * `edit` is used as is and only the missing ones are analysed (the runner's report hook).
   */
  reanalyze?: boolean;
}

/** Reads a run's submissions and re-derives every edit, metric and the run diagnostics. */
export async function analyzeRun(workspace: string, options: AnalyzeRunOptions = {}): Promise<RunAnalysis> {
  const reanalyze = options.reanalyze ?? true;
  const root = path.resolve(workspace);
  const problems: string[] = [];
  const feedback = path.join(root, 'feedback');
  const state = path.join(root, '.policyforge');
  let names: string[] = [];
  try {
    names = (await fsp.readdir(feedback)).filter((n) => /^submit-\d+$/.test(n)).sort();
  } catch {
    problems.push(`no feedback/ folder in ${root}`);
  }
  const summaries: SubmissionSummary[] = [];
  for (const n of names) {
    try {
      summaries.push(await readSummary(path.join(feedback, n, 'summary.json')));
    } catch (e) {
      problems.push(`${n}/summary.json: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  summaries.sort((a, b) => a.submission - b.submission);

  const journal = await readJournal(path.join(state, 'events.jsonl'));
  const journalParent = new Map<number, number | null>();
  const validation = new Map<number, number>();
  for (const e of journal) {
    if (e.type === 'submitted' && typeof e.submission === 'number' && (typeof e.parent === 'number' || e.parent === null)) journalParent.set(e.submission, e.parent);
    if (e.type === 'validated' && typeof e.submission === 'number' && isRecord(e.stats) && typeof e.stats.mean === 'number') validation.set(e.submission, e.stats.mean);
  }
  let reportText: string | null = null;
  try {
    reportText = await fsp.readFile(path.join(state, 'report.json'), 'utf8');
  } catch {
    // no report yet: the run is still going
  }
  if (reportText !== null) {
    const report = parseRunReport(reportText);
    if (report.ok) for (const c of report.value.candidates) validation.set(c.submission, c.validationMean);
    else problems.push(`.policyforge/report.json: ${report.error}`);
  }

  const checkpoints = path.join(state, 'checkpoints');
  const out: RunSubmissionAnalysis[] = [];
  const byNumber = new Map<number, RunSubmissionAnalysis>();
  let previous: number | null = null;
  for (const s of summaries) {
    const parent = s.parent !== undefined ? s.parent : s.edit ? s.edit.parent : journalParent.has(s.submission) ? journalParent.get(s.submission)! : previous;
    previous = s.submission;
    const dir = await findCheckpointDir(checkpoints, s.checkpoint);
    if (!dir) problems.push(`submission ${s.submission}: checkpoint ${s.checkpoint.slice(0, 12)} not found under .policyforge/checkpoints/`);
    let metrics: CheckpointMetrics | null = null;
    if (dir) {
      const m = await computeMetrics(dir);
      if (m.ok) metrics = m.metrics;
      else problems.push(`submission ${s.submission}: ${m.error}`);
    }
    let analysis: EditAnalysis | null = null;
    let edit: EditSummary | null = s.edit ?? null;
    if (parent === null) edit = initialEditSummary();
    else if (!reanalyze && edit) {
      // keep the recorded edit
    } else {
      const parentDir = byNumber.get(parent)?.checkpointDir ?? null;
      if (dir && parentDir) {
        const r = await analyzeEdit(parentDir, dir);
        if (r.ok) {
          analysis = r.analysis;
          edit = toEditSummary(r.analysis, parent);
        } else problems.push(`submission ${s.submission}: ${r.error}`);
      }
    }
    const count = s.stats.count;
    const row: RunSubmissionAnalysis = {
      submission: s.submission,
      parent,
      checkpoint: s.checkpoint,
      checkpointDir: dir,
      budgetUsed: s.budget.used,
      trainMean: count > 0 ? s.stats.mean : null,
      validationMean: validation.get(s.submission) ?? null,
      edit,
      analysis,
      metrics,
    };
    out.push(row);
    byNumber.set(s.submission, row);
  }

  const input: DiagnosticsSubmission[] = out.map((r) => ({
    submission: r.submission,
    parent: r.parent,
    budgetUsed: r.budgetUsed,
    trainMean: r.trainMean,
    edit: r.edit,
    metrics: r.metrics,
    validationMean: r.validationMean,
  }));
  return { workspace: root, submissions: out, diagnostics: runDiagnostics(input), problems };
}

/**
 * The runner's per-submit hook: the EditSummary of a new checkpoint against its parent's
 * (`parentDir` null for the first submission). Throws nothing: an unreadable checkpoint gives
 * undefined, and feedback goes on without an edit.
 */
export async function editSummaryForCheckpoints(parentDir: string | null, childDir: string, parent: number | null = null): Promise<EditSummary | undefined> {
  if (parentDir === null) return initialEditSummary();
  const r = await analyzeEdit(parentDir, childDir);
  return r.ok ? toEditSummary(r.analysis, parent) : undefined;
}

/** The runner's report hook: `report.json` → `diagnostics` for the run in `workspace`. */
export async function runDiagnosticsForWorkspace(workspace: string): Promise<RunDiagnostics> {
  return (await analyzeRun(workspace, { reanalyze: false })).diagnostics;
}

/**
 * What `policyforge analyze A B` accepts for A and B: a folder (workspace, policy/ or checkpoint),
 * a submission number of the run in `workspace` (`3`, `#3`), or a checkpoint id or its prefix.
 * Returns the folder to read, or an error naming what was tried.
 */
export async function resolvePolicyRef(workspace: string, ref: string): Promise<{ ok: true; dir: string } | { ok: false; error: string }> {
  try {
    if ((await fsp.stat(ref)).isDirectory()) return { ok: true, dir: path.resolve(ref) };
  } catch {
    // not a folder: try the run's submissions and checkpoints
  }
  const root = path.resolve(workspace);
  const checkpoints = path.join(root, '.policyforge', 'checkpoints');
  const number = /^#?(\d+)$/.exec(ref);
  if (number) {
    const n = Number(number[1]);
    const file = path.join(root, 'feedback', `submit-${String(n).padStart(4, '0')}`, 'summary.json');
    try {
      const s = await readSummary(file);
      const dir = await findCheckpointDir(checkpoints, s.checkpoint);
      if (dir) return { ok: true, dir };
      return { ok: false, error: `submission ${n}: its checkpoint is not under ${checkpoints}` };
    } catch (e) {
      const why = e instanceof Error && 'code' in e && e.code === 'ENOENT' ? 'does not exist' : `cannot be read (${e instanceof Error ? e.message : String(e)})`;
      return { ok: false, error: `"${ref}" is not a folder, and ${file} ${why}` };
    }
  }
  if (/^[0-9a-f]{6,64}$/i.test(ref)) {
    const dir = await findCheckpointDir(checkpoints, ref.toLowerCase());
    if (dir) return { ok: true, dir };
  }
  return { ok: false, error: `"${ref}" is not a folder, a submission number or a checkpoint id of the run in ${root}` };
}
