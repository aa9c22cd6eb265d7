/**
 * Groups the policy failures of a submission by source location and message, so Problems shows
 * one entry per distinct error with how many episodes hit it and which cases (no `vscode` import).
 */
import type { EpisodeStatus } from '../../protocol/episodes';
import type { SubmissionSummary } from '../../protocol/feedback';
import { formatCaseList, plural } from '../shared/format';

export interface ErrorGroup {
  /** Workspace-relative file, e.g. `policy/policy.ts`. */
  file: string;
  /** 1-based line and column as the runner reports them. */
  line: number;
  column: number;
  status: EpisodeStatus;
  message: string;
  cases: number[];
}

export function groupPolicyErrors(summary: SubmissionSummary, fallbackFile = 'policy/policy.ts'): ErrorGroup[] {
  const groups = new Map<string, ErrorGroup>();
  for (const ep of summary.episodes) {
    if (ep.status === 'ok' || ep.status === 'runner_fault') continue;
    const loc = ep.error?.location;
    const file = loc?.file ?? fallbackFile;
    const line = loc?.line ?? 1;
    const column = loc?.column ?? 1;
    // "act() threw at step 16: …" and "… at step 40: …" are one error hit at different times.
    const message = (ep.error?.message ?? ep.status).replace(/ at step \d+/, '');
    const key = `${file}:${line}:${column}:${ep.status}:${message}`;
    const g = groups.get(key) ?? { file, line, column, status: ep.status, message, cases: [] };
    g.cases.push(ep.caseIndex);
    groups.set(key, g);
  }
  return [...groups.values()];
}

export function diagnosticMessage(g: ErrorGroup, submission: number): string {
  const what = g.status === 'exception' ? g.message : `${g.status}: ${g.message}`;
  return `${what} (${plural(g.cases.length, 'episode')} of submission #${submission}; cases ${formatCaseList(g.cases)})`;
}

/** Build diagnostics of a rejected submit, as the runner reports them in the error's `data`. */
export interface BuildProblem {
  file: string;
  line: number;
  column: number;
  message: string;
  /** Type errors are reported by the build but do not block it. */
  severity: 'error' | 'warning';
}

export function buildProblems(data: unknown): BuildProblem[] {
  if (!data || typeof data !== 'object') return [];
  const d = data as Record<string, unknown>;
  const list = d.diagnostics ?? d.errors;
  if (!Array.isArray(list)) return [];
  const out: BuildProblem[] = [];
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const e = item as Record<string, unknown>;
    const loc = (e.location && typeof e.location === 'object' ? e.location : e) as Record<string, unknown>;
    const text = typeof e.message === 'string' ? e.message : typeof e.text === 'string' ? e.text : undefined;
    if (!text) continue;
    out.push({
      file: typeof loc.file === 'string' ? loc.file : 'policy/policy.ts',
      line: typeof loc.line === 'number' ? loc.line : 1,
      column: typeof loc.column === 'number' ? loc.column : 1,
      message: text,
      severity: e.severity === 'warning' ? 'warning' : 'error',
    });
  }
  return out;
}
