/**
 * Optional wiring of the edit analysis (src/analysis) into feedback and reports. The analysis
 * loads ts-morph lazily and may be slow, absent or failing; none of that ever blocks a submit
 * or a report (each call has a deadline, and errors become "no edit summary").
 */
import type { RunOptions } from './run';

type AnalysisModule = typeof import('../analysis');

const EDIT_DEADLINE_MS = 5_000;
const DIAGNOSTICS_DEADLINE_MS = 30_000;

let loaded: Promise<AnalysisModule> | undefined;
function analysis(): Promise<AnalysisModule> {
  // require, not import(): the project runs as CommonJS (bundled, or from source under tsx's
  // CommonJS hook, where import() of a folder failed and feedback silently went without edits).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose, see above
  loaded ??= Promise.resolve().then(() => require('../analysis') as AnalysisModule);
  return loaded;
}

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
  // Load ts-morph in the background while the first episodes run.
  void analysis()
    .then((a) => a.warmUp())
    .catch((e: unknown) => log?.(`edit analysis unavailable: ${String(e)}`));
  return {
    analyzeEdit: (parentDir, childDir, parent) =>
      withDeadline(
        analysis().then((a) => a.editSummaryForCheckpoints(parentDir, childDir, parent)),
        EDIT_DEADLINE_MS,
        'edit analysis',
      ),
    diagnostics: (workspace) =>
      withDeadline(
        analysis().then((a) => a.runDiagnosticsForWorkspace(workspace)), // reuses the edits recorded in the summaries
        DIAGNOSTICS_DEADLINE_MS,
        'run diagnostics',
      ),
  };
}
