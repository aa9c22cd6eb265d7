/**
 * What the Problems panel says about a submission's policy failures: one entry per distinct error
 * (src/stats/errorGroups.ts groups them, as the dashboard does), and the build problems of a
 * rejected submit (no `vscode` import).
 */
import type { SubmissionSummary } from '../../protocol/feedback';
import { formatCaseSet } from '../../protocol/caseRanges';
import { groupErrors, type ErrorGroup } from '../../stats/errorGroups';
import { plural } from '../shared/plural';

export interface PolicyProblem {
  /** Workspace-relative file, e.g. `policy/policy.ts`. */
  file: string;
  /** 1-based line and column as the runner reports them. */
  line: number;
  column: number;
  group: ErrorGroup;
}

/** The submission's policy errors at their source lines; runner faults are not the policy's and stay out. */
export function policyProblems(summary: SubmissionSummary, fallbackFile = 'policy/policy.ts'): PolicyProblem[] {
  return groupErrors([summary])
    .filter((g) => g.source === 'policy')
    .map((group) => ({ file: group.location?.file ?? fallbackFile, line: group.location?.line ?? 1, column: group.location?.column ?? 1, group }));
}

export function diagnosticMessage(g: ErrorGroup, submission: number): string {
  const what = g.status === 'exception' ? g.message : `${g.status}: ${g.message}`;
  return `${what} (${plural(g.count, 'episode')} of submission #${submission}; cases ${formatCaseSet(g.cases)})`;
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
