/**
 * Run diagnostics: how the run evolved, from each submission's edit, train mean, metrics and
 * (after the run) validation mean. Pure arithmetic over DiagnosticsSubmission, no parsing, so the
 * runner can recompute it at any time from summary.json files.
 */
import {
  ANALYSIS_VERSION,
  COSMETIC_DETAIL,
  type ComplexityPoint,
  type DiagnosticsSubmission,
  type EditSizeBin,
  type EffectivenessRow,
  type ProgressPoint,
  type RunDiagnostics,
  type SizeBinRow,
  type SizePoint,
} from '../protocol/analysis';
import type { EditClass } from '../protocol/feedback';

type ClassLabel = EditClass | 'unknown';
const CLASSES: readonly ClassLabel[] = ['initial', 'identical', 'parametric', 'structural', 'unknown'];
const BINS: readonly EditSizeBin[] = ['none', 'small', 'medium', 'large'];

function classOf(s: DiagnosticsSubmission): ClassLabel {
  if (s.edit) return s.edit.class;
  return s.parent === null ? 'initial' : 'unknown';
}

function labelOf(s: DiagnosticsSubmission): string {
  const c = classOf(s);
  const first = s.edit?.details[0];
  return first ? `${c}: ${first}` : c;
}

function progress(subs: readonly DiagnosticsSubmission[], value: (s: DiagnosticsSubmission) => number | null): ProgressPoint[] {
  let best: number | null = null;
  return subs.map((s) => {
    const v = value(s);
    const newBest = v !== null && Number.isFinite(v) && (best === null || v > best);
    if (newBest) best = v;
    return { submission: s.submission, budgetUsed: s.budgetUsed, value: v, bestSoFar: best, newBest, editClass: classOf(s), editLabel: labelOf(s) };
  });
}

const mean = (xs: number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
const rate = (k: number, n: number): number | null => (n === 0 ? null : k / n);

export function runDiagnostics(input: readonly DiagnosticsSubmission[]): RunDiagnostics {
  const subs = [...input].sort((a, b) => a.submission - b.submission);
  const counts = Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<ClassLabel, number>;
  let cosmetic = 0;
  for (const s of subs) {
    counts[classOf(s)]++;
    if (s.edit?.class === 'parametric' && s.edit.details.includes(COSMETIC_DETAIL)) cosmetic++;
  }
  const edits = counts.identical + counts.parametric + counts.structural;

  const train = progress(subs, (s) => s.trainMean);
  const hasValidation = subs.some((s) => s.validationMean !== undefined && s.validationMean !== null);
  const validation = hasValidation ? progress(subs, (s) => s.validationMean ?? null) : null;

  const effectiveness: EffectivenessRow[] = [];
  for (const c of CLASSES) {
    const idx = subs.map((s, i) => (classOf(s) === c ? i : -1)).filter((i) => i >= 0);
    if (idx.length === 0) continue;
    const newBestTrain = idx.filter((i) => train[i]!.newBest).length;
    const validated = validation ? idx.filter((i) => validation[i]!.value !== null) : [];
    const newBestValidation = validation ? validated.filter((i) => validation[i]!.newBest).length : 0;
    effectiveness.push({
      editClass: c,
      edits: idx.length,
      newBestTrain,
      trainRate: rate(newBestTrain, idx.length),
      validatedEdits: validated.length,
      newBestValidation,
      validationRate: rate(newBestValidation, validated.length),
    });
  }

  const byNumber = new Map(subs.map((s) => [s.submission, s]));
  const points: SizePoint[] = [];
  subs.forEach((s, i) => {
    if (!s.edit || s.edit.class === 'initial') return;
    const parentMean = s.parent === null ? null : (byNumber.get(s.parent)?.trainMean ?? null);
    const bestBefore = i > 0 ? train[i - 1]!.bestSoFar : null;
    points.push({
      submission: s.submission,
      editClass: s.edit.class,
      linesChanged: Math.max(s.edit.linesAdded, s.edit.linesRemoved),
      sizeBin: s.edit.sizeBin,
      deltaVsParent: s.trainMean !== null && parentMean !== null ? s.trainMean - parentMean : null,
      deltaVsBest: s.trainMean !== null && bestBefore !== null ? s.trainMean - bestBefore : null,
    });
  });
  const trainNewBest = new Map(train.map((p) => [p.submission, p.newBest]));
  const bins: SizeBinRow[] = BINS.map((bin) => {
    const inBin = points.filter((p) => p.sizeBin === bin);
    return {
      sizeBin: bin,
      edits: inBin.length,
      meanDeltaVsParent: mean(inBin.flatMap((p) => (p.deltaVsParent === null ? [] : [p.deltaVsParent]))),
      newBestRate: rate(inBin.filter((p) => trainNewBest.get(p.submission)).length, inBin.length),
    };
  });

  const complexity: ComplexityPoint[] = subs.flatMap((s) =>
    s.metrics
      ? [
          {
            submission: s.submission,
            budgetUsed: s.budgetUsed,
            sourceLines: s.metrics.sourceLines,
            functions: s.metrics.functions,
            classes: s.metrics.classes,
            branches: s.metrics.branches,
            loops: s.metrics.loops,
            cyclomaticTotal: s.metrics.cyclomaticTotal,
            cyclomaticMax: s.metrics.cyclomaticMax,
            maxNestingDepth: s.metrics.maxNestingDepth,
            stateFields: s.metrics.stateFields,
            literals: s.metrics.literals,
          },
        ]
      : [],
  );

  return {
    version: ANALYSIS_VERSION,
    submissions: subs.length,
    editShare: {
      counts,
      cosmetic,
      structuralShare: rate(counts.structural, edits),
      parametricShare: rate(counts.parametric, edits),
      identicalShare: rate(counts.identical, edits),
    },
    trainProgress: train,
    validationProgress: validation,
    effectiveness,
    sizeVsImprovement: { points, bins },
    complexity,
  };
}
