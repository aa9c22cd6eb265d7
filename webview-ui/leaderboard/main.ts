/**
 * Leaderboard: the aggregate table (the paper's rank score, family sub-scores, wins, podiums,
 * average placement) and a ranked bar chart per environment, for a suite folder, a results CSV
 * or a set of run workspaces. Every figure comes computed from the host (src/leaderboard, the
 * same code as `policyforge leaderboard`); exports are written by the host in the CLI's formats.
 */
import '../shared/base.css';
import './leaderboard.css';
import '../shared/elements';
import type { EnvironmentRanking, Leaderboard, LeaderboardEntry } from '../../src/protocol/leaderboard';
import type { HostToWebview, LeaderboardSnapshot, LeaderboardState } from '../../src/protocol/webview';
import { actionButton } from '../shared/controls';
import { clear, h } from '../shared/dom';
import { connectHost } from '../shared/hostBridge';
import { rankingChart } from './barChart';

const bridge = connectHost('leaderboard', onMessage);
let state: LeaderboardState = bridge.restored ?? { panel: 'leaderboard', sources: [] };
bridge.saveState(state);

const subtitle = h('span', { class: 'subtitle' }, 'No results loaded.');
const problems = h('div', { class: 'banner error', role: 'alert', hidden: true });
const sourcesList = h('ul', { class: 'sources', 'aria-label': 'Sources' });
const exportJson = actionButton('JSON', 'Export the leaderboard as JSON (as policyforge leaderboard --json writes it)', () => bridge.post({ type: 'leaderboard.export', format: 'json' }));
const exportCsv = actionButton('CSV', 'Export the aggregate table as CSV (as policyforge leaderboard --format csv writes it)', () => bridge.post({ type: 'leaderboard.export', format: 'csv' }));
const toolbar = h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Leaderboard sources' },
  actionButton('Suite folder…', 'Show the leaderboard of a suite folder', () => bridge.post({ type: 'leaderboard.pick', source: 'suite' })),
  actionButton('Results CSV…', 'Show the leaderboard of a CSV with environment,entry,score,kind', () => bridge.post({ type: 'leaderboard.pick', source: 'csv' })),
  actionButton('Run workspaces…', 'Show the leaderboard of finished run workspaces', () => bridge.post({ type: 'leaderboard.pick', source: 'runs' })),
  actionButton('Add…', 'Add more run workspaces to the current sources', () => bridge.post({ type: 'leaderboard.pick', source: 'runs', add: true })),
  actionButton('Reload', 'Read the sources again', () => bridge.post({ type: 'leaderboard.reload' })),
);
const aggregate = h('section', { class: 'card', 'aria-label': 'Aggregate ranking' });
const environments = h('div', { class: 'env-grid' });
const skippedNote = h('p', { class: 'muted', hidden: true });

document.body.appendChild(h('main', { id: 'leaderboard' },
  h('header', { class: 'page-header' }, h('h1', {}, 'Leaderboard'), subtitle),
  toolbar,
  problems,
  sourcesList,
  aggregate,
  skippedNote,
  environments,
));

function onMessage(m: HostToWebview): void {
  if (m.type === 'leaderboard.snapshot') render(m);
  else if (m.type === 'host.error') {
    problems.hidden = false;
    problems.textContent = m.message;
  } else bridge.log('warn', `leaderboard ignores "${m.type}" messages`);
}

const fixed = (v: number | null | undefined, digits: number): string => (v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(digits));

function render(m: LeaderboardSnapshot): void {
  state = { panel: 'leaderboard', sources: m.sources.map((s) => s.path) };
  bridge.saveState(state);
  problems.hidden = m.problems.length === 0;
  problems.textContent = m.problems.join('\n');
  clear(sourcesList);
  for (const s of m.sources) sourcesList.append(h('li', { title: s.path }, h('span', { class: 'badge' }, s.kind), ' ', h('code', {}, s.path), h('span', { class: 'muted' }, ` · ${s.rows} rows`)));
  const board = m.board;
  const envCount = board ? board.environments.length - board.skipped.length : 0;
  subtitle.textContent = board ? `${board.entries.length} entries · ${envCount} environments ranked` : 'No results loaded: pick a suite folder, a results CSV or run workspaces.';
  exportJson.toggleAttribute('disabled', !board);
  exportCsv.toggleAttribute('disabled', !board);
  renderAggregate(board);
  skippedNote.hidden = !board || board.skipped.length === 0;
  skippedNote.textContent = board && board.skipped.length ? `Left out of the aggregate (fewer than two entries, no rank to compare): ${board.skipped.join(', ')}.` : '';
  clear(environments);
  for (const env of board?.environments ?? []) environments.append(envCard(env, board!.skipped.includes(env.environment)));
  document.body.dataset['rendered'] = String(Number(document.body.dataset['rendered'] ?? '0') + 1);
}

function renderAggregate(board: Leaderboard | null): void {
  clear(aggregate);
  aggregate.append(h('header', { class: 'card-header' }, h('h2', {}, 'Aggregate ranking'), h('div', { class: 'card-actions' }, exportJson, exportCsv)));
  if (!board || board.entries.length === 0) {
    aggregate.append(h('p', { class: 'empty' }, board ? 'No environment has two entries to rank.' : 'Nothing loaded yet.'));
    return;
  }
  const families = [...new Set(board.environments.filter((e) => !board.skipped.includes(e.environment)).map((e) => e.family))].sort();
  const head = h('tr', {},
    ...['Place', 'Entry', 'Kind'].map((l) => h('th', { scope: 'col' }, l)),
    h('th', { scope: 'col', class: 'num', title: 'Mean over environments of (K − rank)/(K − 1), baselines included in K' }, 'Rank score'),
    ...families.map((f) => h('th', { scope: 'col', class: 'num', title: `Rank score within the ${f} environments` }, f)),
    h('th', { scope: 'col', class: 'num', title: 'Environments placed first among agents' }, 'Wins'),
    h('th', { scope: 'col', class: 'num', title: 'Environments placed 1–3 among agents' }, 'Podiums'),
    h('th', { scope: 'col', class: 'num', title: 'Mean placement among agents' }, 'Avg placement'),
    h('th', { scope: 'col', class: 'num' }, 'Environments'),
  );
  const row = (e: LeaderboardEntry, i: number): HTMLTableRowElement =>
    h('tr', { class: e.kind, 'data-entry': e.entry },
      h('td', { class: 'num' }, i + 1),
      h('td', {}, e.entry),
      h('td', {}, h('span', { class: `badge kind-${e.kind}` }, e.kind)),
      h('td', { class: 'num', 'data-col': 'rankScore' }, fixed(e.rankScore, 3)),
      ...families.map((f) => h('td', { class: 'num', 'data-col': `family:${f}` }, fixed(e.families[f], 3))),
      h('td', { class: 'num', 'data-col': 'wins' }, e.wins ?? '–'),
      h('td', { class: 'num', 'data-col': 'podiums' }, e.podiums ?? '–'),
      h('td', { class: 'num', 'data-col': 'averagePlacement' }, fixed(e.averagePlacement, 2)),
      h('td', { class: 'num' }, e.environments),
    );
  aggregate.append(h('div', { class: 'table-scroll' },
    h('table', { class: 'data', 'aria-label': 'Aggregate ranking' }, h('thead', {}, head), h('tbody', {}, ...board.entries.map(row)))));
}

function envCard(env: EnvironmentRanking, skipped: boolean): HTMLElement {
  const note = [env.family, env.lowerIsBetter ? 'lower is better' : '', skipped ? 'one entry: not in the aggregate' : ''].filter(Boolean).join(' · ');
  return h('section', { class: 'card env-card', 'aria-label': env.environment, 'data-environment': env.environment },
    h('header', { class: 'card-header' }, h('h2', {}, env.environment), h('span', { class: 'muted' }, note)),
    rankingChart(env),
  );
}
