/**
 * Evolution diagnostics from the submission summaries, refined with the edit analysis's
 * RunDiagnostics (report.json `diagnostics`) when it is there: its metrics give the complexity
 * curve and its effectiveness rows the validation rates. Without analysis the panel still shows
 * everything the summaries' edit fields allow.
 */
import { z } from 'zod';
import type { ComplexityPoint, EffectivenessRow, RunDiagnostics } from '../../src/protocol/analysis';
import type { EditClass, SubmissionSummary } from '../../src/protocol/feedback';
import { bestSoFar, bestSubmission } from '../../src/stats/bestSubmission';
import { runScoreFormat, type ScoreFormat } from '../../src/stats/scoreFormat';

export type ClassOrUnknown = EditClass | 'unknown';

export interface EditRow {
  submission: number;
  parent: number | null;
  editClass: ClassOrUnknown;
  budgetUsed: number;
  trainMean: number | null;
  linesChanged: number | null;
  deltaVsParent: number | null;
  /** The train mean beat every earlier one (an improvement; a tie is not one). */
  newBest: boolean;
  depth: number;
}

export interface ClassEffect {
  editClass: ClassOrUnknown;
  edits: number;
  meanDelta: number | null;
  improvedRate: number | null;
  newBest: number;
  newBestRate: number | null;
  validationRate: number | null;
}

export interface Diagnostics {
  rows: EditRow[];
  share: { submission: number; structural: number | null; parametric: number | null; identical: number | null }[];
  effects: ClassEffect[];
  complexity: { source: 'metrics' | 'lines'; points: ComplexityPoint[] | { submission: number; netLines: number }[] };
  fromAnalysis: boolean;
  /** The best train mean by the protocol's rule (a tie goes to the later submission). */
  best: number | null;
  /** How returns print: the run's format, as in every other view. */
  format: ScoreFormat;
}

// Loose: only the parts the panel reads, so older/newer analysis versions still render.
const runDiagnosticsSchema = z.looseObject({
  version: z.number(),
  effectiveness: z.array(z.looseObject({ editClass: z.string(), edits: z.number(), newBestTrain: z.number(), trainRate: z.number().nullable(), validationRate: z.number().nullable() })),
  complexity: z.array(z.looseObject({ submission: z.number(), sourceLines: z.number(), functions: z.number(), branches: z.number(), cyclomaticTotal: z.number(), stateFields: z.number() })),
});

export function parseRunDiagnostics(v: unknown): Pick<RunDiagnostics, 'effectiveness' | 'complexity'> | null {
  const r = runDiagnosticsSchema.safeParse(v);
  return r.success ? (r.data as unknown as Pick<RunDiagnostics, 'effectiveness' | 'complexity'>) : null;
}

const CLASSES: ClassOrUnknown[] = ['structural', 'parametric', 'identical', 'initial', 'unknown'];

export function computeDiagnostics(subs: readonly SubmissionSummary[], analysis: unknown): Diagnostics {
  const sorted = [...subs].sort((a, b) => a.submission - b.submission);
  const byNumber = new Map(sorted.map((s) => [s.submission, s]));
  const rows: EditRow[] = [];
  const depthOf = new Map<number, number>();
  const meanOf = (s: SubmissionSummary): number | null => (s.stats.count > 0 && Number.isFinite(s.stats.mean) ? s.stats.mean : null);
  const improved = new Map(bestSoFar(sorted, meanOf).map((p) => [p.item.submission, p.improved]));
  for (const s of sorted) {
    const parent = s.edit?.parent ?? null;
    const mean = meanOf(s);
    const pMean = parent === null ? null : (byNumber.get(parent)?.stats.mean ?? null);
    const depth = parent === null ? 0 : (depthOf.get(parent) ?? 0) + 1;
    depthOf.set(s.submission, depth);
    const newBest = improved.get(s.submission) ?? false;
    rows.push({
      submission: s.submission,
      parent,
      editClass: s.edit?.class ?? 'unknown',
      budgetUsed: s.budget.used,
      trainMean: mean,
      linesChanged: s.edit ? s.edit.linesAdded + s.edit.linesRemoved : null,
      deltaVsParent: mean !== null && pMean !== null && Number.isFinite(pMean) ? mean - pMean : null,
      newBest,
      depth,
    });
  }

  const counts = { structural: 0, parametric: 0, identical: 0 };
  const share: Diagnostics['share'] = [];
  for (const r of rows) {
    if (r.editClass === 'structural' || r.editClass === 'parametric' || r.editClass === 'identical') counts[r.editClass]++;
    const n = counts.structural + counts.parametric + counts.identical;
    share.push({ submission: r.submission, structural: n ? counts.structural / n : null, parametric: n ? counts.parametric / n : null, identical: n ? counts.identical / n : null });
  }

  const parsed = parseRunDiagnostics(analysis);
  const effects: ClassEffect[] = [];
  for (const c of CLASSES) {
    const rs = rows.filter((r) => r.editClass === c);
    if (rs.length === 0) continue;
    const deltas = rs.map((r) => r.deltaVsParent).filter((d): d is number => d !== null);
    const nb = rs.filter((r) => r.newBest).length;
    const a: EffectivenessRow | undefined = parsed?.effectiveness.find((e) => e.editClass === c);
    effects.push({
      editClass: c,
      edits: rs.length,
      meanDelta: deltas.length ? deltas.reduce((x, y) => x + y, 0) / deltas.length : null,
      improvedRate: deltas.length ? deltas.filter((d) => d > 0).length / deltas.length : null,
      newBest: nb,
      newBestRate: nb / rs.length,
      validationRate: a?.validationRate ?? null,
    });
  }

  let complexity: Diagnostics['complexity'];
  if (parsed !== null && parsed.complexity.length > 0) complexity = { source: 'metrics', points: [...parsed.complexity].sort((a, b) => a.submission - b.submission) };
  else {
    // Without metrics: net lines along each submission's lineage, a proxy for code growth.
    const net = new Map<number, number>();
    const points = sorted.map((s) => {
      const p = s.edit?.parent ?? null;
      const v = (p === null ? 0 : (net.get(p) ?? 0)) + (s.edit ? s.edit.linesAdded - s.edit.linesRemoved : 0);
      net.set(s.submission, v);
      return { submission: s.submission, netLines: v };
    });
    complexity = { source: 'lines', points };
  }
  const best = bestSubmission(sorted, meanOf)?.submission ?? null;
  return { rows, share, effects, complexity, fromAnalysis: parsed !== null, best, format: runScoreFormat(sorted.map((s) => s.stats.mean)) };
}
