/**
 * The end of a run as plain text, the same on every surface (CLI, MCP tools, the chat agent's LM
 * tools): the report, what the submit that spent the last of the budget adds under its feedback,
 * and the warning before a submit that would spend it. Returns print in the run's format
 * (scoreFormat.ts); `history` is `run.status` history, whose train means set it.
 */
import { formatCaseSet, parseCaseRanges } from '../protocol/caseRanges';
import type { RunReport } from '../protocol/feedback';
import { failuresOf, outranks } from './bestSubmission';
import { statsText as stats } from './feedbackText';
import { historyScoreFormat } from './scoreFormat';

type History = readonly { mean: number }[];

export function formatReport(r: RunReport, history: History): string {
  const fmt = historyScoreFormat(history.length ? history : r.candidates.map((c) => ({ mean: c.trainMean })));
  const lines = [`run complete: ${r.envId}   budget ${r.budget.used}/${r.budget.total} used   selection ${r.selectionMode}`];
  if (r.selected === null) lines.push(`no submission selected: ${r.reason ?? 'no candidate qualified'}`);
  else {
    const c = r.candidates.find((x) => x.submission === r.selected);
    lines.push(`selected submission ${r.selected}${r.selectedCheckpoint ? ` (checkpoint ${r.selectedCheckpoint.slice(0, 12)})` : ''}`);
    lines.push(`  validation mean ${c ? fmt.meanStderr(c.validationMean, c.validationStderr) : '—'}${c ? okText(c) : ''}   train mean ${fmt.score(c?.trainMean)}`);
    lines.push(`  held-out ${stats(r.heldOut, fmt)}`);
    const failed = [c && failures(c) > 0 ? `${failures(c)}/${c.validationCount} in validation` : '', r.heldOut && r.heldOut.okCount < r.heldOut.count ? `${r.heldOut.count - r.heldOut.okCount}/${r.heldOut.count} held-out` : ''].filter(Boolean);
    if (failed.length && r.failureReturn !== undefined) lines.push(`  failed episodes (${failed.join(', ')}) scored at the failure return ${fmt.score(r.failureReturn)} in these means`);
  }
  if (r.starterHeldOut) {
    lines.push(`  starter policy held-out ${stats(r.starterHeldOut, fmt)}`);
    if (r.heldOut) lines.push(`  improvement over starter: ${fmt.delta(r.heldOut.mean - r.starterHeldOut.mean)}`);
  }
  // The other baselines on the same held-out cases: the uniform random policy, and on request autotune with the run's budget.
  for (const [name, b] of Object.entries(r.baselines ?? {})) {
    const spent = b.budget ? `, ${b.budget.used}/${b.budget.total} episodes` : '';
    const vs = r.heldOut && b.heldOut ? `   selected policy ${fmt.delta(r.heldOut.mean - b.heldOut.mean)} against it` : '';
    lines.push(`  ${name} held-out ${b.heldOut ? stats(b.heldOut, fmt) : `none (${b.error ?? 'not assessed'})`}${spent}${vs}`);
  }
  lines.push(`candidates validated: ${r.candidates.length}`);
  // Highest validation mean first; on a tie the later submission, which the selection rule prefers.
  const top = [...r.candidates].sort((a, b) => (Number.isNaN(b.validationMean) ? -1 : Number.isNaN(a.validationMean) ? 1 : b.validationMean - a.validationMean) || b.submission - a.submission).slice(0, 5);
  for (const c of top) lines.push(`  #${c.submission}  validation ${fmt.score(c.validationMean)}${okText(c)}  train ${fmt.score(c.trainMean)}${c.submission === r.selected ? '  selected' : ''}`);
  return `${lines.join('\n')}\n`;
}

type Validated = RunReport['candidates'][number];
const failures = (c: Validated): number => (c.validationCount ?? 0) - (c.validationOkCount ?? c.validationCount ?? 0);
/** A candidate's failed validation episodes, the selection's second key; nothing when none failed. */
const okText = (c: Validated): string => (failures(c) > 0 ? ` (ok ${c.validationOkCount}/${c.validationCount})` : '');

/** What the submit that spent the last of the budget adds under its feedback: the run has ended, and its report. */
export function lastBudgetText(report: RunReport, history: History): string {
  return `That submit spent the last of the budget, so the run has ended: the runner validated the candidates and assessed the selected one on hidden cases.\n${formatReport(report, history)}`;
}

/** Episodes a submit request would charge: a count, or its case list with repeats (null when the list does not parse, which the runner refuses). */
export function requestedEpisodes(request: { episodes?: number; cases?: string | readonly number[] }): number | null {
  if (request.episodes !== undefined) return request.episodes;
  if (request.cases === undefined) return null;
  if (typeof request.cases !== 'string') return request.cases.length;
  const parsed = parseCaseRanges(request.cases);
  return parsed.ok ? parsed.cases.length : null;
}

/** How each surface names `finish` with chosen candidates. */
export type FinishHint = 'cli' | 'mcp' | 'lm';
const FINISH_WITH_CANDIDATES: Record<FinishHint, (list: readonly number[]) => string> = {
  cli: (list) => `run \`policyforge finish --candidates ${list.join(',')}\``,
  mcp: (list) => `call the \`finish\` tool with \`candidates: [${list.join(', ')}]\``,
  lm: (list) => `call the policyforge_finish tool with \`candidates: [${list.join(', ')}]\``,
};

/** What the warning needs of `run.status`: the budget, and the run's submissions so far (practice is not in `history`). */
export interface RunSoFar {
  budget: { used: number; total: number; remaining: number };
  history: readonly { submission: number; mean: number; count: number; okCount: number }[];
}

/** How many submissions the example names: enough to show a choice, few enough to validate quickly. */
const EXAMPLE_CANDIDATES = 3;

/**
 * The run's own submissions for the example: the best few by train mean under the protocol's
 * ranking (bestSubmission.ts), in submission order, among those `finish` accepts (run submissions
 * that ran episodes); `among` is every number that could be named. Empty before any submission.
 */
export function finishCandidatesExample(history: RunSoFar['history']): { example: number[]; among: number[] } {
  const eligible = history.filter((h) => h.count > 0 && Number.isFinite(h.mean));
  const rank = (h: (typeof eligible)[number]) => ({ mean: h.mean, failures: failuresOf(h), submission: h.submission });
  const best = [...eligible].sort((a, b) => (outranks(rank(a), rank(b)) ? -1 : 1)).slice(0, EXAMPLE_CANDIDATES);
  return { example: best.map((h) => h.submission).sort((a, b) => a - b), among: eligible.map((h) => h.submission) };
}

/** Why the example names the submissions it does: the only one, every one, or the best few among them. */
function exampleWhy(example: readonly number[], among: readonly number[]): string {
  if (among.length === 1) return `submission ${among[0]}, the only one so far`;
  if (example.length === among.length) return `submissions ${formatCaseSet(among)}, every one so far`;
  return `the ${example.length} best train means among submissions ${formatCaseSet(among)}`;
}

/** How to end the run with chosen candidates instead, naming submissions that exist; null before any. */
function chooseInstead(history: RunSoFar['history'], hint: FinishHint): { action: string; why: string } | null {
  const { example, among } = finishCandidatesExample(history);
  if (example.length === 0) return null;
  return { action: FINISH_WITH_CANDIDATES[hint](example), why: exampleWhy(example, among) };
}

/**
 * The runner's refusal of a finish that names no candidates in a run that selects among named
 * ones: the run's own submissions to name (as the last-submit warning picks them), or that none
 * has run episodes yet. The runner does not know which surface asked, so it gives the CLI's and
 * the tools' form.
 */
export function candidatesRequired(history: RunSoFar['history']): string {
  const { example, among } = finishCandidatesExample(history);
  const head = 'this run selects among named candidates: give the submissions to validate';
  if (example.length === 0) return `${head}, but no submission has run episodes yet: submit first, then name the ones to validate`;
  return `${head}, for example ${exampleWhy(example, among)}: ${FINISH_WITH_CANDIDATES.cli(example)}, or ${FINISH_WITH_CANDIDATES.mcp(example)}`;
}

/**
 * The warning before a submit that would spend exactly the last episodes of the budget (a larger
 * one is refused by the runner, a smaller one leaves budget): the run ends with it and the
 * runner picks the candidates itself. Null when the submit is not the last.
 */
export function lastBudgetWarning(requested: number | null, run: RunSoFar, hint: FinishHint): string | null {
  const { budget } = run;
  if (requested === null || budget.remaining <= 0 || requested !== budget.remaining) return null;
  const episodes = `${requested} episode${requested === 1 ? '' : 's'}`;
  const instead = chooseInstead(run.history, hint);
  return (
    `warning: this submit spends the last ${episodes} of the budget (${budget.used}/${budget.total} used so far), so the run ends with it: ` +
    `the runner then picks the candidates to validate by the protocol's rule and assesses the selected one on held-out cases. ` +
    (instead
      ? `To choose the candidates yourself, ${instead.action} instead of this submit (${instead.why}; the ${episodes} left stay unused).`
      : `No submission exists yet, so this one will be the run's only candidate: to keep a choice between policies, submit fewer episodes first.`)
  );
}

/** What a declined last submit says (the CLI's question, VS Code's): nothing was charged, and how to end the run instead. */
export function lastBudgetDeclined(history: RunSoFar['history'], hint: FinishHint): string {
  const instead = chooseInstead(history, hint);
  return instead
    ? `not submitted, nothing was charged: to end the run with the candidates you choose, ${instead.action} (${instead.why})`
    : 'not submitted, nothing was charged: no submission exists yet to name as a candidate, so submit fewer episodes first to keep a choice between policies';
}
