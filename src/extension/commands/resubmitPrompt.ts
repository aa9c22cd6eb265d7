/**
 * What Resubmit Same Cases asks before it spends budget: which submission's cases run again,
 * how many episodes that charges and what is left after. No `vscode` import (unit-tested).
 */
import { formatCaseRanges } from '../../protocol/caseRanges';
import { plural } from '../shared/plural';
import { parseSubmitInput, resubmitRequest, type SubmitLimits, type SubmitRequest } from '../submit/caseInput';

export type ResubmitQuestion =
  | { ok: true; request: SubmitRequest; message: string; detail: string; action: string }
  | { ok: false; message: string };

export function resubmitQuestion(submission: number, cases: readonly number[], limits: SubmitLimits): ResubmitQuestion {
  const request = resubmitRequest(cases);
  // The same checks as typed input: pool, per-submit limits and the budget left.
  const parsed = parseSubmitInput('cases' in request ? request.cases : String(request.episodes), limits);
  if (!parsed.ok) return { ok: false, message: `cannot resubmit the cases of #${submission}: ${parsed.message}` };
  const ranges = formatCaseRanges(cases);
  return {
    ok: true,
    request,
    message: `Resubmit the cases of #${submission}?`,
    detail: `Runs the current policy/ on case${cases.length === 1 ? '' : 's'} ${ranges} again. This charges ${plural(parsed.count, 'episode')} of budget: ${limits.remaining} left now, ${limits.remaining - parsed.count} after.`,
    action: `Resubmit ${plural(parsed.count, 'episode')}`,
  };
}
