/**
 * The runner's tools that need the TypeScript compiler (through ts-morph): the policy type check
 * and the edit analysis. Loading the compiler costs a process about 85 MiB that it never gives
 * back, and a check about 30 more, so the runner runs them in a child process of their own
 * (tsToolsProcess.ts) that exits when idle; `tsTools()` gives the same calls in this process when
 * there is no built child script (tests and benchmarks running the sources).
 */
import type { RunDiagnostics } from '../../protocol/analysis';
import type { EditSummary } from '../../protocol/feedback';
import { typeCheckPolicy } from '../../sandbox/bundle/typeCheck';
import type { BundleDiagnostic } from '../../sandbox/types';

export interface TsTools {
  /** Type errors of the `.ts` files among `files` (workspace-relative), as buildBundle reports them. */
  typeCheck(root: string, files: readonly string[]): Promise<BundleDiagnostic[]>;
  editSummary(parentDir: string | null, childDir: string, parent: number | null): Promise<EditSummary | undefined>;
  diagnostics(workspace: string): Promise<RunDiagnostics>;
  /** Starts loading the compiler ahead of the first call. */
  warmUp(): Promise<void>;
}

export type TsToolMethod = keyof TsTools;

type AnalysisModule = typeof import('../../analysis');

let analysis: Promise<AnalysisModule> | undefined;
function loadAnalysis(): Promise<AnalysisModule> {
  // require, not import(): the project runs as CommonJS (bundled, or from source under tsx's
  // CommonJS hook, where import() of a folder failed and feedback silently went without edits).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose, see above
  analysis ??= Promise.resolve().then(() => require('../../analysis') as AnalysisModule);
  return analysis;
}

/** The tools in this process. */
export const inProcessTools: TsTools = {
  typeCheck: async (root, files) => (await typeCheckPolicy(root, files)).diagnostics,
  editSummary: async (parentDir, childDir, parent) => (await loadAnalysis()).editSummaryForCheckpoints(parentDir, childDir, parent),
  diagnostics: async (workspace) => (await loadAnalysis()).runDiagnosticsForWorkspace(workspace),
  warmUp: async () => (await loadAnalysis()).warmUp(),
};
