/**
 * Human-readable renderings of summaries, status and reports for the terminal and the MCP tools.
 * Returns print in the run's format (src/stats/scoreFormat.ts), so the terminal shows the numbers
 * the editor shows; `history` is `run.status` history, whose train means set that format.
 */
import { formatCaseRanges } from '../../protocol/caseRanges';
import type { RunReport } from '../../protocol/feedback';
import type { RunStatus, SubmissionBrief } from '../../protocol/run';
import { bestTrainLabel, statusBest } from '../../stats/bestTrain';
import { statsText as stats } from '../../stats/feedbackText';
import { historyScoreFormat } from '../../stats/scoreFormat';

type History = readonly Pick<SubmissionBrief, 'mean'>[];

// The feedback text is shared with the extension's LM tools, so it lives with the other view rules.
export { errorLines, formatSummary, statsText as stats } from '../../stats/feedbackText';

export function formatStatus(st: RunStatus): string {
  const fmt = historyScoreFormat(st.history);
  const lines = [
    `phase ${st.phase}   budget ${st.budget.used}/${st.budget.total} used, ${st.budget.remaining} remaining   submissions ${st.submissions}/${st.maxSubmissions}`,
  ];
  if (st.nextUnusedCase !== null) lines.push(`next unused case ${st.nextUnusedCase}`);
  if (st.running) lines.push(`running submission ${st.running.submission}: ${st.running.done}/${st.running.total} episodes`);
  const best = statusBest(st);
  if (best) lines.push(`${bestTrainLabel(st)}: submission ${best.submission} (${fmt.score(best.mean)})`);
  else if (st.history.length > 0) lines.push(`${bestTrainLabel(st)}: none yet`);
  if (st.restoredFrom !== null) lines.push(`policy/ was restored from submission ${st.restoredFrom} (the next submission's parent)`);
  for (const h of st.history.slice(-10)) lines.push(`  #${h.submission}  mean ${fmt.score(h.mean).padStart(9)}  ok ${h.okCount}/${h.count}  cases ${formatCaseRanges(h.cases)}${h.editClass ? `  ${h.editClass}` : ''}`);
  if (st.history.length > 10) lines.splice(lines.length - 10, 0, `  … ${st.history.length - 10} earlier submissions`);
  for (const r of st.recovery) lines.push(`note: ${r}`);
  if (st.phase === 'complete') lines.push('the run is complete: `policyforge report` shows the result');
  else if (st.phase !== 'agent') lines.push(`the run is ${st.phase} on hidden cases; \`policyforge finish\` waits for the report`);
  return `${lines.join('\n')}\n`;
}

export function formatReport(r: RunReport, history: History): string {
  const fmt = historyScoreFormat(history.length ? history : r.candidates.map((c) => ({ mean: c.trainMean })));
  const lines = [`run complete: ${r.envId}   budget ${r.budget.used}/${r.budget.total} used   selection ${r.selectionMode}`];
  if (r.selected === null) lines.push(`no submission selected: ${r.reason ?? 'no candidate qualified'}`);
  else {
    const c = r.candidates.find((x) => x.submission === r.selected);
    lines.push(`selected submission ${r.selected}${r.selectedCheckpoint ? ` (checkpoint ${r.selectedCheckpoint.slice(0, 12)})` : ''}`);
    lines.push(`  validation mean ${c ? fmt.meanStderr(c.validationMean, c.validationStderr) : '—'}   train mean ${fmt.score(c?.trainMean)}`);
    lines.push(`  held-out ${stats(r.heldOut, fmt)}`);
  }
  if (r.starterHeldOut) {
    lines.push(`  starter policy held-out ${stats(r.starterHeldOut, fmt)}`);
    if (r.heldOut) lines.push(`  improvement over starter: ${fmt.delta(r.heldOut.mean - r.starterHeldOut.mean)}`);
  }
  lines.push(`candidates validated: ${r.candidates.length}`);
  // Highest validation mean first; on a tie the later submission, which the selection rule prefers.
  const top = [...r.candidates].sort((a, b) => (Number.isNaN(b.validationMean) ? -1 : Number.isNaN(a.validationMean) ? 1 : b.validationMean - a.validationMean) || b.submission - a.submission).slice(0, 5);
  for (const c of top) lines.push(`  #${c.submission}  validation ${fmt.score(c.validationMean)}  train ${fmt.score(c.trainMean)}${c.submission === r.selected ? '  selected' : ''}`);
  return `${lines.join('\n')}\n`;
}
