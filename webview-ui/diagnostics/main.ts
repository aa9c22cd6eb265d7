/**
 * Evolution diagnostics: structural vs parametric share over time, edit effectiveness per class,
 * edit size vs improvement, complexity growth, and the lineage of submissions.
 */
import 'uplot/dist/uPlot.min.css';
import '../shared/base.css';
import '../shared/elements';
import uPlot from 'uplot';
import type { ComplexityPoint } from '../../src/protocol/analysis';
import type { DiagnosticsSnapshot, HostToWebview } from '../../src/protocol/webview';
import { axes, ChartCard, pointSeries, returnRange, type ChartBuilder } from '../shared/chartCard';
import { DataTable } from '../shared/dataTable';
import { classBadge } from '../shared/editClass';
import { h } from '../shared/dom';
import { connectHost } from '../shared/hostBridge';
import { editClassColor, onThemeChange, type ThemeColors } from '../shared/theme';
import { computeDiagnostics, type ClassEffect, type ClassOrUnknown, type Diagnostics, type EditRow } from './model';

/** The run's number format (src/stats/scoreFormat.ts), refreshed on every render. */
let fmt = computeDiagnostics([], null).format;

const bridge = connectHost('diagnostics', onMessage);
if (bridge.restored === null) bridge.saveState({ panel: 'diagnostics' });

const subtitle = h('span', { class: 'subtitle' }, 'Waiting for the run…');
const note = h('p', { class: 'muted', hidden: true });
const shareChart = new ChartCard(bridge, 'Structural vs parametric share over time', 220, 'No edits yet.');
const effectChart = new ChartCard(bridge, 'Mean improvement over parent per edit class', 220, 'No edits with a parent yet.');
const sizeChart = new ChartCard(bridge, 'Edit size vs improvement', 220, 'No edits with a size yet.');
const complexityChart = new ChartCard(bridge, 'Complexity growth', 220, 'No submissions yet.');
const lineageChart = new ChartCard(bridge, 'Lineage of submissions', 260, 'No submissions yet.');

const effectsTable = new DataTable<ClassEffect>(bridge, {
  caption: 'Edit effectiveness per class',
  rowKey: (e) => e.editClass,
  toJson: (rows) => rows,
  columns: [
    { key: 'class', label: 'Edit class', value: (e) => e.editClass, render: (e) => classBadge(e.editClass) },
    { key: 'edits', label: 'Edits', numeric: true, value: (e) => e.edits },
    { key: 'meanDelta', label: 'Mean Δ vs parent', numeric: true, value: (e) => e.meanDelta, render: (e) => signed(e.meanDelta) },
    { key: 'improved', label: 'Improved', numeric: true, value: (e) => e.improvedRate, render: (e) => pct(e.improvedRate), hint: 'Share of edits whose train mean beat their parent’s' },
    { key: 'newBest', label: 'New best', numeric: true, value: (e) => e.newBest, render: (e) => `${e.newBest} (${pct(e.newBestRate)})`, hint: 'Edits that set a new best train mean' },
    { key: 'validation', label: 'New best on validation', numeric: true, value: (e) => e.validationRate, render: (e) => pct(e.validationRate) },
  ],
});
const lineageTable = new DataTable<EditRow>(bridge, {
  caption: 'Lineage',
  rowKey: (r) => String(r.submission),
  onActivate: (r) => bridge.post({ type: 'openDiff', submission: r.submission }),
  activateHint: 'Enter: compare with the parent checkpoint',
  toJson: (rows) => rows,
  columns: [
    { key: 'submission', label: '#', numeric: true, value: (r) => r.submission },
    { key: 'parent', label: 'Parent', numeric: true, value: (r) => r.parent, render: (r) => (r.parent === null ? '—' : `#${r.parent}`) },
    { key: 'depth', label: 'Depth', numeric: true, value: (r) => r.depth },
    { key: 'class', label: 'Edit', value: (r) => r.editClass, render: (r) => classBadge(r.editClass) },
    { key: 'lines', label: 'Lines changed', numeric: true, value: (r) => r.linesChanged },
    { key: 'mean', label: 'Train mean', numeric: true, value: (r) => r.trainMean, render: (r) => fmt.score(r.trainMean) },
    { key: 'delta', label: 'Δ vs parent', numeric: true, value: (r) => r.deltaVsParent, render: (r) => signed(r.deltaVsParent) },
    { key: 'best', label: 'New best', value: (r) => r.newBest, render: (r) => (r.newBest ? '★' : '') },
  ],
});
lineageTable.setSort('submission', 'asc');
effectsTable.setSort('edits', 'desc');

document.body.appendChild(h('main', { id: 'diagnostics' },
  h('header', { class: 'page-header' }, h('h1', {}, 'Evolution diagnostics'), subtitle),
  note,
  h('div', { class: 'grid' }, shareChart.element, effectChart.element),
  effectsTable.element,
  h('div', { class: 'grid' }, sizeChart.element, complexityChart.element),
  lineageChart.element,
  lineageTable.element,
));

onThemeChange(() => {
  for (const c of [shareChart, effectChart, sizeChart, complexityChart, lineageChart]) c.rebuild();
});

function onMessage(m: HostToWebview): void {
  if (m.type === 'diagnostics.snapshot') render(m);
  else if (m.type !== 'host.error') bridge.log('warn', `diagnostics ignores "${m.type}" messages`);
}

function render(m: DiagnosticsSnapshot): void {
  const d = computeDiagnostics(m.submissions, m.analysis ?? m.report?.diagnostics);
  fmt = d.format;
  subtitle.textContent = `${m.envId ?? 'no run'} · ${d.rows.length} submissions`;
  // While the run goes on, the host derives the diagnostics from each submission's edit analysis;
  // the checkpoints' complexity metrics come with the report at the end.
  note.hidden = d.complexity.source === 'metrics';
  note.textContent = d.fromAnalysis
    ? 'Complexity metrics come with the report at the end of the run; until then complexity is net lines changed along each lineage.'
    : 'Edit analysis diagnostics are not available for this run: complexity is shown as net lines changed along each lineage.';
  document.body.dataset['diagnostics'] = d.fromAnalysis ? (m.report === null ? 'live' : 'report') : 'summaries';
  shareChart.update(shareBuilder(d));
  effectChart.update(effectBuilder(d));
  sizeChart.update(sizeBuilder(d));
  complexityChart.update(complexityBuilder(d));
  lineageChart.update(lineageBuilder(d));
  effectsTable.setRows(d.effects);
  lineageTable.setRows(d.rows);
  document.body.dataset['rendered'] = String(Number(document.body.dataset['rendered'] ?? '0') + 1);
}

function shareBuilder(d: Diagnostics): ChartBuilder {
  return (t) => {
    if (!d.share.some((s) => s.structural !== null)) return null;
    const line = (label: string, color: string): uPlot.Series => ({ label, stroke: color, width: 2, points: { show: false }, spanGaps: true });
    const lastShare = d.share.at(-1);
    return {
      opts: {
        series: [{ label: 'submission' }, line('structural', editClassColor(t, 'structural')), line('parametric', editClassColor(t, 'parametric')), line('identical', editClassColor(t, 'identical'))],
        axes: [axes(t, 'submission', '')[0] as uPlot.Axis, { ...axes(t, '', 'share of edits so far')[1], values: (_u, vs) => vs.map((v) => `${Math.round(v * 100)}%`) }],
        scales: { x: { time: false }, y: { range: [0, 1] } },
      },
      data: [d.share.map((s) => s.submission), d.share.map((s) => s.structural), d.share.map((s) => s.parametric), d.share.map((s) => s.identical)],
      description: `After ${d.share.length} submissions: ${pct(lastShare?.structural ?? null)} structural, ${pct(lastShare?.parametric ?? null)} parametric edits.`,
      hover: { x: (v) => `#${v}`, y: (v) => pct(v) },
    };
  };
}

function effectBuilder(d: Diagnostics): ChartBuilder {
  return (t) => {
    const es = d.effects.filter((e) => e.meanDelta !== null);
    if (es.length === 0) return null;
    const bars = uPlot.paths.bars?.({ size: [0.5, 60] });
    return {
      opts: {
        series: [{ label: 'class' }, ...es.map((e) => ({ label: e.editClass, stroke: editClassColor(t, e.editClass), fill: editClassColor(t, e.editClass), paths: bars, points: { show: false } }))],
        axes: [{ ...axes(t, 'edit class', '')[0], values: (_u: uPlot, vs: number[]) => vs.map((v) => (Number.isInteger(v) ? (es[v]?.editClass ?? '') : '')), incrs: [1] }, axes(t, '', 'mean Δ train return')[1] as uPlot.Axis],
        scales: { x: { time: false, range: [-0.5, es.length - 0.5] }, y: { range: (_u, a, b) => [Math.min(0, a), Math.max(0, b) * 1.1 || 1] } },
        legend: { show: false },
      },
      data: [es.map((_, i) => i), ...es.map((e, i) => es.map((_, j) => (i === j ? e.meanDelta : null)))] as uPlot.AlignedData,
      description: es.map((e) => `${e.editClass}: mean change ${signed(e.meanDelta)} over ${e.edits} edits`).join('; '),
      hover: { x: (v) => es[v]?.editClass ?? '', y: (v) => signed(v) },
    };
  };
}

function sizeBuilder(d: Diagnostics): ChartBuilder {
  return (t) => {
    const pts = d.rows.filter((r) => r.linesChanged !== null && r.deltaVsParent !== null).sort((a, b) => (a.linesChanged ?? 0) - (b.linesChanged ?? 0));
    if (pts.length === 0) return null;
    const classes = [...new Set(pts.map((p) => p.editClass))];
    return {
      opts: {
        series: [{ label: 'lines changed' }, ...classes.map((c) => pointSeries(c, editClassColor(t, c), 8))],
        // Lines are whole: integer ticks only, and a range of at least one line each side.
        axes: axes(t, 'lines changed against the parent', 'Δ train mean vs parent', true),
        scales: { x: { time: false, distr: 1, range: (_u, a, b) => [Math.max(0, Math.floor(a) - 1), Math.ceil(b) + 1] } },
      },
      data: [pts.map((p) => p.linesChanged ?? 0), ...classes.map((c) => pts.map((p) => (p.editClass === c ? p.deltaVsParent : null)))] as uPlot.AlignedData,
      description: `${pts.length} edits plotted by size and change in train mean.`,
      hover: { x: (v) => `${v}`, y: (v) => fmt.delta(v) },
    };
  };
}

function complexityBuilder(d: Diagnostics): ChartBuilder {
  return (t) => {
    if (d.complexity.points.length === 0) return null;
    if (d.complexity.source === 'lines') {
      const ps = d.complexity.points as { submission: number; netLines: number }[];
      return {
        opts: { series: [{ label: 'submission' }, { label: 'net lines since first submission', stroke: t.blue, width: 2, points: { show: true, size: 5, fill: t.blue } }], axes: axes(t, 'submission', 'net lines'), scales: { x: { time: false } } },
        data: [ps.map((p) => p.submission), ps.map((p) => p.netLines)],
        description: `Net lines changed reach ${ps.at(-1)?.netLines ?? 0}.`,
      };
    }
    const ps = d.complexity.points as ComplexityPoint[];
    const s = (label: string, color: string, pick: (p: ComplexityPoint) => number): [uPlot.Series, number[]] => [{ label, stroke: color, width: 2, points: { show: false } }, ps.map(pick)];
    const cols = [s('source lines', t.blue, (p) => p.sourceLines), s('cyclomatic total', t.purple, (p) => p.cyclomaticTotal), s('functions', t.green, (p) => p.functions), s('branches', t.orange, (p) => p.branches), s('state fields', t.red, (p) => p.stateFields)];
    return {
      opts: { series: [{ label: 'submission' }, ...cols.map((c) => c[0])], axes: axes(t, 'submission', 'count'), scales: { x: { time: false } } },
      data: [ps.map((p) => p.submission), ...cols.map((c) => c[1])] as uPlot.AlignedData,
      description: `Source lines grow from ${ps[0]?.sourceLines ?? 0} to ${ps.at(-1)?.sourceLines ?? 0}.`,
    };
  };
}

/** Train mean per submission with an edge to its parent: the run as a tree over time. */
function lineageBuilder(d: Diagnostics): ChartBuilder {
  return (t: ThemeColors) => {
    const rows = d.rows;
    if (rows.length === 0) return null;
    const classes = [...new Set(rows.map((r) => r.editClass))];
    const mean = new Map(rows.map((r) => [r.submission, r.trainMean]));
    const edges = (u: uPlot): void => {
      const ctx = u.ctx;
      ctx.save();
      ctx.strokeStyle = t.muted;
      ctx.lineWidth = 1 * devicePixelRatio;
      for (const r of rows) {
        const pm = r.parent === null ? null : mean.get(r.parent);
        if (r.parent === null || pm === null || pm === undefined || r.trainMean === null) continue;
        ctx.beginPath();
        ctx.moveTo(u.valToPos(r.parent, 'x', true), u.valToPos(pm, 'y', true));
        ctx.lineTo(u.valToPos(r.submission, 'x', true), u.valToPos(r.trainMean, 'y', true));
        ctx.stroke();
      }
      ctx.restore();
    };
    return {
      opts: {
        series: [{ label: 'submission' }, ...classes.map((c: ClassOrUnknown) => pointSeries(c, editClassColor(t, c), 9))],
        axes: axes(t, 'submission', 'train mean return'),
        scales: { x: { time: false }, y: { range: (_u, a, b) => returnRange(a, b) } },
        hooks: { drawClear: [edges] },
      },
      data: [rows.map((r) => r.submission), ...classes.map((c) => rows.map((r) => (r.editClass === c ? r.trainMean : null)))] as uPlot.AlignedData,
      description: `${rows.length} submissions; ${rows.filter((r) => r.parent !== null && r.parent !== r.submission - 1).length} branch from an earlier checkpoint than the previous one.`,
      hover: { x: (v) => `#${v}`, y: (v) => fmt.score(v) },
    };
  };
}

function pct(v: number | null): string {
  return v === null ? '—' : `${Math.round(v * 100)}%`;
}

function signed(v: number | null): string {
  return fmt.delta(v);
}

