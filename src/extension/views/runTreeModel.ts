/**
 * The Run tree as plain data: run → submissions → episodes. The vscode TreeDataProvider only maps
 * these nodes to TreeItems, so labels, icons and context values are unit-tested without VS Code.
 */
import type { EditClass, EpisodeSummary, SubmissionSummary } from '../../protocol/feedback';
import type { RunInfo, RunStatus, SubmissionBrief } from '../../protocol/run';
import { formatMeanStderr, formatScore, plural, submissionLabel } from '../shared/format';

/** Codicon ids (ThemeIcon) and theme colour ids, chosen so classes read at a glance. */
export interface NodeIcon {
  id: string;
  color?: string;
}

export interface TreeNode {
  key: string;
  kind: 'run' | 'submission' | 'episode' | 'message';
  label: string;
  description?: string;
  tooltip?: string;
  icon?: NodeIcon;
  /** `submission`, `submission.selected`, `episode`, `episode.failed`: drives menus' `viewItem`. */
  contextValue?: string;
  expandable: boolean;
  submission?: number;
  caseIndex?: number;
}

const EDIT_ICONS: Record<EditClass, NodeIcon> = {
  initial: { id: 'circle-large-outline' },
  identical: { id: 'circle-slash', color: 'disabledForeground' },
  parametric: { id: 'settings', color: 'charts.blue' },
  structural: { id: 'symbol-structure', color: 'charts.purple' },
};

export function editIcon(editClass: string | undefined): NodeIcon {
  return (editClass && EDIT_ICONS[editClass as EditClass]) || { id: 'circle-outline' };
}

export function runNode(info: RunInfo, status: RunStatus): TreeNode {
  const b = status.budget;
  const best = status.best ? ` · best ${submissionLabel(status.best.submission)} ${formatScore(status.best.mean)}` : '';
  const phase = status.phase === 'agent' ? (status.running ? `running ${status.running.done}/${status.running.total}` : 'agent phase') : status.phase;
  return {
    key: 'run',
    kind: 'run',
    label: info.envId,
    description: `${b.remaining}/${b.total} left${best}`,
    tooltip: `Run ${info.runId} on ${info.envId}\nPhase: ${phase}\nBudget: ${b.used} used, ${b.remaining} left of ${b.total}\nPool: ${info.poolSize} cases · ${plural(status.submissions, 'submission')}`,
    icon: status.phase === 'complete' ? { id: 'pass-filled', color: 'testing.iconPassed' } : status.running ? { id: 'sync~spin' } : { id: 'beaker' },
    contextValue: `run.${status.phase}`,
    expandable: true,
  };
}

function failures(counts: SubmissionSummary['statusCounts'] | undefined, ok: number, count: number): number {
  if (counts) return Object.entries(counts).reduce((n, [k, v]) => (k === 'ok' ? n : n + (v ?? 0)), 0);
  return count - ok;
}

/** One submission row; `summary` (from summary.json) adds stderr and failure detail when loaded. */
export function submissionNode(brief: SubmissionBrief, summary: SubmissionSummary | undefined, selected: number | null): TreeNode {
  const editClass = summary?.edit?.class ?? brief.editClass;
  const stats = summary?.stats;
  const failed = failures(summary?.statusCounts, brief.okCount, brief.count);
  const score = stats ? formatMeanStderr(stats.mean, stats.stderr) : formatScore(brief.mean);
  const parts = [score, `${brief.okCount}/${brief.count} ok`];
  if (editClass) parts.push(editClass);
  const isSelected = selected === brief.submission;
  const detail = summary?.edit?.details?.length ? `\n${summary.edit.details.join('\n')}` : '';
  return {
    key: `s${brief.submission}`,
    kind: 'submission',
    label: `${submissionLabel(brief.submission)}${isSelected ? ' ★' : ''}`,
    description: parts.join(' · '),
    tooltip: `Submission ${brief.submission} (checkpoint ${brief.checkpoint.slice(0, 12)})\nCases: ${brief.cases.length}\nMean: ${score}\nFailures: ${failed}${editClass ? `\nEdit: ${editClass}` : ''}${detail}`,
    icon: failed > 0 ? { id: 'error', color: 'testing.iconFailed' } : editIcon(editClass),
    contextValue: isSelected ? 'submission.selected' : 'submission',
    expandable: true,
    submission: brief.submission,
  };
}

export function episodeNode(submission: number, ep: EpisodeSummary): TreeNode {
  const ok = ep.status === 'ok';
  const end = ep.terminated ? 'terminated' : ep.truncated ? 'truncated' : '';
  return {
    key: `s${submission}/c${ep.caseIndex}`,
    kind: 'episode',
    label: `case ${ep.caseIndex}`,
    description: `${formatScore(ep.return)} · ${ok ? `${ep.length} steps${end ? ` · ${end}` : ''}` : ep.status}`,
    tooltip: ok ? `Return ${ep.return} in ${ep.length} steps (${ep.wallMs} ms)` : `${ep.status}: ${ep.error?.message ?? 'no message'}${ep.error?.location ? `\nat ${ep.error.location.file}:${ep.error.location.line}` : ''}`,
    icon: ok ? { id: 'pass', color: 'testing.iconPassed' } : { id: 'error', color: 'testing.iconFailed' },
    contextValue: ok ? 'episode' : 'episode.failed',
    expandable: false,
    submission,
    caseIndex: ep.caseIndex,
  };
}

/** Newest first: the submission you just made is the one you look at. */
export function submissionNodes(status: RunStatus, summaries: ReadonlyMap<number, SubmissionSummary>, selected: number | null): TreeNode[] {
  return [...status.history].sort((a, b) => b.submission - a.submission).map((b) => submissionNode(b, summaries.get(b.submission), selected));
}

export function episodeNodes(summary: SubmissionSummary): TreeNode[] {
  return summary.episodes.map((ep) => episodeNode(summary.submission, ep));
}
