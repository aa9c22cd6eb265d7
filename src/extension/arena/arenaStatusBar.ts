/** Status bar text for an arena run: games left, submissions and champions, the phase (no `vscode` import). */
import type { ArenaStatus } from '../../protocol/arena';
import type { StatusBarView } from '../statusBar/statusText';

export function arenaStatusBarView(envId: string, st: ArenaStatus): StatusBarView {
  const b = st.budget;
  const champions = st.pool.filter((e) => e.kind === 'champion').length;
  const busy = st.running ?? (st.finishing ? { done: st.finishing.gamesDone, total: st.finishing.gamesTotal } : null);
  const icon = busy ? '$(sync~spin)' : st.phase === 'complete' ? '$(pass)' : '$(beaker)';
  const what = st.history.length ? `${st.history.length} submission${st.history.length === 1 ? '' : 's'}${champions ? `, ${champions} champion${champions === 1 ? '' : 's'}` : ''}` : 'no submission yet';
  const progress = busy && busy.total > 0 ? ` · ${busy.done}/${busy.total}` : '';
  const phase = st.phase === 'agent' ? '' : ` · ${st.phase}`;
  return {
    text: `${icon} ${b.remaining}/${b.total} games left · ${what}${progress}${phase}`,
    tooltip: `PolicyForge ${envId} arena run: ${b.used} of ${b.total} games used, ${b.remaining} left; ${what}; a pool of ${st.pool.length}. Click to open the arena panel.`,
  };
}
