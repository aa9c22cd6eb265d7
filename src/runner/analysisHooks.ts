/**
 * Optional wiring of the edit analysis (src/analysis) into feedback and reports. The analysis
 * loads ts-morph lazily and may be slow, absent or failing; none of that ever blocks a submit
 * or a report (each call has a deadline, and errors become "no edit summary").
 */
import type { RunOptions } from './run';
import { tsTools } from './tsTools/tsToolsClient';

const EDIT_DEADLINE_MS = 5_000;
const DIAGNOSTICS_DEADLINE_MS = 30_000;

function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    t.unref();
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

export function loadAnalysisHooks(log?: (m: string) => void): Pick<RunOptions, 'analyzeEdit' | 'diagnostics'> {
  // The analysis runs where the runner's TypeScript tools run (a child process of the built runner).
  const tools = tsTools();
  // Load ts-morph in the background while the first episodes run.
  void tools.warmUp().catch((e: unknown) => log?.(`edit analysis unavailable: ${String(e)}`));
  return {
    analyzeEdit: (parentDir, childDir, parent) => withDeadline(tools.editSummary(parentDir, childDir, parent), EDIT_DEADLINE_MS, 'edit analysis'),
    // Reuses the edits recorded in the summaries.
    diagnostics: (workspace) => withDeadline(tools.diagnostics(workspace), DIAGNOSTICS_DEADLINE_MS, 'run diagnostics'),
  };
}
