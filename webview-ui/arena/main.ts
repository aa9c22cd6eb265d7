/**
 * Arena panel: for an arena run, the win-rate matrix of submissions × opponents (coloured on a
 * diverging scale, sortable by any column, a cell opens that match's replay), the ratings over
 * time, and the opponent pool with weights, pins, drops and promotions. Renders from
 * `arena.snapshot`; the host sends a new one whenever the run's files change.
 */
import 'uplot/dist/uPlot.min.css';
import '../shared/base.css';
import './arena.css';
import '../shared/elements';
import type { ArenaState, ArenaSnapshot, HostToWebview } from '../../src/protocol/webview';
import { ChartCard } from '../shared/chartCard';
import { actionButton } from '../shared/controls';
import { DataTable, type Column } from '../shared/dataTable';
import { h, hx } from '../shared/dom';
import { fmtPercent } from '../shared/format';
import { connectHost } from '../shared/hostBridge';
import { onThemeChange, readTheme } from '../shared/theme';
import { buildMatrix, poolEventText, poolRows, ratingIdOf, winRateColors, type Matrix, type MatrixRow, type PoolRow } from './model';
import { ratingsChart } from './ratingsChart';

const bridge = connectHost('arena', onMessage);
let state: ArenaState = bridge.restored ?? { panel: 'arena', sortKey: 'winRate', sortDir: 'desc', ratingView: 'ordinal' };
let snap: ArenaSnapshot | null = null;
let matrix: Matrix = { opponents: [], rows: [] };

const subtitle = h('span', { class: 'subtitle' }, 'Waiting for the arena run…');
const hostError = h('div', { class: 'banner error', role: 'alert', hidden: true });
const problems = h('div', { class: 'banner', role: 'status', hidden: true });
const stats = h('div', { class: 'stats', role: 'group', 'aria-label': 'Arena summary' });
const matrixSlot = h('div', { class: 'matrix-slot' });
const legend = h('div', { class: 'legend scale-legend', 'aria-hidden': 'true' });
const ratingCard = new ChartCard(bridge, 'Ratings over time', 260, 'No charged games yet.');
const viewSelect = hx('vscode-single-select', { 'aria-label': 'Rating shown', 'data-role': 'rating-view' },
  hx('vscode-option', { value: 'ordinal', selected: state.ratingView === 'ordinal' }, 'Conservative (μ − 3σ)'),
  hx('vscode-option', { value: 'mu', selected: state.ratingView === 'mu' }, 'μ ± σ band'));
viewSelect.addEventListener('change', () => {
  const v = (viewSelect as HTMLElement & { value: string }).value;
  if (v !== 'ordinal' && v !== 'mu') return;
  state = { ...state, ratingView: v };
  bridge.saveState(state);
  drawRatings();
});
ratingCard.element.querySelector('.card-actions')?.prepend(viewSelect);
const events = h('ol', { class: 'pool-events', 'aria-label': 'Pool changes, newest first' });

const poolTable = new DataTable<PoolRow>(bridge, {
  caption: 'Opponent pool',
  rowKey: (r) => r.id,
  rowClass: (r) => (r.entry === null ? 'left-pool' : r.hardest ? 'hardest' : undefined),
  toJson: (rows) => rows.map((r) => ({ id: r.id, kind: r.kind, state: r.state, weight: r.entry?.weight ?? null, winRate: r.entry?.winRate ?? null, games: r.entry?.games ?? null, promotion: r.promotion, left: r.left })),
  emptyText: 'No pool file yet: the runner writes feedback/arena/pool.json with the first submission.',
  columns: [
    { key: 'id', label: 'Opponent', value: (r) => r.id, render: (r) => opponentLabel(r) },
    { key: 'kind', label: 'Kind', value: (r) => r.kind },
    { key: 'state', label: 'State', value: (r) => r.state, render: (r) => h('span', { class: `pool-state state-${r.state.replace(' ', '-')}`, 'data-state': r.state }, r.state) },
    { key: 'weight', label: 'Weight', numeric: true, value: (r) => r.entry?.weight ?? null, hint: 'Sampling weight of the deep evaluation: the opponent submissions do worst against weighs double', render: (r) => (r.entry ? h('span', { title: r.hardest ? 'Weakness pressure: the hardest opponent weighs double' : '' }, `${r.entry.weight}${r.hardest ? ' (hardest)' : ''}`) : '—') },
    { key: 'winRate', label: 'Submissions’ points rate', numeric: true, value: (r) => r.entry?.winRate ?? null, render: (r) => fmtPercent(r.entry?.winRate ?? null), hint: 'Win 1, draw ½, over charged games against this opponent' },
    { key: 'games', label: 'Games', numeric: true, value: (r) => r.entry?.games ?? null },
    { key: 'joined', label: 'Joined at game', numeric: true, value: (r) => r.entry?.joinedAtGame ?? r.promotion?.atGame ?? null },
    { key: 'actions', label: 'Pool', sortable: false, value: () => null, render: (r) => poolActions(r) },
  ],
});
poolTable.setSort('state', 'asc');

document.body.appendChild(h('main', { id: 'arena' },
  h('header', { class: 'page-header' }, h('h1', {}, 'Arena'), subtitle),
  hostError,
  problems,
  stats,
  h('section', { class: 'card matrix-card', 'aria-label': 'Win rate matrix' },
    h('header', { class: 'card-header' }, h('h2', {}, 'Win rate: submissions × opponents'), legend),
    h('p', { class: 'muted note' }, 'Wins over games played, screen and deep evaluation together. Click a cell to replay its first game; click a header to sort.'),
    matrixSlot),
  h('div', { class: 'grid' }, ratingCard.element, h('section', { class: 'card', 'aria-label': 'Pool changes' }, h('header', { class: 'card-header' }, h('h2', {}, 'Promotions and pool changes')), events)),
  poolTable.element,
));
buildLegend();

onThemeChange(() => {
  ratingCard.rebuild();
  buildLegend();
  render();
});

function onMessage(m: HostToWebview): void {
  if (m.type === 'host.error') {
    hostError.textContent = m.message;
    hostError.hidden = false;
    return;
  }
  if (m.type !== 'arena.snapshot') {
    bridge.log('warn', `arena panel ignores "${m.type}" messages`);
    return;
  }
  hostError.hidden = true;
  snap = m;
  render();
  document.body.dataset['rendered'] = String(Number(document.body.dataset['rendered'] ?? '0') + 1);
}

function render(): void {
  if (snap === null) return;
  const s = snap;
  matrix = buildMatrix(s.submissions, s.pool, s.ratings);
  const latest = s.submissions.at(-1);
  subtitle.textContent = `${s.envId ?? 'no environment yet'} · ${s.submissions.length} submission${s.submissions.length === 1 ? '' : 's'}${latest ? ` · ${latest.budget.used} of ${latest.budget.total} games used` : ''}`;
  problems.hidden = s.problems.length === 0;
  problems.textContent = s.problems.length ? `Some files could not be read: ${s.problems.join('; ')}` : '';
  renderStats(s);
  renderMatrix();
  drawRatings();
  poolTable.setRows(poolRows(s.pool));
  events.replaceChildren(...[...(s.pool?.events ?? [])].reverse().map((e) => h('li', { 'data-kind': e.kind }, poolEventText(e))));
  if (events.childElementCount === 0) events.appendChild(h('li', { class: 'muted' }, 'No promotions or pool changes yet.'));
}

function stat(label: string, value: string, detail?: string): HTMLElement {
  return h('div', { class: 'stat' }, h('div', { class: 'label' }, label), h('div', { class: 'value' }, value), detail ? h('div', { class: 'detail' }, detail) : null);
}

function renderStats(s: ArenaSnapshot): void {
  const latest = s.submissions.at(-1);
  const best = [...matrix.rows].sort((a, b) => b.winRate - a.winRate || b.submission - a.submission)[0];
  const champions = s.pool?.entries.filter((e) => e.kind === 'champion').length ?? 0;
  const items = [
    stat('Games', latest ? `${latest.budget.used} / ${latest.budget.total}` : '—', latest ? `${latest.budget.remaining} left` : undefined),
    stat('Submissions', String(s.submissions.length), `${s.submissions.filter((x) => x.stage === 'deep').length} reached the deep evaluation`),
    stat('Pool', String(s.pool?.entries.length ?? 0), `${champions} champion${champions === 1 ? '' : 's'}`),
    stat('Best win rate', best ? fmtPercent(best.winRate) : '—', best ? `submission #${best.submission}` : undefined),
  ];
  const a = s.report?.assessment;
  if (s.report && a) {
    items.push(stat('Hidden opponents', fmtPercent(a.hidden.winRate), `selected #${s.report.selected?.submission ?? '?'}, never seen in the run`));
    items.push(stat('Final pool', fmtPercent(a.finalPool.winRate), 'win rate of the selected submission'));
  }
  stats.replaceChildren(...items);
}

// ---- the matrix --------------------------------------------------------------------------------

let matrixTable: DataTable<MatrixRow> | null = null;
let matrixKey = '';

function renderMatrix(): void {
  const key = matrix.opponents.join('\n');
  if (matrixTable === null || key !== matrixKey) {
    matrixKey = key;
    const columns: Column<MatrixRow>[] = [
      { key: 'submission', label: 'Submission', numeric: true, value: (r) => r.submission, render: (r) => h('span', {}, `#${r.submission}`, r.promoted ? h('span', { class: 'badge promoted', title: `Promoted into the pool as ${r.promoted}` }, `★ ${r.promoted}`) : null) },
      { key: 'stage', label: 'Stage', value: (r) => r.stage },
      { key: 'winRate', label: 'All', numeric: true, value: (r) => r.winRate, render: (r) => rateCell(r, null), hint: 'Wins over all games of the submission' },
      ...matrix.opponents.map((o): Column<MatrixRow> => ({ key: `vs:${o}`, label: o, numeric: true, value: (r) => r.cells[o]?.winRate ?? null, render: (r) => rateCell(r, o), hint: `Wins against ${o} over the games played` })),
      { key: 'rating', label: 'Rating', numeric: true, value: (r) => r.rating, render: (r) => (r.rating === null ? '—' : r.rating.toFixed(1)), hint: 'OpenSkill conservative rating (μ − 3σ)' },
    ];
    matrixTable = new DataTable<MatrixRow>(bridge, {
      caption: 'Win rate matrix',
      rowKey: (r) => String(r.submission),
      columns,
      toJson: (rows) => rows.map((r) => ({ submission: r.submission, stage: r.stage, promoted: r.promoted, winRate: r.winRate, rating: r.rating, perOpponent: Object.fromEntries(Object.entries(r.cells).map(([o, c]) => [o, { W: c.W, D: c.D, L: c.L, games: c.games, winRate: c.winRate }])) })),
      onSortChange: (sortKey, sortDir) => {
        state = { ...state, sortKey, sortDir };
        bridge.saveState(state);
      },
      emptyText: 'No submissions yet. Each submission plays a screen of 3 games against every pool opponent.',
    });
    matrixTable.setSort(columns.some((c) => c.key === state.sortKey) ? state.sortKey : 'winRate', state.sortDir);
    matrixSlot.replaceChildren(matrixTable.element);
  }
  matrixTable.setRows(matrix.rows);
}

function rateCell(r: MatrixRow, opponent: string | null): HTMLElement {
  const t = readTheme();
  if (opponent === null) {
    const c = winRateColors(r.winRate, t.kind);
    const el = h('span', { class: 'rate', 'data-rate': r.winRate.toFixed(4), title: `${r.games} games` }, fmtPercent(r.winRate));
    el.style.background = c.background;
    el.style.color = c.foreground;
    return el;
  }
  const cell = r.cells[opponent];
  if (!cell) return h('span', { class: 'rate none', title: `Submission #${r.submission} did not play ${opponent}` }, '—');
  const c = winRateColors(cell.winRate, t.kind);
  const label = `Submission #${r.submission} against ${opponent}: ${cell.W} won, ${cell.D} drawn, ${cell.L} lost of ${cell.games}`;
  const game = cell.replay;
  const el = game
    ? h('button', { type: 'button', class: 'rate', 'data-rate': cell.winRate.toFixed(4), 'data-opponent': opponent, 'aria-label': `${label}. Replay game ${game.game}`, title: `${cell.W}–${cell.D}–${cell.L} (W–D–L). Click: replay game ${game.game} (seed ${game.seed})` }, fmtPercent(cell.winRate))
    : h('span', { class: 'rate', 'data-rate': cell.winRate.toFixed(4), 'data-opponent': opponent, title: label }, fmtPercent(cell.winRate));
  el.style.background = c.background;
  el.style.color = c.foreground;
  if (game) el.addEventListener('click', (e) => {
    e.stopPropagation();
    bridge.post({ type: 'openReplay', submission: r.submission, caseIndex: game.game });
  });
  return el;
}

function buildLegend(): void {
  const t = readTheme();
  legend.replaceChildren(...[0, 0.25, 0.5, 0.75, 1].map((v) => {
    const sw = h('span', { class: 'swatch square' });
    const c = winRateColors(v, t.kind);
    sw.style.background = c.background;
    return h('span', {}, sw, `${Math.round(v * 100)}%`);
  }));
}

// ---- ratings and pool ---------------------------------------------------------------------------

function drawRatings(): void {
  const subs = new Set(snap?.submissions.map((s) => s.submission) ?? []);
  const isSubmission = (id: string): boolean => [...subs].some((n) => ratingIdOf(n, [id]) !== null);
  ratingCard.update(ratingsChart(snap?.ratings ?? null, state.ratingView, isSubmission));
}

function opponentLabel(r: PoolRow): HTMLElement {
  return h('span', {}, r.id,
    r.promotion ? h('span', { class: 'badge promoted', title: poolEventText(r.promotion) }, `★ promoted${r.promotion.submission !== undefined ? ` from #${r.promotion.submission}` : ''} at game ${r.promotion.atGame}`) : null,
    r.state === 'pinned' ? h('span', { class: 'badge pinned', title: 'Pinned: never retired or dropped' }, 'pinned') : null);
}

function poolActions(r: PoolRow): HTMLElement | string {
  if (r.entry === null) return h('span', { class: 'muted' }, r.left ? `left at game ${r.left.atGame}` : '');
  const pinned = r.state === 'pinned';
  const pin = actionButton(pinned ? 'Unpin' : 'Pin', `${pinned ? 'Unpin' : 'Pin'} ${r.id}`, () => bridge.post({ type: 'arena.pin', opponent: r.id, pinned: !pinned }));
  pin.dataset['action'] = pinned ? 'unpin' : 'pin';
  const drop = actionButton('Drop', pinned ? `${r.id} is pinned: unpin it before dropping it` : `Drop ${r.id} from the pool`, () => bridge.post({ type: 'arena.drop', opponent: r.id }));
  drop.dataset['action'] = 'drop';
  if (pinned) drop.setAttribute('disabled', '');
  return h('span', { class: 'actions' }, pin, drop);
}
