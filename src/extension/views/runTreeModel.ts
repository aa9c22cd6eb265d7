/**
 * The Run tree as plain data: run → submissions → episodes. The vscode TreeDataProvider only maps
 * these nodes to TreeItems, so labels, icons and context values are unit-tested without VS Code.
 */
import { formatCaseRanges } from '../../protocol/caseRanges';
import { EDIT_CLASS_THEME_COLORS } from '../../protocol/editClassPalette';
import type { EditClass, EpisodeSummary, SubmissionSummary } from '../../protocol/feedback';
import type { RunInfo, RunStatus, SubmissionBrief } from '../../protocol/run';
import { bestTrainLabel, statusBest } from '../../stats/bestTrain';
import { failedCount } from '../../stats/returnStats';
import { historyScoreFormat, type ScoreFormat } from '../../stats/scoreFormat';
import { plural } from '../shared/plural';
import { pairedLines } from '../../stats/pairedEvidence';
import { practiceNodes } from './practiceNodes';

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

// The edit-class palette (protocol/editClassPalette.ts), so a class has one colour everywhere.
const EDIT_ICONS: Record<EditClass, NodeIcon> = {
  initial: { id: 'circle-large-outline', color: EDIT_CLASS_THEME_COLORS.initial },
  identical: { id: 'circle-slash', color: EDIT_CLASS_THEME_COLORS.identical },
  parametric: { id: 'settings', color: EDIT_CLASS_THEME_COLORS.parametric },
  structural: { id: 'symbol-structure', color: EDIT_CLASS_THEME_COLORS.structural },
};

export function editIcon(editClass: string | undefined): NodeIcon {
  return (editClass && EDIT_ICONS[editClass as EditClass]) || { id: 'circle-outline' };
}

/**
 * Labels stay short enough for the default sidebar (about 35 characters with the description);
 * everything else is in the tooltip.
 */
export function runNode(info: RunInfo, status: RunStatus): TreeNode {
  const b = status.budget;
  const fmt = historyScoreFormat(status.history);
  const best = statusBest(status);
  const phase = status.phase === 'agent' ? (status.running ? `running ${status.running.done}/${status.running.total}` : 'agent phase') : status.phase;
  const description = status.running ? `${status.running.done}/${status.running.total}` : status.phase !== 'agent' ? status.phase : best ? `best #${best.submission} · ${fmt.score(best.mean)}` : 'no submission yet';
  const bestLine = best ? `${bestTrainLabel(status).replace(/^b/, 'B')}: ${fmt.score(best.mean)} (#${best.submission})` : status.history.length ? `${bestTrainLabel(status).replace(/^b/, 'B')}: none yet` : 'No submission yet';
  return {
    key: 'run',
    kind: 'run',
    label: info.envId,
    description,
    tooltip: `Run ${info.runId} on ${info.envId}\nPhase: ${phase}\nBudget: ${b.used} used, ${b.remaining} left of ${b.total}\n${bestLine}\nPool: ${info.poolSize} cases · ${plural(status.submissions, 'submission')}`,
    icon: status.phase === 'complete' ? { id: 'pass-filled', color: 'testing.iconPassed' } : status.running ? { id: 'sync~spin' } : { id: 'beaker' },
    contextValue: `run.${status.phase}`,
    expandable: true,
  };
}

/** One submission row; `summary` (from summary.json) adds stderr and failure detail when loaded. */
export function submissionNode(brief: SubmissionBrief, summary: SubmissionSummary | undefined, selected: number | null, fmt: ScoreFormat): TreeNode {
  const editClass = summary?.edit?.class ?? brief.editClass;
  const stats = summary?.stats;
  const failed = summary ? failedCount(summary.statusCounts) : brief.count - brief.okCount;
  const score = stats ? fmt.meanStderr(stats.mean, stats.stderr) : fmt.score(brief.mean);
  const isSelected = selected === brief.submission;
  const detail = summary?.edit?.details?.length ? `\n${summary.edit.details.join('\n')}` : '';
  const lines = [
    `Submission #${brief.submission}${isSelected ? ' (selected)' : ''}, checkpoint ${brief.checkpoint.slice(0, 12)}`,
    `Train mean: ${score}`,
    `Episodes: ${brief.okCount}/${brief.count} ok${failed > 0 ? `, ${failed} failed` : ''}`,
    `Cases: ${formatCaseRanges(brief.cases)}`,
  ];
  if (editClass) lines.push(`Edit: ${editClass}${brief.parent !== null ? ` from #${brief.parent}` : ''}`);
  if (summary) lines.push(...pairedLines(summary, fmt.delta).map((l) => `Paired ${l}`));
  return {
    key: `s${brief.submission}`,
    kind: 'submission',
    label: `#${brief.submission}${isSelected ? ' ★' : ''}`,
    // The edit class shows as the icon; failures replace it, so they are counted here.
    description: `${score} · ${failed > 0 ? `${failed} failed` : `${brief.okCount}/${brief.count} ok`}`,
    tooltip: `${lines.join('\n')}${detail}`,
    icon: failed > 0 ? { id: 'error', color: 'testing.iconFailed' } : editIcon(editClass),
    contextValue: isSelected ? 'submission.selected' : 'submission',
    expandable: true,
    submission: brief.submission,
  };
}

export function episodeNode(submission: number, ep: EpisodeSummary, fmt: ScoreFormat): TreeNode {
  const ok = ep.status === 'ok';
  const end = ep.terminated ? 'terminated' : ep.truncated ? 'truncated' : 'ended';
  const where = ep.error?.location ? `\nat ${ep.error.location.file}:${ep.error.location.line}` : '';
  return {
    key: `s${submission}/c${ep.caseIndex}`,
    kind: 'episode',
    label: `case ${ep.caseIndex}`,
    description: `${fmt.score(ep.return)} · ${ok ? plural(ep.length, 'step') : ep.status}`,
    tooltip: ok
      ? `Case ${ep.caseIndex}: return ${fmt.score(ep.return)} in ${plural(ep.length, 'step')}, ${end} (${Math.round(ep.wallMs)} ms)`
      : `Case ${ep.caseIndex}: ${ep.status} after ${plural(ep.length, 'step')}, return ${fmt.score(ep.return)}\n${ep.error?.message ?? 'no message'}${where}`,
    icon: ok ? { id: 'pass', color: 'testing.iconPassed' } : { id: 'error', color: 'testing.iconFailed' },
    contextValue: ok ? 'episode' : 'episode.failed',
    expandable: false,
    submission,
    caseIndex: ep.caseIndex,
  };
}

/** Newest first: the submission you just made is the one you look at. */
export function submissionNodes(status: RunStatus, summaries: ReadonlyMap<number, SubmissionSummary>, selected: number | null): TreeNode[] {
  const fmt = historyScoreFormat(status.history);
  const run = status.history.map((b) => submissionNode(b, summaries.get(b.submission), selected, fmt));
  return [...run, ...practiceNodes(status, fmt)].sort((a, b) => (b.submission ?? 0) - (a.submission ?? 0));
}

/** `status`: the run's status, whose train means set the number format (see src/stats/scoreFormat.ts). */
export function episodeNodes(summary: SubmissionSummary, status: RunStatus | undefined): TreeNode[] {
  const fmt = historyScoreFormat(status?.history.length ? status.history : [summary.stats]);
  return summary.episodes.map((ep) => episodeNode(summary.submission, ep, fmt));
}
