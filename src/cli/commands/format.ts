/**
 * Human-readable renderings of summaries, status and reports for the terminal and the MCP tools.
 * Returns print in the run's format (src/stats/scoreFormat.ts), so the terminal shows the numbers
 * the editor shows; `history` is `run.status` history, whose train means set that format.
 */
import { formatCaseRanges } from '../../protocol/caseRanges';
import type { RunStatus } from '../../protocol/run';
import { bestTrainLabel, statusBest } from '../../stats/bestTrain';
import { historyScoreFormat } from '../../stats/scoreFormat';
import { finishingText } from '../../stats/progressText';

// The feedback and report texts are shared with the extension's LM tools, so they live with the other view rules.
export { errorLines, formatSummary, statsText as stats } from '../../stats/feedbackText';
export { formatReport } from '../../stats/reportText';

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
  if (st.practice && (st.practice.budget.used > 0 || st.practice.submissions.length > 0)) {
    const p = st.practice;
    lines.push(`practice budget ${p.budget.used}/${p.budget.total} used, ${p.budget.remaining} remaining   practice submissions ${p.submissions.map((s) => `#${s.submission}`).join(', ') || 'none'} (never selected)`);
  }
  for (const r of st.recovery) lines.push(`note: ${r}`);
  if (st.phase === 'complete') lines.push('the run is complete: `policyforge report` shows the result');
  else if (st.phase !== 'agent') lines.push(st.finishing ? `${finishingText(st.finishing)}; \`policyforge finish\` waits for the report` : `the run is ${st.phase} on hidden cases; \`policyforge finish\` waits for the report`);
  return `${lines.join('\n')}\n`;
}
