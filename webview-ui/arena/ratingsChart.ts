/**
 * Ratings over time (uPlot): one line per submission and opponent against charged games, either
 * the conservative rating (mu − 3 sigma, what rankings sort by) or mu with its ±sigma band.
 * Opponents are dashed, submissions solid.
 */
import type uPlot from 'uplot';
import type { ArenaRatingsFile } from '../../src/protocol/arena';
import { axes, type ChartBuilder } from '../shared/chartCard';
import type { ThemeColors } from '../shared/theme';
import { ratingSeries } from './model';

function palette(t: ThemeColors): string[] {
  return [t.blue, t.orange, t.purple, t.green, t.red, t.yellow, t.foreground, t.muted];
}

/** `rgb(…)`/`#rrggbb` with an alpha, for the bands. */
function withAlpha(color: string, alpha: number): string {
  const m = /^#([0-9a-f]{6})/i.exec(color);
  if (m) {
    const n = parseInt(m[1] as string, 16);
    return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
  }
  const rgb = /^rgba?\(([^)]+)\)/.exec(color);
  if (rgb) {
    const [r, g, b] = (rgb[1] as string).split(',').map((x) => x.trim());
    return `rgba(${r}, ${g}, ${b}, ${alpha})`;
  }
  return color;
}

export function ratingsChart(ratings: ArenaRatingsFile | null, view: 'ordinal' | 'mu', isSubmission: (id: string) => boolean): ChartBuilder {
  return (t) => {
    if (ratings === null || ratings.history.length === 0) return null;
    const { games, series } = ratingSeries(ratings.history, isSubmission);
    const colors = palette(t);
    const data: (number | null)[][] = [games];
    const opts: uPlot.Series[] = [{ label: 'game' }];
    const bandOf: { line: number; sigma: (number | null)[]; fill: string }[] = [];
    series.forEach((s, i) => {
      const color = colors[i % colors.length] as string;
      const dash = s.kind === 'opponent' ? [6, 4] : undefined;
      if (view === 'mu') bandOf.push({ line: data.length, sigma: s.sigma, fill: withAlpha(color, 0.12) });
      data.push(view === 'ordinal' ? s.ordinal : s.mu);
      opts.push({ label: s.id, stroke: color, width: 1.75, ...(dash ? { dash } : {}) });
    });
    // mu ± sigma bands go under the lines (after the grid, before the series).
    const drawBands = (u: uPlot): void => {
      const ctx = u.ctx;
      const xs = u.data[0];
      ctx.save();
      ctx.beginPath();
      ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
      ctx.clip();
      for (const b of bandOf) {
        const mu = u.data[b.line] as (number | null)[];
        const top: [number, number][] = [], bottom: [number, number][] = [];
        for (let k = 0; k < xs.length; k++) {
          const m = mu[k], sg = b.sigma[k];
          if (m === null || m === undefined || sg === null || sg === undefined) continue;
          const x = u.valToPos(xs[k] as number, 'x', true);
          top.push([x, u.valToPos(m + sg, 'y', true)]);
          bottom.push([x, u.valToPos(m - sg, 'y', true)]);
        }
        if (top.length < 2) continue;
        ctx.fillStyle = b.fill;
        ctx.beginPath();
        top.forEach(([x, y], k) => (k === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
        for (let k = bottom.length - 1; k >= 0; k--) ctx.lineTo(...(bottom[k] as [number, number]));
        ctx.closePath();
        ctx.fill();
      }
      ctx.restore();
    };
    const what = view === 'ordinal' ? 'conservative rating (mu − 3 sigma)' : 'mu ± sigma';
    const last = series.map((s) => ({ id: s.id, v: (view === 'ordinal' ? s.ordinal : s.mu).at(-1) ?? null })).filter((x) => x.v !== null).sort((a, b) => (b.v as number) - (a.v as number));
    return {
      opts: {
        scales: { x: { time: false }, ...(view === 'mu' ? { y: { range: (): uPlot.Range.MinMax => muRange(series) } } : {}) },
        series: opts,
        hooks: { drawAxes: [drawBands] },
        axes: axes(t, 'games charged', view === 'ordinal' ? 'rating (mu − 3σ)' : 'rating mu ± σ', true),
        legend: { show: true },
      },
      data: data as uPlot.AlignedData,
      description: `OpenSkill ratings of ${series.length} players over ${games.at(-1) ?? 0} charged games, as ${what}. Now: ${last.slice(0, 5).map((x) => `${x.id} ${(x.v as number).toFixed(1)}`).join(', ')}.`,
      hover: { x: (v) => String(v), y: (v) => v.toFixed(2) },
    };
  };
}

/** The y range of the mu view: every band whole, with a little room. */
function muRange(series: readonly { mu: (number | null)[]; sigma: (number | null)[] }[]): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (const s of series) {
    s.mu.forEach((m, k) => {
      if (m === null) return;
      const sg = s.sigma[k] ?? 0;
      lo = Math.min(lo, m - sg);
      hi = Math.max(hi, m + sg);
    });
  }
  if (!Number.isFinite(lo)) return [0, 50];
  const pad = (hi - lo) * 0.05 || 1;
  return [lo - pad, hi + pad];
}
