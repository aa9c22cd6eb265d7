/**
 * What the chat agent's submit tool says, without `vscode` so a test can run it in Node: the
 * warnings before anything is charged (type errors, the last of the budget) and the result text,
 * with the run's report under it when that submit ended the run. The texts are the ones the CLI
 * and the MCP server print (src/stats/feedbackText.ts, src/stats/reportText.ts).
 */
import type { RunReport, SubmissionSummary } from '../../protocol/feedback';
import type { CheckResult } from '../../protocol/run';
import { formatSummary, typeErrorWarning } from '../../stats/feedbackText';
import { lastBudgetText, lastBudgetWarning, requestedEpisodes, type RunSoFar } from '../../stats/reportText';

export interface SubmitWarnings {
  /** The type-error warning's lines (a header, then one line per error); empty without errors or when strict. */
  typeErrors: string[];
  /** The warning before a submit that spends the last of the budget, or null. */
  lastBudget: string | null;
}

export function submitWarnings(input: { cases?: string | readonly number[]; episodes?: number; strict?: boolean }, check: Pick<CheckResult, 'typeErrors' | 'diagnostics'> | null, run: RunSoFar | null): SubmitWarnings {
  return {
    typeErrors: input.strict || !check ? [] : typeErrorWarning(check, '`strict: true`'),
    lastBudget: run ? lastBudgetWarning(requestedEpisodes(input), run, 'lm') : null,
  };
}

/** The confirmation's markdown tail: each warning in bold, type errors listed under theirs. */
export function warningMarkdown(w: SubmitWarnings): string {
  const parts: string[] = [];
  if (w.typeErrors.length) parts.push(`**${w.typeErrors[0]}**\n\n${w.typeErrors.slice(1).map((l) => `- \`${l.trim()}\``).join('\n')}`);
  if (w.lastBudget) parts.push(`**${w.lastBudget}**`);
  return parts.map((p) => `\n\n${p}`).join('');
}

/** The result's text: the warnings shown before the charge, the feedback, and the report when the run ended with it. */
export function submitResultText(w: SubmitWarnings, summary: SubmissionSummary, history: readonly { mean: number }[], report: RunReport | undefined): string {
  return [...w.typeErrors, ...(w.lastBudget ? [w.lastBudget] : []), formatSummary(summary, history), ...(report ? [lastBudgetText(report, history)] : [])].join('\n');
}
