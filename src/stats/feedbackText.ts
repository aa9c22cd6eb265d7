/**
 * A submission's feedback as plain text: what `policyforge submit`/`feedback`, the MCP tools and
 * the chat agent's LM tools print, so a person or an agent reads the same summary everywhere.
 * Returns print in the run's format (scoreFormat.ts); `history` is `run.status` history, whose
 * train means set it.
 */
import { attributionLines } from './attributionText';
import { formatCaseRanges, formatCaseSet } from '../protocol/caseRanges';
import { practiceLines } from './practiceText';
import { typeErrorLines, type CheckResult } from '../protocol/run';
import type { EpisodeSummary, ReturnStats, SubmissionSummary } from '../protocol/feedback';
import { groupErrors } from './errorGroups';
import { historyScoreFormat, type ScoreFormat } from './scoreFormat';
import { pairedLines } from './pairedEvidence';
import { skillLines } from './skillText';

type History = readonly { mean: number }[];

/** Rows of the per-case table before it is cut short; the rest stay in summary.json. */
export const CASE_TABLE_ROWS = 20;

export function statsText(s: ReturnStats | null | undefined, fmt: ScoreFormat): string {
  if (!s) return '—';
  return `mean ${fmt.meanStderr(s.mean, s.stderr)} (std ${fmt.score(s.std)}, min ${fmt.score(s.min)}, max ${fmt.score(s.max)}, ok ${s.okCount}/${s.count})`;
}

/** One line per distinct error (step numbers aside), at most `limit`. */
export function errorLines(submissions: readonly { submission: number; episodes: readonly EpisodeSummary[] }[], limit = 5): string[] {
  const groups = groupErrors(submissions);
  const lines = groups.slice(0, limit).map((g) => {
    const where = g.location ? ` at ${g.location.file}:${g.location.line}` : '';
    const who = g.source === 'runner' ? 'runner fault (not charged)' : g.status;
    return `  ${who} ×${g.count} (cases ${formatCaseSet(g.cases)})${where}: ${g.message}`;
  });
  if (groups.length > limit) lines.push(`  … ${groups.length - limit} more distinct errors`);
  return lines;
}

/**
 * The warning every submit path shows before a policy with type errors runs and is charged
 * (`run.check` says so); empty when it has none. `refuse` says how that path refuses instead.
 */
export function typeErrorWarning(check: Pick<CheckResult, 'typeErrors' | 'diagnostics'>, refuse: string): string[] {
  if (check.typeErrors === 0) return [];
  return [`warning: policy/ has ${check.typeErrors} type error(s); it runs anyway and is charged (${refuse} refuses instead):`, ...typeErrorLines(check).map((l) => `  ${l}`)];
}

/** The first line of an episode's error, with its policy source line when known. */
function firstError(e: EpisodeSummary): string {
  if (!e.error) return '';
  const where = e.error.location ? `${e.error.location.file}:${e.error.location.line} ` : '';
  const message = e.error.message.split('\n')[0] ?? '';
  return `${where}${message.length > 100 ? `${message.slice(0, 99)}…` : message}`;
}

/** The per-case table: case, return (a failure's score), length, status, then a failure's partial return and first error; cut at `maxRows`. */
export function caseTable(s: SubmissionSummary, fmt: ScoreFormat, maxRows = CASE_TABLE_ROWS): string[] {
  const shown = s.episodes.slice(0, maxRows);
  const detail = (e: EpisodeSummary): string => [e.partialReturn !== undefined ? `(partial ${fmt.score(e.partialReturn)})` : '', firstError(e)].filter(Boolean).join(' ');
  const rows = shown.map((e) => [String(e.caseIndex), fmt.score(e.return), String(e.length), e.status, detail(e)]);
  const head = ['case', 'return', 'length', 'status', 'first error'];
  const width = head.slice(0, 4).map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  // Numbers right-aligned, the status left-aligned, the error free-running.
  const line = (r: readonly string[]): string => `    ${r[0]!.padStart(width[0]!)}  ${r[1]!.padStart(width[1]!)}  ${r[2]!.padStart(width[2]!)}  ${r[3]!.padEnd(width[3]!)}  ${r[4]!}`.trimEnd();
  const out = [line(head), ...rows.map(line)];
  if (s.episodes.length > shown.length) out.push(`    … ${s.episodes.length - shown.length} more episodes in summary.json`);
  return out;
}

export interface EpisodeToOpen {
  why: 'worst' | 'best' | 'failed';
  episode: EpisodeSummary;
  /** The trajectory file relative to the workspace, or undefined when the byte cap evicted it. */
  trajectory: string | undefined;
  log: string | undefined;
}

/**
 * The episodes worth opening first: the lowest and the highest return among the episodes that
 * ran to the end, and the first episode of each failure status (up to three). Lowest case wins a
 * tie, so the same submission always points to the same files.
 */
export function episodesWorthOpening(s: SubmissionSummary): EpisodeToOpen[] {
  const at = (i: number, why: EpisodeToOpen['why']): EpisodeToOpen => ({ why, episode: s.episodes[i]!, trajectory: s.files.trajectories[i], log: s.files.logs[i] });
  const out: EpisodeToOpen[] = [];
  const ok = s.episodes.map((e, i) => ({ e, i })).filter(({ e }) => e.status === 'ok' && Number.isFinite(e.return));
  if (ok.length > 0) {
    const worst = ok.reduce((a, b) => (b.e.return < a.e.return ? b : a));
    const best = ok.reduce((a, b) => (b.e.return > a.e.return ? b : a));
    out.push(at(worst.i, 'worst'));
    if (best.e.return !== worst.e.return) out.push(at(best.i, 'best'));
  }
  const statuses = new Set<string>();
  s.episodes.forEach((e, i) => {
    if (e.status === 'ok' || statuses.has(e.status) || statuses.size >= 3) return;
    statuses.add(e.status);
    out.push(at(i, 'failed'));
  });
  return out;
}

/** How failed episodes count, when there are any: at the failure return, their partial returns in the table. */
function failureLine(s: SubmissionSummary, fmt: ScoreFormat): string[] {
  if (s.failureReturn === undefined || s.stats.okCount === s.stats.count) return [];
  const failed = s.stats.count - s.stats.okCount;
  return [`  ${failed} failed episode(s) scored at the failure return ${fmt.score(s.failureReturn)} in the mean (partial returns in the table)`];
}

export function formatSummary(s: SubmissionSummary, history: History): string {
  const fmt = historyScoreFormat(history.length ? history : [s.stats]);
  const folder = `feedback/submit-${String(s.submission).padStart(4, '0')}`;
  const lines = [
    `${s.practice ? 'practice ' : ''}submission ${s.submission}  checkpoint ${s.checkpoint.slice(0, 12)}  cases ${formatCaseRanges(s.cases)}${s.parent ? `  parent ${s.parent}` : ''}`,
    ...practiceLines(s),
    `  return ${statsText(s.stats, fmt)}`,
    ...failureLine(s, fmt),
    `  status ${Object.entries(s.statusCounts).map(([k, v]) => `${k} ${v}`).join(', ')}   wall ${(s.wallMs / 1000).toFixed(2)} s`,
    `  budget ${s.budget.used}/${s.budget.total} used, ${s.budget.remaining} remaining`,
  ];
  if (s.edit) lines.push(`  edit ${s.edit.class}${s.edit.details.length ? `: ${s.edit.details.slice(0, 5).join('; ')}` : ''}`);
  if (s.note) lines.push(`  note ${s.note}`);
  const skills = skillLines(s.skills);
  if (skills.length) lines.push('  skills (weakest first; mean ± stderr over episodes):', ...skills.map((l) => `    ${l}`));
  const [attributionHeader, ...places] = attributionLines(s.attribution, fmt);
  if (attributionHeader) lines.push(`  ${attributionHeader}`, ...places.map((l) => `    ${l}`));
  const paired = pairedLines(s, fmt.delta);
  if (paired.length) lines.push('  paired (mean difference, bootstrap 95% interval):', ...paired.map((l) => `    ${l}`));
  const errors = errorLines([s]);
  if (errors.length) lines.push(`  errors (every episode in ${folder}/summary.json):`, ...errors.map((l) => `  ${l}`));
  if (s.episodes.length) lines.push('  per case:', ...caseTable(s, fmt));
  const open = episodesWorthOpening(s);
  if (open.length) {
    lines.push('  worth opening:');
    for (const o of open) {
      const what = o.why === 'failed' ? o.episode.status : `return ${fmt.score(o.episode.return)}`;
      const file = o.trajectory ?? (o.log ? `${o.log} (trajectory evicted)` : '(files evicted)');
      lines.push(`    ${o.why.padEnd(6)}  case ${o.episode.caseIndex}  ${what}  ${file}`);
    }
  }
  lines.push(`  files ${folder}/ (summary.json, episodes/, logs/)${s.files.evicted ? ' — trajectories evicted by the byte cap' : ''}`);
  return `${lines.join('\n')}\n`;
}
