/**
 * What VS Code asks before a submit that spends the last of the budget, and so ends the run. The
 * decision is the one the CLI, MCP and the LM tool make (`lastBudgetWarning`,
 * src/stats/reportText.ts); VS Code has no candidate picker, so its text names the CLI's finish.
 * No `vscode` import (unit-tested).
 */
import { lastBudgetDeclined, lastBudgetWarning, requestedEpisodes, type RunSoFar } from '../../stats/reportText';
import type { SubmitRequest } from './caseInput';

export interface LastBudgetQuestion {
  message: string;
  detail: string;
  action: string;
  /** The outcome when the person declines: nothing charged, and the run's own submissions to finish with instead. */
  declined: string;
}

/** The question before `request`, or null when it does not spend the last of the budget. */
export function lastBudgetQuestion(request: SubmitRequest, run: RunSoFar): LastBudgetQuestion | null {
  const warning = lastBudgetWarning(requestedEpisodes(request), run, 'cli');
  if (warning === null) return null;
  const text = warning.replace(/^warning: /, '');
  return { message: 'Spend the last of the budget and end the run?', detail: `${text.charAt(0).toUpperCase()}${text.slice(1)}`, action: 'Submit and End the Run', declined: lastBudgetDeclined(run.history, 'cli') };
}
