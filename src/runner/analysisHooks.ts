/**
 * Optional wiring of the edit analysis (src/analysis) into feedback and reports. The analysis
 * loads ts-morph lazily and may be absent or fail; neither ever blocks a submit or a report.
 */
import type { RunOptions } from './run';

export function loadAnalysisHooks(log?: (m: string) => void): Pick<RunOptions, 'analyzeEdit' | 'diagnostics'> {
  void log;
  return {};
}
