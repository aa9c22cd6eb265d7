/**
 * The replay's small charts (reward and return per step, the observation's components) and the
 * marker of the frame on screen. The marker is re-placed after every draw of its chart, so it
 * stays on the right step when a theme switch or a resize rebuilds the chart.
 */
import type uPlot from 'uplot';
import { axes, returnRange, type ChartBuilder, type ChartCard } from '../shared/chartCard';
import { h } from '../shared/dom';
import type { ThemeColors } from '../shared/theme';
import type { ScoreFormat } from '../../src/stats/scoreFormat';
import { formatValue, type Timeline } from './timeline';

export function sideColors(t: ThemeColors): string[] {
  return [t.blue, t.orange];
}

/** Reward (from step 1) or return (from the reset, 0) per frame, one line per side. */
export function stepChart(sides: readonly Timeline[], name: string, yLabel: string, pick: (t: Timeline) => Float64Array, from: number, fmt: () => ScoreFormat): ChartBuilder {
  return (t) => {
    if (sides.length === 0) return null;
    const frames = Math.max(...sides.map((s) => s.frames));
    const xs = Array.from({ length: frames - from }, (_, i) => i + from);
    const colors = sideColors(t);
    return {
      opts: {
        series: [{ label: 'step' }, ...sides.map((s, i) => ({ label: `#${s.submission}`, stroke: colors[i] ?? t.foreground, width: 1.5, points: { show: false } }))],
        axes: axes(t, 'step', yLabel),
        // All-zero rewards (MiniGrid until the goal) would otherwise get uPlot's 0..100 axis.
        scales: { x: { time: false }, y: { range: (_u, a, b) => returnRange(a, b) } },
        cursor: { drag: { x: false, y: false } },
        legend: { show: sides.length > 1 },
      },
      data: [xs, ...sides.map((s) => xs.map((x) => (x < s.frames ? (pick(s)[x] ?? null) : null)))] as uPlot.AlignedData,
      description: `${name} over ${frames - 1} steps for ${sides.map((s) => `submission ${s.submission}`).join(' and ')}.`,
      hover: { y: name === 'return' ? (v) => fmt().score(v) : formatValue },
    };
  };
}

/** The observation's components at each time t (the observation the policy acted on in frame t). */
export function observationChart(sides: readonly Timeline[]): ChartBuilder {
  return (t) => {
    const s = sides[0];
    const m = s?.obsMatrix;
    if (s === undefined || m === null || m === undefined || m.length === 0) return null;
    const dims = m[0]?.length ?? 0;
    const palette = [t.blue, t.orange, t.green, t.purple, t.red, t.yellow, t.foreground, t.muted];
    const xs = m.map((_, i) => i);
    return {
      opts: {
        series: [{ label: 'step' }, ...Array.from({ length: dims }, (_, d) => ({ label: `obs[${d}]`, stroke: palette[d % palette.length] ?? t.foreground, width: 1.2, points: { show: false } }))],
        axes: axes(t, 'step', 'value'),
        scales: { x: { time: false } },
        cursor: { drag: { x: false, y: false } },
      },
      data: [xs, ...Array.from({ length: dims }, (_, d) => m.map((row) => row[d] ?? null))] as uPlot.AlignedData,
      description: `${dims} observation components over ${m.length} steps of submission ${s.submission}.`,
      hover: { y: formatValue },
    };
  };
}

/** A vertical line over each chart at the frame on screen, moved with CSS instead of redrawing the chart. */
export class StepMarkers {
  private readonly markers = new WeakMap<uPlot, HTMLDivElement>();
  private frame = 0;

  constructor(private readonly cards: readonly ChartCard[]) {
    for (const c of cards) c.onDraw((u) => this.place(u));
  }

  move(frame: number): void {
    this.frame = frame;
    for (const c of this.cards) if (c.uplot !== null) this.place(c.uplot);
  }

  private place(u: uPlot): void {
    let m = this.markers.get(u);
    if (m === undefined) {
      m = h('div', { class: 'step-marker', 'aria-hidden': 'true' });
      u.over.appendChild(m);
      this.markers.set(u, m);
    }
    const xs = u.data[0];
    const inRange = xs.length > 0 && this.frame >= (xs[0] ?? 0) && this.frame <= (xs[xs.length - 1] ?? 0);
    m.hidden = !inRange;
    if (inRange) m.style.transform = `translateX(${Math.round(u.valToPos(this.frame, 'x'))}px)`;
    m.dataset['step'] = String(this.frame);
  }
}
