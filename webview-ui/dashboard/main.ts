/**
 * Run dashboard: budget, submissions, best-so-far and return charts, grouped errors, and after
 * the run the validation/held-out results. Renders from `dashboard.snapshot` and live
 * `dashboard.submission` / `dashboard.activity` messages.
 */
import 'uplot/dist/uPlot.min.css';
import '../shared/base.css';
import '../shared/elements';
import type { SubmissionSummary, CandidateResult } from '../../src/protocol/feedback';
import type { DashboardState, HostToWebview } from '../../src/protocol/webview';
import { ChartCard } from '../shared/chartCard';
import { DataTable } from '../shared/dataTable';
import { linkButton } from '../shared/controls';
import { h, hx } from '../shared/dom';
import { editBadge, editClassOf, editSizeText } from '../shared/editClass';
import { formatCaseRanges, formatCaseSet } from '../../src/protocol/caseRanges';
import { interval95 } from '../../src/stats/returnStats';
import { fmtPercent, fmtTime, shortHash } from '../shared/format';
import { connectHost } from '../shared/hostBridge';
import { onThemeChange } from '../shared/theme';
import { bestSoFarChart, candidatesChart, returnDistributionChart, validationCurveChart } from './charts';
import { parentDifferenceChart } from './pairedChart';
import { SkillsHeatmap } from './skillsHeatmap';
import { agentSpendStat } from './agentSpend';
import { bestTrain, budgetOf, errorGroups, failedCount, fromSnapshot, scoreFormatOf, upsert, type DashboardData, type ErrorGroup } from './model';

/** The run's number format (src/stats/scoreFormat.ts), refreshed on every render. */
let fmt = scoreFormatOf([]);

let data: DashboardData | null = null;

const bridge = connectHost('dashboard', onMessage);
const state: DashboardState = bridge.restored ?? { panel: 'dashboard', sortKey: 'submission', sortDir: 'desc' };

const root = h('main', { id: 'dashboard', 'aria-busy': 'true' });
document.body.appendChild(root);

const title = h('h1', {}, 'Run dashboard');
const subtitle = h('span', { class: 'subtitle' }, 'Waiting for the run…');
const activity = h('div', { class: 'banner', role: 'status', 'aria-live': 'polite', hidden: true });
const stats = h('div', { class: 'stats', role: 'group', 'aria-label': 'Run summary' });
const hostError = h('div', { class: 'banner error', role: 'alert', hidden: true });

const bestChart = new ChartCard(bridge, 'Best-so-far train mean', 240, 'No submissions yet.');
const returnsChart = new ChartCard(bridge, 'Return distribution per submission', 240, 'No submissions yet.');
const pairedChart = new ChartCard(bridge, 'Difference from parent on shared cases', 220, 'No submission shares cases with its parent yet.');
const skillsHeatmap = new SkillsHeatmap();

const submissionsTable = new DataTable<SubmissionSummary>(bridge, {
  caption: 'Submissions',
  rowKey: (s) => String(s.submission),
  activateHint: 'Enter: open this submission’s feedback',
  onActivate: (s) => bridge.post({ type: 'openFeedback', submission: s.submission }),
  onSortChange: (sortKey, sortDir) => bridge.saveState({ ...state, sortKey, sortDir }),
  toJson: (rows) => rows,
  emptyText: 'No submissions yet. Submit a few episodes to see them here.',
  columns: [
    { key: 'submission', label: '#', numeric: true, value: (s) => s.submission },
    { key: 'time', label: 'Time', value: (s) => s.createdAt, render: (s) => h('time', { datetime: s.createdAt, title: s.createdAt }, fmtTime(s.createdAt)) },
    { key: 'cases', label: 'Cases', value: (s) => formatCaseRanges(s.cases), render: (s) => h('span', { title: `${s.cases.length} episodes: ${formatCaseRanges(s.cases)}` }, `${s.cases.length} · ${truncate(formatCaseRanges(s.cases), 18)}`) },
    { key: 'mean', label: 'Mean ± stderr', numeric: true, value: (s) => s.stats.mean, render: (s) => fmt.meanStderr(s.stats.mean, s.stats.stderr), hint: 'Mean train return over the submission’s episodes, with its standard error' },
    { key: 'ok', label: 'OK', numeric: true, value: (s) => s.statusCounts.ok ?? 0 },
    { key: 'failed', label: 'Failed', numeric: true, value: (s) => failedCount(s), render: (s) => { const n = failedCount(s); return h('span', { class: n > 0 ? 'status-failed' : 'muted' }, n); } },
    { key: 'edit', label: 'Edit', value: (s) => editClassOf(s), render: (s) => editBadge(s) },
    { key: 'size', label: 'Size', numeric: true, value: (s) => (s.edit ? s.edit.linesAdded + s.edit.linesRemoved : null), render: (s) => editSizeText(s), hint: 'Lines added and removed against the parent checkpoint' },
    { key: 'checkpoint', label: 'Checkpoint', value: (s) => s.checkpoint, render: (s) => h('code', { title: s.checkpoint }, shortHash(s.checkpoint)) },
    { key: 'actions', label: 'Open', sortable: false, value: () => null, render: (s) => rowActions(s) },
  ],
});

const errorsTable = new DataTable<ErrorGroup>(bridge, {
  caption: 'Errors by message',
  rowKey: (g) => `${g.message}@${g.location?.file ?? ''}:${g.location?.line ?? ''}`,
  emptyText: 'No failed episodes.',
  toJson: (rows) => rows,
  columns: [
    { key: 'count', label: 'Episodes', numeric: true, value: (g) => g.count },
    { key: 'message', label: 'Message', wrap: true, value: (g) => g.message, render: (g) => h('span', { class: 'mono', title: g.message }, truncate(g.message, 200)) },
    { key: 'status', label: 'Status', value: (g) => (g.source === 'runner' ? 'runner fault' : g.status) },
    { key: 'location', label: 'Source', value: (g) => (g.location ? `${g.location.file}:${g.location.line}` : null), render: (g) => sourceLink(g) },
    { key: 'submissions', label: 'Submissions', value: (g) => g.submissions.join(' '), render: (g) => truncate(g.submissions.map((n) => `#${n}`).join(', '), 40) },
    { key: 'cases', label: 'Cases', value: (g) => formatCaseSet(g.cases), render: (g) => truncate(formatCaseSet(g.cases), 30) },
    { key: 'replay', label: 'Replay', sortable: false, value: () => null, render: (g) => linkButton('Replay first', `Replay case ${g.first.caseIndex} of submission #${g.first.submission}`, () => bridge.post({ type: 'openReplay', submission: g.first.submission, caseIndex: g.first.caseIndex })) },
  ],
});
submissionsTable.setSort(state.sortKey, state.sortDir);
errorsTable.setSort('count', 'desc');

const afterRun = h('section', { class: 'after-run', 'aria-label': 'Validation and held-out assessment', hidden: true });
const afterStats = h('div', { class: 'stats' });
const candidatesTable = new DataTable<CandidateResult & { selected: boolean }>(bridge, {
  caption: 'Validation of candidates',
  rowKey: (c) => String(c.submission),
  rowClass: (c) => (c.selected ? 'selected' : undefined),
  onActivate: (c) => bridge.post({ type: 'openFeedback', submission: c.submission }),
  toJson: (rows) => rows,
  columns: [
    { key: 'submission', label: 'Submission', numeric: true, value: (c) => c.submission, render: (c) => h('span', { 'aria-label': c.selected ? `${c.submission}, selected` : String(c.submission) }, `#${c.submission}`) },
    { key: 'validation', label: 'Validation mean ± stderr', numeric: true, value: (c) => c.validationMean, render: (c) => fmt.meanStderr(c.validationMean, c.validationStderr) },
    { key: 'train', label: 'Train mean', numeric: true, value: (c) => c.trainMean, render: (c) => fmt.score(c.trainMean) },
    { key: 'checkpoint', label: 'Checkpoint', value: (c) => c.checkpoint, render: (c) => h('code', {}, shortHash(c.checkpoint)) },
    { key: 'selected', label: 'Selected', value: (c) => c.selected, render: (c) => (c.selected ? h('span', { class: 'badge selected' }, 'selected') : '') },
  ],
});
candidatesTable.setSort('submission', 'asc');
const candChart = new ChartCard(bridge, 'Validation mean per candidate', 220);
const valCurve = new ChartCard(bridge, 'Post-hoc validation best so far', 220);
afterRun.append(h('h2', { class: 'section-title' }, 'After the run'), afterStats, h('div', { class: 'grid' }, candChart.element, valCurve.element), candidatesTable.element);

root.append(
  h('header', { class: 'page-header' }, title, subtitle),
  hostError,
  activity,
  stats,
  afterRun,
  h('div', { class: 'grid' }, bestChart.element, returnsChart.element),
  h('div', { class: 'grid' }, pairedChart.element),
  skillsHeatmap.element,
  submissionsTable.element,
  errorsTable.element,
);

onThemeChange(() => {
  for (const c of [bestChart, returnsChart, pairedChart, candChart, valCurve]) c.rebuild();
});

function onMessage(m: HostToWebview): void {
  switch (m.type) {
    case 'dashboard.snapshot':
      data = fromSnapshot(m);
      render();
      break;
    case 'dashboard.submission':
      data = upsert(data ?? { envId: null, budget: null, submissions: [], report: null, activity: null, bestMinEpisodes: 1 }, m.summary);
      render();
      break;
    case 'dashboard.activity':
      if (data === null) return;
      data = { ...data, activity: m.activity };
      renderActivity(data);
      break;
    case 'host.error':
      hostError.textContent = m.message;
      hostError.hidden = false;
      break;
    default:
      bridge.log('warn', `dashboard ignores "${m.type}" messages`);
  }
}

function render(): void {
  if (data === null) return;
  const d = data;
  fmt = scoreFormatOf(d.submissions);
  subtitle.textContent = d.envId === null ? 'No run in this workspace' : `${d.envId} · ${d.report ? 'run complete' : d.activity ? 'episodes running' : 'run in progress'}`;
  renderStats(d);
  renderActivity(d);
  bestChart.update(bestSoFarChart(d.submissions));
  returnsChart.update(returnDistributionChart(d.submissions));
  pairedChart.update(parentDifferenceChart(d.submissions));
  skillsHeatmap.update(d.submissions);
  submissionsTable.setRows(d.submissions);
  errorsTable.setRows(errorGroups(d.submissions));
  renderAfterRun(d);
  root.setAttribute('aria-busy', 'false');
  document.body.dataset['rendered'] = String(Number(document.body.dataset['rendered'] ?? '0') + 1);
}

function renderStats(d: DashboardData): void {
  const b = budgetOf(d);
  const best = bestTrain(d.submissions, d.bestMinEpisodes);
  const episodes = d.submissions.reduce((n, s) => n + s.episodes.length, 0);
  const failed = d.submissions.reduce((n, s) => n + failedCount(s), 0);
  const bar = hx('vscode-progress-bar', { 'aria-label': 'Budget used', max: b?.total ?? 1, value: b?.used ?? 0 });
  stats.replaceChildren(
    stat('Budget', b ? `${b.remaining} left` : '—', b ? `${b.used} of ${b.total} episodes used` : 'no budget yet', 'budget', bar),
    stat('Submissions', String(d.submissions.length), `${episodes} episodes`, 'submissions'),
    stat('Best train mean', best ? fmt.score(best.stats.mean) : '—', best ? `submission #${best.submission} ± ${fmt.score(best.stats.stderr)}` : '', 'best'),
    stat('Failed episodes', String(failed), episodes > 0 ? `${fmtPercent(failed / episodes)} of episodes` : '', 'failed'),
    ...[agentSpendStat(d.agent)].filter((e): e is HTMLElement => e !== null),
  );
}

function renderActivity(d: DashboardData): void {
  const a = d.activity;
  activity.hidden = a === null;
  if (a === null) return;
  activity.replaceChildren(
    h('span', {}, `Running ${a.submission === null ? 'a submission' : `submission #${a.submission}`}: ${a.done} of ${a.total} episodes`),
    hx('vscode-progress-bar', { 'aria-label': 'Episodes done', max: Math.max(1, a.total), value: a.done }),
  );
}

function renderAfterRun(d: DashboardData): void {
  const r = d.report;
  afterRun.hidden = r === null;
  if (r === null) return;
  const held = r.heldOut;
  const ci = held ? interval95(held.mean, held.stderr) : null;
  const sel = r.candidates.find((c) => c.submission === r.selected);
  afterStats.replaceChildren(
    stat('Selected', r.selected === null ? 'none' : `#${r.selected}`, r.selected === null ? (r.reason ?? '') : `best validation mean (${r.selectionMode} mode)`, 'selected'),
    stat('Validation mean', sel ? fmt.score(sel.validationMean) : '—', sel ? `± ${fmt.score(sel.validationStderr)} stderr` : '', 'validation'),
    stat('Held-out score', held ? fmt.score(held.mean) : '—', held && ci ? `95% CI [${fmt.score(ci[0])}, ${fmt.score(ci[1])}] over ${held.count} episodes` : 'not assessed', 'heldout'),
    // The baselines on the same held-out cases: the starter, the uniform random policy, and autotune with the run's budget when requested.
    ...[...(r.starterHeldOut !== undefined ? [['starter', { heldOut: r.starterHeldOut }] as const] : []), ...Object.entries(r.baselines ?? {})].map(([name, b]) => {
      const spent = 'budget' in b && b.budget ? `${b.budget.used}/${b.budget.total} episodes; ` : '';
      const vs = held && b.heldOut ? `selected ${fmt.delta(held.mean - b.heldOut.mean)} against it` : 'same held-out cases';
      return stat(`Baseline: ${name}`, b.heldOut ? fmt.score(b.heldOut.mean) : '—', `${spent}${vs}`, `baseline-${name}`);
    }),
  );
  candidatesTable.setRows(r.candidates.map((c) => ({ ...c, selected: c.submission === r.selected })));
  candChart.update(candidatesChart(r, fmt));
  valCurve.update(validationCurveChart(r, fmt));
}

function stat(label: string, value: string, detail: string, id: string, extra?: Node): HTMLElement {
  return h('div', { class: 'stat', 'data-stat': id, role: 'group', 'aria-label': `${label}: ${value}. ${detail}` },
    h('div', { class: 'label' }, label), h('div', { class: 'value' }, value), h('div', { class: 'detail' }, detail), extra);
}

function rowActions(s: SubmissionSummary): HTMLElement {
  const first = s.episodes[0]?.caseIndex ?? s.cases[0];
  return h('span', { class: 'actions' },
    linkButton('Feedback', `Open feedback of submission #${s.submission}`, () => bridge.post({ type: 'openFeedback', submission: s.submission })),
    s.edit?.parent !== null && s.edit?.parent !== undefined
      ? linkButton('Diff', `Compare submission #${s.submission} with its parent #${s.edit.parent}`, () => bridge.post({ type: 'openDiff', submission: s.submission }))
      : null,
    first !== undefined ? linkButton('Replay', `Replay case ${first} of submission #${s.submission}`, () => bridge.post({ type: 'openReplay', submission: s.submission, caseIndex: first })) : null,
  );
}

function sourceLink(g: ErrorGroup): Node {
  const loc = g.location;
  if (loc === undefined) return h('span', { class: 'muted' }, '—');
  return linkButton(`${loc.file}:${loc.line}`, `Open ${loc.file} at line ${loc.line}`, () => bridge.post({ type: 'openSource', file: loc.file, line: loc.line, column: loc.column }));
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
