/**
 * The Run view on an arena run, as plain data (the provider in src/extension/views maps it like
 * the single-agent tree): the run with its phase and budget in games, then its submissions
 * newest first (the stage each reached, its points rates, a promotion) and the opponent pool
 * (kinds, weights, pins). Built from `arena.status`, so CLI, agent and VS Code submits all show.
 */
import type { ArenaStatus, PoolEntryInfo } from '../../protocol/arena';
import type { RunInfo } from '../../protocol/run';
import type { TreeNode } from '../views/runTreeModel';

const rate = (x: number | null): string => (x === null ? '–' : x.toFixed(2));

export function arenaRunNode(info: RunInfo, st: ArenaStatus): TreeNode {
  const b = st.budget;
  const f = st.finishing;
  const phase = st.running
    ? `${st.running.stage} ${st.running.done}/${st.running.total}`
    : f
      ? `${f.phase}${f.gamesTotal ? ` ${f.gamesDone}/${f.gamesTotal}` : ''}`
      : st.phase === 'agent'
        ? `${b.used}/${b.total} games`
        : st.phase;
  const champions = st.pool.filter((e) => e.kind === 'champion').length;
  return {
    key: 'run',
    kind: 'run',
    label: info.envId,
    description: phase,
    tooltip: [
      `Arena run ${info.runId} on ${info.envId}`,
      `Phase: ${st.phase}`,
      `Budget: ${b.used} games used, ${b.remaining} left of ${b.total}`,
      `${st.history.length} submission${st.history.length === 1 ? '' : 's'} · pool of ${st.pool.length}${champions ? ` (${champions} champion${champions === 1 ? '' : 's'})` : ''}`,
    ].join('\n'),
    icon: st.phase === 'complete' ? { id: 'pass-filled', color: 'testing.iconPassed' } : st.running || f ? { id: 'sync~spin' } : { id: 'beaker' },
    contextValue: `run.${st.phase}`,
    expandable: true,
  };
}

/** Submissions newest first, then the pool. */
export function arenaChildNodes(st: ArenaStatus): TreeNode[] {
  const subs = [...st.history].reverse().map((h): TreeNode => ({
    key: `s${h.submission}`,
    kind: 'submission',
    label: `#${h.submission}${h.promoted ? ` → ${h.promoted}` : ''}`,
    description: `${h.stage} · screen ${rate(h.screenPointsRate)}${h.deepPointsRate !== null ? ` · deep ${rate(h.deepPointsRate)}` : ''}`,
    tooltip: `Submission #${h.submission}, checkpoint ${h.checkpoint.slice(0, 12)}\nReached the ${h.stage} stage; points rate (win 1, draw ½): screen ${rate(h.screenPointsRate)}, deep ${rate(h.deepPointsRate)}\n${h.promoted ? `Promoted into the pool as ${h.promoted}\n` : ''}${h.gamesCharged} games charged`,
    icon: h.promoted ? { id: 'star-full', color: 'charts.yellow' } : h.stage === 'deep' ? { id: 'pass', color: 'testing.iconPassed' } : { id: 'circle-slash' },
    contextValue: 'arenaSubmission',
    expandable: false,
    submission: h.submission,
  }));
  return [...subs, ...st.pool.map(opponentNode)];
}

function opponentNode(e: PoolEntryInfo): TreeNode {
  return {
    key: `o:${e.id}`,
    kind: 'message',
    label: `vs ${e.id}`,
    description: `${e.kind} · weight ${e.weight}${e.pinned ? ' · pinned' : ''}`,
    tooltip: `${e.id} (${e.kind}) in the opponent pool${e.pinned ? ', pinned' : ''}\nSampling weight ${e.weight}\n${e.winRate === null ? 'Not played yet' : `Submissions' points rate against it: ${e.winRate.toFixed(2)} over ${e.games} games`}`,
    icon: e.pinned ? { id: 'pinned' } : e.kind === 'champion' ? { id: 'star-full', color: 'charts.yellow' } : { id: 'person' },
    contextValue: e.pinned ? 'arenaOpponent.pinned' : 'arenaOpponent',
    expandable: false,
  };
}
