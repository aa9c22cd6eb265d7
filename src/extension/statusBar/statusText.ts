/** Status bar text for the run: budget left and best train mean (no `vscode` import). */
import type { RunStatus } from '../../protocol/run';
import { bestTrainLabel, statusBest } from '../../stats/bestTrain';
import { historyScoreFormat } from '../../stats/scoreFormat';

export interface StatusBarView {
  text: string;
  tooltip: string;
}

export function statusBarView(envId: string, status: RunStatus | undefined, runner: 'starting' | 'ready' | 'restarting' | 'stopped'): StatusBarView {
  if (!status) {
    const what = runner === 'stopped' ? 'runner stopped' : runner === 'restarting' ? 'restarting runner…' : 'starting runner…';
    return { text: `$(beaker) PolicyForge: ${what}`, tooltip: `PolicyForge (${envId}): ${what}` };
  }
  const b = status.budget;
  const fmt = historyScoreFormat(status.history);
  const top = statusBest(status);
  const best = top ? `best ${fmt.score(top.mean)}` : 'no submission yet';
  const icon = status.running ? '$(sync~spin)' : status.phase === 'complete' ? '$(pass)' : '$(beaker)';
  const running = status.running ? ` · ${status.running.done}/${status.running.total}` : '';
  const phase = status.phase === 'agent' ? '' : ` · ${status.phase}`;
  return {
    text: `${icon} ${b.remaining}/${b.total} left · ${best}${running}${phase}`,
    tooltip: `PolicyForge ${envId}: ${b.used} of ${b.total} episodes used, ${b.remaining} left. ${top ? `${bestTrainLabel(status).replace(/^b/, 'B')}: ${fmt.score(top.mean)} (submission #${top.submission}).` : status.history.length ? `No ${bestTrainLabel(status)} yet.` : 'No submission yet.'} Click to open the dashboard.`,
  };
}
