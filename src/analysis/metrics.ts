/** Checkpoint metrics: the per-module metrics of a bundle, summed (or maxed) over its modules. */
import type { CheckpointMetrics } from '../protocol/analysis';
import type { Bundle } from './bundle';

export function bundleMetrics(bundle: Bundle): CheckpointMetrics {
  const m: CheckpointMetrics = {
    contentHash: bundle.contentHash,
    files: bundle.modules.length,
    sourceLines: 0,
    totalLines: 0,
    functions: 0,
    classes: 0,
    branches: 0,
    loops: 0,
    cyclomaticTotal: 0,
    cyclomaticMax: 0,
    maxNestingDepth: 0,
    stateFields: 0,
    literals: 0,
  };
  for (const { facts } of bundle.modules) {
    const f = facts.metrics;
    m.sourceLines += f.sourceLines;
    m.totalLines += f.totalLines;
    m.functions += f.functions;
    m.classes += f.classes;
    m.branches += f.branches;
    m.loops += f.loops;
    m.cyclomaticTotal += f.cyclomaticTotal;
    m.cyclomaticMax = Math.max(m.cyclomaticMax, f.cyclomaticMax);
    m.maxNestingDepth = Math.max(m.maxNestingDepth, f.maxNestingDepth);
    m.stateFields += f.stateFields;
    m.literals += f.literals;
  }
  return m;
}
