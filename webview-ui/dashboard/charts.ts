/** The dashboard's charts as uPlot content builders (pure functions of the model and theme). */
import uPlot from 'uplot';
import type { RunReport, SubmissionSummary } from '../../src/protocol/feedback';
import type { ScoreFormat } from '../../src/stats/scoreFormat';
import { axes, pointSeries, returnRange, type ChartBuilder } from '../shared/chartCard';
import { EDIT_CLASSES } from '../shared/editClass';
import { editClassColor } from '../shared/theme';
import { bestSoFar, scoreFormatOf } from './model';

const CLASSES = [...EDIT_CLASSES, 'unknown'] as const;

export function bestSoFarChart(subs: readonly SubmissionSummary[]): ChartBuilder {
  return (t) => {
    const pts = bestSoFar(subs);
    if (pts.length === 0) return null;
    const xs = pts.map((p) => p.budgetUsed);
    const best = pts.map((p) => (Number.isFinite(p.best) ? p.best : null));
    const perClass = CLASSES.map((c) => pts.map((p) => (p.editClass === c && Number.isFinite(p.mean) ? p.mean : null)));
    const present = CLASSES.map((_, i) => perClass[i]?.some((v) => v !== null) ?? false);
    const series: uPlot.Series[] = [{ label: 'budget used' }, { label: 'best so far', stroke: t.foreground, width: 2, paths: stepped(), points: { show: false }, spanGaps: true }];
    const data: (number | null)[][] = [best];
    CLASSES.forEach((c, i) => {
      if (!present[i]) return;
      series.push(pointSeries(c === 'unknown' ? 'submission' : c, editClassColor(t, c), 8));
      data.push(perClass[i] ?? []);
    });
    const last = pts.at(-1);
    const fmt = scoreFormatOf(subs);
    return {
      opts: { series, axes: axes(t, 'episodes of budget consumed', 'train mean return'), scales: { x: { time: false }, y: { range: (_u, a, b) => returnRange(a, b) } }, legend: { show: true }, cursor: { drag: { x: false, y: false } } },
      data: [xs, ...data] as uPlot.AlignedData,
      description: `${pts.length} submissions; best train mean ${fmt.score(last?.best)} after ${last?.budgetUsed ?? 0} episodes.`,
      hover: { y: (v) => fmt.score(v) },
    };
  };
}

/** Every episode's return per submission (points jittered across the cases), with the mean. */
export function returnDistributionChart(subs: readonly SubmissionSummary[]): ChartBuilder {
  return (t) => {
    if (subs.length === 0) return null;
    type P = { x: number; y: number; failed: boolean };
    const pts: P[] = [];
    const means: { x: number; y: number }[] = [];
    for (const s of subs) {
      const n = s.episodes.length;
      s.episodes.forEach((e, j) => {
        const off = n > 1 ? (j / (n - 1) - 0.5) * 0.5 : 0;
        pts.push({ x: s.submission + off, y: e.return, failed: e.status !== 'ok' });
      });
      if (Number.isFinite(s.stats.mean)) means.push({ x: s.submission, y: s.stats.mean });
    }
    const xs = [...new Set([...pts.map((p) => p.x), ...means.map((m) => m.x)])].sort((a, b) => a - b);
    const index = new Map(xs.map((x, i) => [x, i]));
    const ok: (number | null)[] = new Array<number | null>(xs.length).fill(null);
    const failed: (number | null)[] = new Array<number | null>(xs.length).fill(null);
    const mean: (number | null)[] = new Array<number | null>(xs.length).fill(null);
    for (const p of pts) (p.failed ? failed : ok)[index.get(p.x) as number] = p.y;
    for (const m of means) mean[index.get(m.x) as number] = m.y;
    const fmt = scoreFormatOf(subs);
    return {
      opts: {
        series: [
          { label: 'submission' },
          { ...pointSeries('ok episode', t.blue, 4), alpha: 0.75 },
          pointSeries('failed episode', t.red, 5),
          { label: 'mean', stroke: t.foreground, width: 1.5, spanGaps: true, points: { show: true, size: 6, stroke: t.foreground, fill: t.background } },
        ],
        axes: [{ ...axes(t, 'submission', 'episode return')[0], incrs: [1, 2, 5, 10, 20, 50, 100] }, axes(t, '', 'episode return')[1] as uPlot.Axis],
        scales: { x: { time: false }, y: { range: (_u, a, b) => returnRange(a, b) } },
        legend: { show: true, live: false },
        cursor: { drag: { x: false, y: false } },
      },
      data: [xs, ok, failed, mean],
      description: `Returns of ${pts.length} episodes over ${subs.length} submissions.`,
      // Episodes are spread across their submission's slot: the tooltip names the submission.
      hover: { x: (v) => `#${Math.round(v)}`, y: (v) => fmt.score(v) },
    };
  };
}

export function validationCurveChart(report: RunReport, fmt: ScoreFormat): ChartBuilder {
  return (t) => {
    const all = [...report.trainCurve.map((p) => p.budgetUsed), ...report.validationCurve.map((p) => p.budgetUsed)];
    if (all.length === 0) return null;
    const xs = [...new Set(all)].sort((a, b) => a - b);
    const at = (curve: RunReport['trainCurve']): (number | null)[] => xs.map((x) => curve.find((p) => p.budgetUsed === x)?.value ?? null);
    const last = report.validationCurve.at(-1);
    return {
      opts: {
        series: [
          { label: 'budget used' },
          { label: 'validation best so far', stroke: t.green, width: 2, spanGaps: true, paths: stepped(), points: { show: true, size: 6, stroke: t.green, fill: t.green } },
          { label: 'train best so far', stroke: t.muted, width: 1.5, dash: [5, 4], spanGaps: true, paths: stepped(), points: { show: false } },
        ],
        axes: axes(t, 'episodes of budget consumed', 'mean return'),
        scales: { x: { time: false }, y: { range: (_u, a, b) => returnRange(a, b) } },
      },
      data: [xs, at(report.validationCurve), at(report.trainCurve)],
      description: `Post-hoc validation best so far reaches ${fmt.score(last?.value)}.`,
      hover: { y: (v) => fmt.score(v) },
    };
  };
}

export function candidatesChart(report: RunReport, fmt: ScoreFormat): ChartBuilder {
  return (t) => {
    const cs = [...report.candidates].sort((a, b) => a.submission - b.submission);
    if (cs.length === 0) return null;
    const xs = cs.map((c) => c.submission);
    const lo = cs.map((c) => c.validationMean - c.validationStderr);
    const hi = cs.map((c) => c.validationMean + c.validationStderr);
    return {
      opts: {
        series: [
          { label: 'submission' },
          { ...pointSeries('validation mean ± stderr', t.green, 8) },
          pointSeries('train mean', t.muted, 5),
          { ...pointSeries('selected', t.yellow, 14) },
        ],
        axes: axes(t, 'candidate submission', 'mean return'),
        scales: { x: { time: false, range: (_u, a, b) => [a - 0.5, b + 0.5] }, y: { range: (_u, a, b) => returnRange(Math.min(a, ...lo), Math.max(b, ...hi)) } },
        legend: { show: true },
        hooks: { draw: [whiskers(lo, hi, withAlpha(t.green, 0.8))] },
      },
      data: [
        xs,
        cs.map((c) => c.validationMean),
        cs.map((c) => c.trainMean),
        cs.map((c) => (c.submission === report.selected ? c.validationMean : null)),
      ],
      description: `${cs.length} candidates validated; selected submission ${report.selected ?? 'none'}.`,
      hover: { x: (v) => `#${v}`, y: (v) => fmt.score(v) },
    };
  };
}

function stepped(): uPlot.Series.PathBuilder | undefined {
  return uPlot.paths.stepped?.({ align: 1 });
}

/** Vertical whiskers for `lo..hi` per x (uPlot has no error bars; a draw hook adds them). */
export function whiskers(lo: readonly (number | null)[], hi: readonly (number | null)[], color: string): (u: uPlot) => void {
  return (u) => {
    const ctx = u.ctx;
    ctx.save();
    ctx.strokeStyle = color;
    ctx.lineWidth = 1.5 * devicePixelRatio;
    const xs = u.data[0];
    for (let i = 0; i < xs.length; i++) {
      const a = lo[i];
      const b = hi[i];
      const x = xs[i];
      if (a === null || b === null || a === undefined || b === undefined || x === undefined) continue;
      const px = u.valToPos(x, 'x', true);
      const y0 = u.valToPos(a, 'y', true);
      const y1 = u.valToPos(b, 'y', true);
      const cap = 4 * devicePixelRatio;
      ctx.beginPath();
      ctx.moveTo(px, y0); ctx.lineTo(px, y1);
      ctx.moveTo(px - cap, y0); ctx.lineTo(px + cap, y0);
      ctx.moveTo(px - cap, y1); ctx.lineTo(px + cap, y1);
      ctx.stroke();
    }
    ctx.restore();
  };
}

export function withAlpha(color: string, alpha: number): string {
  const m = /^#([0-9a-f]{6})$/i.exec(color.trim());
  if (m === null) return color;
  const n = parseInt(m[1] as string, 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}
