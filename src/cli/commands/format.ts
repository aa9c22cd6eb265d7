/** Human-readable renderings of summaries, status and reports for the terminal. */
import type { ReturnStats, RunReport, SubmissionSummary } from '../../protocol/feedback';
import type { RunStatus } from '../../protocol/run';
import { formatCaseRanges } from '../../runner/cases';

export function num(v: number | undefined | null, digits = 2): string {
  if (v === undefined || v === null || Number.isNaN(v)) return '—';
  return Number.isInteger(v) ? String(v) : v.toFixed(digits);
}

export function stats(s: ReturnStats | null | undefined): string {
  if (!s) return '—';
  return `mean ${num(s.mean)} ± ${num(s.stderr)} (std ${num(s.std)}, min ${num(s.min)}, max ${num(s.max)}, ok ${s.okCount}/${s.count})`;
}

export function formatSummary(s: SubmissionSummary): string {
  const lines = [
    `submission ${s.submission}  checkpoint ${s.checkpoint.slice(0, 12)}  cases ${formatCaseRanges(s.cases)}${s.parent ? `  parent ${s.parent}` : ''}`,
    `  return ${stats(s.stats)}`,
    `  status ${Object.entries(s.statusCounts).map(([k, v]) => `${k} ${v}`).join(', ')}   wall ${(s.wallMs / 1000).toFixed(2)} s`,
    `  budget ${s.budget.used}/${s.budget.total} used, ${s.budget.remaining} remaining`,
  ];
  if (s.edit) lines.push(`  edit ${s.edit.class}${s.edit.details.length ? `: ${s.edit.details.slice(0, 5).join('; ')}` : ''}`);
  if (s.note) lines.push(`  note ${s.note}`);
  const failures = s.episodes.filter((e) => e.status !== 'ok');
  for (const f of failures.slice(0, 5)) {
    const where = f.error?.location ? ` at ${f.error.location.file}:${f.error.location.line}` : '';
    lines.push(`  case ${f.caseIndex}: ${f.status}${where}${f.error ? `: ${f.error.message}` : ''}`);
  }
  if (failures.length > 5) lines.push(`  … ${failures.length - 5} more failures (see feedback/submit-${String(s.submission).padStart(4, '0')}/summary.json)`);
  lines.push(`  files feedback/submit-${String(s.submission).padStart(4, '0')}/ (summary.json, episodes/, logs/)${s.files.evicted ? ' — trajectories evicted by the byte cap' : ''}`);
  return `${lines.join('\n')}\n`;
}

export function formatStatus(st: RunStatus): string {
  const lines = [
    `phase ${st.phase}   budget ${st.budget.used}/${st.budget.total} used, ${st.budget.remaining} remaining   submissions ${st.submissions}/${st.maxSubmissions}`,
  ];
  if (st.nextUnusedCase !== null) lines.push(`next unused case ${st.nextUnusedCase}`);
  if (st.running) lines.push(`running submission ${st.running.submission}: ${st.running.done}/${st.running.total} episodes`);
  if (st.best) lines.push(`best train mean: submission ${st.best.submission} (${num(st.best.mean)})`);
  if (st.restoredFrom !== null) lines.push(`policy/ was restored from submission ${st.restoredFrom} (the next submission's parent)`);
  for (const h of st.history.slice(-10)) lines.push(`  #${h.submission}  mean ${num(h.mean).padStart(9)}  ok ${h.okCount}/${h.count}  cases ${formatCaseRanges(h.cases)}${h.editClass ? `  ${h.editClass}` : ''}`);
  if (st.history.length > 10) lines.splice(lines.length - 10, 0, `  … ${st.history.length - 10} earlier submissions`);
  for (const r of st.recovery) lines.push(`note: ${r}`);
  if (st.phase === 'complete') lines.push('the run is complete: `policyforge report` shows the result');
  else if (st.phase !== 'agent') lines.push(`the run is ${st.phase} on hidden cases; \`policyforge finish\` waits for the report`);
  return `${lines.join('\n')}\n`;
}

export function formatReport(r: RunReport): string {
  const lines = [`run complete: ${r.envId}   budget ${r.budget.used}/${r.budget.total} used   selection ${r.selectionMode}`];
  if (r.selected === null) lines.push(`no submission selected: ${r.reason ?? 'no candidate qualified'}`);
  else {
    const c = r.candidates.find((x) => x.submission === r.selected);
    lines.push(`selected submission ${r.selected}${r.selectedCheckpoint ? ` (checkpoint ${r.selectedCheckpoint.slice(0, 12)})` : ''}`);
    lines.push(`  validation mean ${num(c?.validationMean)} ± ${num(c?.validationStderr)}   train mean ${num(c?.trainMean)}`);
    lines.push(`  held-out ${stats(r.heldOut)}`);
  }
  if (r.starterHeldOut) {
    lines.push(`  starter policy held-out ${stats(r.starterHeldOut)}`);
    if (r.heldOut) lines.push(`  improvement over starter: ${num(r.heldOut.mean - r.starterHeldOut.mean)}`);
  }
  lines.push(`candidates validated: ${r.candidates.length}`);
  const top = [...r.candidates].sort((a, b) => b.validationMean - a.validationMean).slice(0, 5);
  for (const c of top) lines.push(`  #${c.submission}  validation ${num(c.validationMean)}  train ${num(c.trainMean)}`);
  return `${lines.join('\n')}\n`;
}
