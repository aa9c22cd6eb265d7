/**
 * `policyforge analyze`: classify the edit between two policies (folders, workspaces or
 * checkpoints), or re-derive the edits, metrics and diagnostics of a whole run.
 */
import type { CheckpointMetrics, EditAnalysis, RunDiagnostics } from '../../protocol/analysis';
import { analyzeEdit, analyzeRun, resolvePolicyRef, type RunAnalysis } from '../../analysis';
import { runScoreFormat, type ScoreFormat } from '../../stats/scoreFormat';
import { parse } from '../args';
import { ExitCode, UsageError, type CliCommand } from '../command';

const METRIC_ROWS: [keyof CheckpointMetrics, string][] = [
  ['files', 'files'],
  ['sourceLines', 'source lines'],
  ['functions', 'functions'],
  ['classes', 'classes'],
  ['branches', 'branches'],
  ['loops', 'loops'],
  ['cyclomaticTotal', 'cyclomatic total'],
  ['cyclomaticMax', 'cyclomatic max'],
  ['maxNestingDepth', 'max nesting'],
  ['stateFields', 'state fields'],
  ['literals', 'literals'],
];

function editText(a: EditAnalysis): string {
  const out: string[] = [];
  const s = a.size;
  out.push(`${a.class}${a.cosmetic ? ' (cosmetic)' : ''}  ${s.bin}: +${s.linesAdded} −${s.linesRemoved} lines  ${a.parentHash.slice(0, 10)} → ${a.childHash.slice(0, 10)}  (${a.elapsedMs.toFixed(0)} ms)`);
  for (const d of a.details) out.push(`  ${d}`);
  out.push('', 'metrics (parent → child)');
  for (const [key, label] of METRIC_ROWS) {
    const p = a.parentMetrics[key];
    const c = a.childMetrics[key];
    out.push(`  ${label.padEnd(17)} ${String(p).padStart(6)} → ${String(c).padEnd(6)}${p !== c ? ' *' : ''}`);
  }
  if (a.unreachable.child.length > 0) out.push('', `unreachable (excluded): ${a.unreachable.child.join(', ')}`);
  return `${out.join('\n')}\n`;
}

const pct = (x: number | null): string => (x === null ? '–' : `${(x * 100).toFixed(0)}%`);
function diagnosticsText(d: RunDiagnostics, fmt: ScoreFormat): string[] {
  const out: string[] = [];
  const c = d.editShare.counts;
  out.push(
    `edits: ${c.structural} structural (${pct(d.editShare.structuralShare)}), ${c.parametric} parametric (${pct(d.editShare.parametricShare)}, ${d.editShare.cosmetic} cosmetic), ${c.identical} identical${c.unknown ? `, ${c.unknown} unknown` : ''}`,
  );
  out.push('effectiveness (share of edits that set a new best):');
  for (const r of d.effectiveness) {
    out.push(`  ${r.editClass.padEnd(11)} ${String(r.edits).padStart(3)} edits  train ${pct(r.trainRate)}${r.validatedEdits > 0 ? `  validation ${pct(r.validationRate)} of ${r.validatedEdits}` : ''}`);
  }
  out.push('edit size vs improvement:');
  for (const b of d.sizeVsImprovement.bins) {
    if (b.edits > 0) out.push(`  ${b.sizeBin.padEnd(7)} ${String(b.edits).padStart(3)} edits  mean Δ vs parent ${fmt.delta(b.meanDeltaVsParent)}  new best ${pct(b.newBestRate)}`);
  }
  const first = d.complexity[0];
  const last = d.complexity[d.complexity.length - 1];
  if (first && last) out.push(`complexity: source lines ${first.sourceLines} → ${last.sourceLines}, cyclomatic ${first.cyclomaticTotal} → ${last.cyclomaticTotal}, state fields ${first.stateFields} → ${last.stateFields}`);
  return out;
}

function runText(r: RunAnalysis): string {
  const fmt = runScoreFormat(r.submissions.flatMap((s) => (s.trainMean === null ? [] : [s.trainMean])));
  const out: string[] = [`run ${r.workspace}: ${r.submissions.length} submissions`, ''];
  out.push('  #  parent  budget     train  best  class        size    edit');
  const best = new Map(r.diagnostics.trainProgress.map((p) => [p.submission, p.newBest]));
  for (const s of r.submissions) {
    const e = s.edit;
    out.push(
      `${String(s.submission).padStart(3)}  ${String(s.parent ?? '–').padStart(6)}  ${String(s.budgetUsed).padStart(6)}  ${fmt.score(s.trainMean).padStart(8)}  ${best.get(s.submission) ? '  * ' : '    '}  ${(e?.class ?? 'unknown').padEnd(11)}  ${(e ? `+${e.linesAdded}/−${e.linesRemoved}` : '').padEnd(7)} ${e?.details[0] ?? ''}`,
    );
  }
  out.push('', ...diagnosticsText(r.diagnostics, fmt));
  if (r.problems.length > 0) out.push('', 'problems:', ...r.problems.map((p) => `  ${p}`));
  return `${out.join('\n')}\n`;
}

export const analyzeCommand: CliCommand = {
  name: 'analyze',
  summary: 'Classify an edit (identical / parametric / structural) between two policies, or analyse a whole run',
  usage:
    'policyforge analyze <parent> <child> [--dir WORKSPACE] [--json]\n' +
    '         each side: a folder (workspace, policy/ or checkpoint), a submission number or a checkpoint id of the run in --dir (default .)\n' +
    '       policyforge analyze --run DIR [--json]',
  async run(argv) {
    const { values, positionals } = parse(argv, { json: { type: 'boolean' }, run: { type: 'string' }, dir: { type: 'string' } });
    if (values.run !== undefined) {
      if (positionals.length > 0) throw new UsageError('give either --run DIR or two folders, not both');
      const r = await analyzeRun(values.run);
      process.stdout.write(values.json ? `${JSON.stringify(r, null, 2)}\n` : runText(r));
      return r.submissions.length > 0 ? ExitCode.ok : ExitCode.failed;
    }
    if (positionals.length !== 2) throw new UsageError('give a parent and a child folder (or --run DIR)');
    const refs = await Promise.all(positionals.map((p) => resolvePolicyRef(values.dir ?? '.', p)));
    for (const ref of refs) {
      if (!ref.ok) {
        process.stderr.write(`policyforge analyze: ${ref.error}\n`);
        return ExitCode.failed;
      }
    }
    const [parentDir, childDir] = refs.map((ref) => (ref.ok ? ref.dir : ''));
    const r = await analyzeEdit(parentDir!, childDir!);
    if (!r.ok) {
      process.stderr.write(`policyforge analyze: ${r.error}\n`);
      return ExitCode.failed;
    }
    process.stdout.write(values.json ? `${JSON.stringify(r.analysis, null, 2)}\n` : editText(r.analysis));
    return ExitCode.ok;
  },
};
