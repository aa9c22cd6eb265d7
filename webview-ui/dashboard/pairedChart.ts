/**
 * Difference from the parent per submission, on the cases both ran (summary.json `paired`):
 * the mean paired difference with its bootstrap 95% interval as whiskers, and the zero line.
 */
import type uPlot from 'uplot';
import type { SubmissionSummary } from '../../src/protocol/feedback';
import { axes, pointSeries, returnRange, type ChartBuilder } from '../shared/chartCard';
import { whiskers, withAlpha } from './charts';
import { scoreFormatOf } from './model';

export interface ParentDifference {
  submission: number;
  parent: number;
  shared: number;
  mean: number;
  lo: number | null;
  hi: number | null;
}

/** Submissions with a paired difference from their parent; those sharing no case are counted apart. */
export function parentDifferences(subs: readonly SubmissionSummary[]): { points: ParentDifference[]; unshared: number[] } {
  const points: ParentDifference[] = [];
  const unshared: number[] = [];
  for (const s of subs) {
    const p = s.paired?.parent;
    if (!p) continue;
    if (p.meanDifference === null) unshared.push(s.submission);
    else points.push({ submission: s.submission, parent: p.against, shared: p.shared, mean: p.meanDifference, lo: p.ci95?.[0] ?? null, hi: p.ci95?.[1] ?? null });
  }
  return { points, unshared };
}

export function parentDifferenceChart(subs: readonly SubmissionSummary[]): ChartBuilder {
  return (t) => {
    const { points, unshared } = parentDifferences(subs);
    if (points.length === 0) return null;
    const xs = points.map((p) => p.submission);
    const lo = points.map((p) => p.lo);
    const hi = points.map((p) => p.hi);
    const fmt = scoreFormatOf(subs);
    const finite = [...lo, ...hi, ...points.map((p) => p.mean), 0].filter((v): v is number => v !== null);
    const better = points.filter((p) => p.lo !== null && p.lo > 0).length;
    const worse = points.filter((p) => p.hi !== null && p.hi < 0).length;
    return {
      opts: {
        series: [
          { label: 'submission' },
          pointSeries('mean difference from parent (95% interval)', t.blue, 8),
          { label: 'no difference', stroke: t.muted, width: 1, dash: [4, 4], points: { show: false }, spanGaps: true },
        ],
        axes: axes(t, 'submission', 'difference from parent'),
        scales: { x: { time: false, range: (_u, a, b) => [a - 0.5, b + 0.5] }, y: { range: () => returnRange(Math.min(...finite), Math.max(...finite)) } },
        legend: { show: true },
        hooks: { draw: [whiskers(lo, hi, withAlpha(t.blue, 0.8))] },
      },
      data: [xs, points.map((p) => p.mean), xs.map(() => 0)] as uPlot.AlignedData,
      description:
        `${points.length} submissions compared with their parent on shared cases: ${better} better and ${worse} worse beyond the 95% interval.` +
        (unshared.length ? ` ${unshared.length} shared no case with their parent (#${unshared.join(', #')}): resubmit on the parent's cases to compare.` : ''),
      hover: { x: (v) => `#${v}`, y: (v) => fmt.delta(v) },
    };
  };
}
