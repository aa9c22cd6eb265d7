/**
 * Edit analysis: bundle reading, topology, edit classification, code metrics, edit size and run
 * diagnostics. Depends only on src/protocol. ts-morph is loaded on the first call that parses
 * (or on `warmUp()`), never by importing this module.
 */
export { analyzeBundles, analyzeEdit, computeMetrics, type EditResult, type MetricsResult } from './analyzeEdit';
export { readBundle, locatePolicyDir, type Bundle, type BundleModule, type BundleResult } from './bundle';
export { bundleMetrics } from './metrics';
export { editSize, sizeBin } from './editSize';
export { runDiagnostics } from './diagnostics';
export { toEditSummary, initialEditSummary, MAX_SUMMARY_DETAILS } from './summary';
export { analyzeRun, editSummaryForCheckpoints, resolvePolicyRef, runDiagnosticsForWorkspace, type AnalyzeRunOptions, type RunAnalysis, type RunSubmissionAnalysis } from './runAnalysis';
export { clearFactsCache, moduleFacts } from './factsCache';
export type { LiteralFact, ModuleFacts } from './facts';
export { literalAtOffset, mapLiterals } from './literalMap';
import { loadEngine } from './engine';

/** Loads ts-morph ahead of the first analysis (e.g. while the first episodes run). */
export async function warmUp(): Promise<void> {
  await loadEngine();
}
