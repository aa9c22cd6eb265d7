/**
 * A titled card holding one uPlot chart: sizes it to its container, rebuilds it when the theme
 * changes (uPlot paints on canvas, so colours are baked in), labels it for screen readers and
 * exports it as PNG with its title and legend drawn in.
 */
import uPlot from 'uplot';
import { h } from './dom';
import { exportCanvasPng, slug } from './exporter';
import type { HostBridge } from './hostBridge';
import { readTheme, type ThemeColors } from './theme';
import type { PanelState } from '../../src/protocol/webview';

export interface ChartContent {
  /** Series and axes; width/height are set by the card. */
  opts: Omit<uPlot.Options, 'width' | 'height'>;
  data: uPlot.AlignedData;
  /** Plain-language summary read by screen readers instead of the canvas. */
  description: string;
  /** How the hover tooltip prints x and y values (defaults: integers as is, others to 3 significant digits). */
  hover?: { x?(v: number): string; y?(v: number): string };
}

export type ChartBuilder = (theme: ThemeColors) => ChartContent | null;

export class ChartCard {
  readonly element: HTMLElement;
  private readonly body: HTMLDivElement;
  private readonly empty: HTMLParagraphElement;
  private plot: uPlot | null = null;
  private builder: ChartBuilder | null = null;
  private readonly drawListeners: ((u: uPlot) => void)[] = [];
  private readonly observer: ResizeObserver;
  /** Last laid-out width, from the ResizeObserver: reading clientWidth while a render has the page dirty forces a full layout. */
  private width = 0;

  constructor(
    private readonly bridge: HostBridge<PanelState>,
    readonly title: string,
    private readonly height = 220,
    emptyText = 'No data yet.',
  ) {
    this.body = h('div', { class: 'chart-body', role: 'img', 'aria-label': title });
    this.empty = h('p', { class: 'empty' }, emptyText);
    const exportBtn = h('vscode-button' as 'button', { secondary: true, 'aria-label': `Export chart "${title}" as PNG`, title: 'Export as PNG' }, 'PNG');
    exportBtn.addEventListener('click', () => this.exportPng());
    this.element = h('section', { class: 'card chart-card', 'aria-label': title },
      h('header', { class: 'card-header' }, h('h2', {}, title), h('div', { class: 'card-actions' }, exportBtn)),
      this.body, this.empty);
    this.observer = new ResizeObserver((entries) => {
      const w = entries[0]?.contentRect.width ?? 0;
      if (w > 0) this.width = w;
      this.resize();
    });
    this.observer.observe(this.body);
  }

  /** Replaces the chart content (cheap to call on every update: setData when the shape is unchanged). */
  update(builder: ChartBuilder): void {
    this.builder = builder;
    this.rebuild();
  }

  rebuild(): void {
    const content = this.builder?.(readTheme()) ?? null;
    this.plot?.destroy();
    this.plot = null;
    this.empty.hidden = content !== null;
    this.body.hidden = content === null;
    if (content === null) return;
    this.body.setAttribute('aria-label', `${this.title}. ${content.description}`);
    if (this.width === 0) this.width = this.body.clientWidth;
    const width = Math.max(200, this.width || 600);
    // Legend values follow the cursor by default; a static legend reads better and exports cleanly,
    // and the hover tooltip shows the values under the cursor instead.
    const legend = { live: false, ...content.opts.legend };
    const hooks = { ...content.opts.hooks, draw: [...(content.opts.hooks?.draw ?? []), (u: uPlot) => { for (const f of this.drawListeners) f(u); }] };
    const plugins = [...(content.opts.plugins ?? []), ...(content.opts.cursor?.show === false ? [] : [hoverTooltip(content.hover)])];
    const axesOpts = content.opts.axes?.map((a, i) => this.recordTicks(a, i));
    this.plot = new uPlot({ ...content.opts, axes: axesOpts, legend, hooks, plugins, width, height: this.height }, content.data, this.body);
  }

  /**
   * The tick values an axis last drew, as `data-ticks-x` / `data-ticks-y` on the chart body: the
   * canvas holds only pixels, and this is what a reader (or a test) can check the axis by.
   */
  private recordTicks(a: uPlot.Axis, i: number): uPlot.Axis {
    if (a.values !== undefined && typeof a.values !== 'function') return a;
    const inner = a.values;
    const values = (u: uPlot, splits: number[], axisIdx: number, space: number, incr: number): (string | number | null)[] => {
      this.body.dataset[i === 0 ? 'ticksX' : `ticksY${i > 1 ? i : ''}`] = splits.join(',');
      return inner ? inner(u, splits, axisIdx, space, incr) : splits.map((v) => v.toLocaleString());
    };
    return { ...a, values };
  }

  /** Calls `fn` after every draw of the chart (a rebuild after a theme switch or a resize included). */
  onDraw(fn: (u: uPlot) => void): void {
    this.drawListeners.push(fn);
  }

  get uplot(): uPlot | null {
    return this.plot;
  }

  private resize(): void {
    if (this.plot === null) return;
    const width = Math.max(200, this.width);
    if (Math.abs(width - this.plot.width) > 1) this.plot.setSize({ width, height: this.height });
  }

  /** Title, chart canvas and a legend of the visible series, on the theme's background. */
  exportPng(): void {
    if (this.plot === null) return;
    const t = readTheme();
    const src = this.plot.ctx.canvas;
    const pad = 16;
    const titleH = 28;
    const legendH = 24;
    const out = document.createElement('canvas');
    out.width = src.width + pad * 2;
    out.height = src.height + pad * 2 + titleH + legendH;
    const ctx = out.getContext('2d');
    if (ctx === null) return;
    ctx.fillStyle = t.background;
    ctx.fillRect(0, 0, out.width, out.height);
    ctx.fillStyle = t.foreground;
    ctx.font = `600 16px ${t.font}`;
    ctx.textBaseline = 'top';
    ctx.fillText(this.title, pad, pad);
    ctx.drawImage(src, pad, pad + titleH);
    let x = pad;
    const y = pad + titleH + src.height + 6;
    ctx.font = `12px ${t.font}`;
    for (const [k, s] of this.plot.series.entries()) {
      if (k === 0 || s.show === false || typeof s.label !== 'string' || s.label === '') continue;
      ctx.fillStyle = seriesColor(this.plot, k, t.foreground);
      ctx.fillRect(x, y + 3, 10, 10);
      ctx.fillStyle = t.foreground;
      ctx.fillText(s.label, x + 14, y + 2);
      x += 24 + ctx.measureText(s.label).width;
    }
    exportCanvasPng(this.bridge, `${slug(this.title)}.png`, out);
  }
}

/** Axis styling shared by every chart. */
export function axes(t: ThemeColors, xLabel: string, yLabel: string, xIntegers = /submission|step|episodes/.test(xLabel)): uPlot.Axis[] {
  const base = {
    stroke: t.muted,
    grid: { stroke: t.grid, width: 1 },
    ticks: { stroke: t.grid, width: 1 },
    font: `11px ${t.font}`,
    labelFont: `12px ${t.font}`,
  };
  return [
    // Submissions, steps and episode counts are integers: no 2.5 ticks.
    { ...base, label: xLabel, ...(xIntegers ? { incrs: [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000] } : {}) },
    { ...base, label: yLabel, size: 56 },
  ];
}

/** A points-only series (scatter) in one colour. */
export function pointSeries(label: string, color: string, size = 7): uPlot.Series {
  return { label, stroke: color, fill: color, paths: () => null, points: { show: true, size, stroke: color, fill: color, width: 1 } };
}

/**
 * The values under the cursor in a small box beside it: the x value, then each visible series
 * that has a value at that x, in its colour. Built with text nodes and CSSOM only (strict CSP).
 */
export function hoverTooltip(fmt: ChartContent['hover'] = {}): uPlot.Plugin {
  const fx = fmt.x ?? shortNumber;
  const fy = fmt.y ?? shortNumber;
  let box: HTMLDivElement | null = null;
  return {
    hooks: {
      init: (u) => {
        box = h('div', { class: 'chart-tooltip', role: 'tooltip', hidden: true });
        u.over.appendChild(box);
        u.over.addEventListener('mouseleave', () => { if (box) box.hidden = true; });
      },
      setCursor: (u) => {
        if (box === null) return;
        const i = u.cursor.idx;
        const left = u.cursor.left ?? -1;
        const top = u.cursor.top ?? -1;
        const x = i === null || i === undefined ? undefined : u.data[0][i];
        if (x === undefined || left < 0 || top < 0) {
          box.hidden = true;
          return;
        }
        const rows: HTMLElement[] = [];
        u.series.forEach((s, k) => {
          if (k === 0 || s.show === false) return;
          const v = u.data[k]?.[i as number];
          if (v === null || v === undefined || !Number.isFinite(v)) return;
          const swatch = h('span', { class: 'swatch', 'aria-hidden': 'true' });
          swatch.style.background = seriesColor(u, k, 'currentColor');
          rows.push(h('div', { class: 'row' }, swatch, h('span', { class: 'label' }, typeof s.label === 'string' ? s.label : `series ${k}`), h('span', { class: 'value' }, fy(v))));
        });
        if (rows.length === 0) {
          box.hidden = true;
          return;
        }
        const xLabel = typeof u.series[0]?.label === 'string' ? u.series[0].label : 'x';
        box.replaceChildren(h('div', { class: 'head' }, `${xLabel} ${fx(x)}`), ...rows);
        box.hidden = false;
        // Beside the cursor, flipped to the other side near the right or bottom edge.
        const w = box.offsetWidth;
        const ht = box.offsetHeight;
        const bx = left + 12 + w > u.over.clientWidth ? left - 12 - w : left + 12;
        const by = top + 12 + ht > u.over.clientHeight ? Math.max(0, top - 12 - ht) : top + 12;
        box.style.transform = `translate(${Math.round(bx)}px, ${Math.round(by)}px)`;
      },
    },
  };
}

/** A series' colour as a CSS string: uPlot turns every `stroke` option into a function. */
function seriesColor(u: uPlot, k: number, fallback: string): string {
  const stroke = u.series[k]?.stroke;
  const c = typeof stroke === 'function' ? stroke(u, k) : stroke;
  return typeof c === 'string' && c !== '' ? c : fallback;
}

function shortNumber(v: number): string {
  if (Number.isInteger(v)) return String(v);
  return Number(v.toPrecision(3)).toString();
}

/**
 * The y range of a return axis. Returns inside 0..1 (MiniGrid's, success rates) get the whole unit
 * range; others span at least a fifth of their magnitude. Either way a run whose returns barely
 * move shows a flat line, not noise blown up to fill the chart.
 */
export function returnRange(min: number, max: number): [number, number] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (min >= 0 && max <= 1) return [0, 1];
  const mag = Math.max(Math.abs(min), Math.abs(max));
  const span = Math.max(max - min, mag * 0.2) * 1.1;
  const mid = (min + max) / 2;
  let lo = mid - span / 2;
  let hi = mid + span / 2;
  // Padding alone never pushes the axis across zero.
  if (min >= 0 && lo < 0) { hi -= lo; lo = 0; }
  if (max <= 0 && hi > 0) { lo -= hi; hi = 0; }
  return [lo, hi];
}
