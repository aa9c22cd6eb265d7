/**
 * Practice submissions in the Run tree: listed with the run's own submissions, marked practice
 * (label, icon, tooltip), with a context value of their own so run-only actions (restore,
 * resubmit) do not offer themselves. No `vscode` import, like runTreeModel.ts.
 */
import type { RunStatus } from '../../protocol/run';
import type { ScoreFormat } from '../../stats/scoreFormat';
import { practiceParamsText } from '../../stats/practiceText';
import type { TreeNode } from './runTreeModel';

const clip = (text: string, n: number): string => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

export function practiceNodes(status: RunStatus, fmt: ScoreFormat): TreeNode[] {
  const p = status.practice;
  if (!p) return [];
  return p.submissions.map((s) => ({
    key: `s${s.submission}`,
    kind: 'submission' as const,
    label: `#${s.submission} practice`,
    // The configuration is cut to fit the sidebar; the tooltip has all of it.
    description: `${fmt.score(s.mean)} · ${clip(practiceParamsText(s.params), 12)}`,
    tooltip: [
      `Practice submission #${s.submission}: never selected, not in the best train mean`,
      `Training configuration: ${practiceParamsText(s.params)}`,
      `Practice mean over ${s.count} episode(s): ${fmt.score(s.mean)}`,
      `Practice budget: ${p.budget.used}/${p.budget.total} used`,
    ].join('\n'),
    icon: { id: 'mortar-board' },
    contextValue: 'submission.practice',
    expandable: true,
    submission: s.submission,
  }));
}
