/** One edit, end to end: read both bundles, classify, size, measure, describe. */
import { ANALYSIS_VERSION, type CheckpointMetrics, type EditAnalysis } from '../protocol/analysis';
import { readBundle, type Bundle } from './bundle';
import { classifyBundles } from './classify';
import { describeEdit } from './details';
import { editSize } from './editSize';
import { bundleMetrics } from './metrics';

export type EditResult = { ok: true; analysis: EditAnalysis } | { ok: false; error: string };
export type MetricsResult = { ok: true; metrics: CheckpointMetrics } | { ok: false; error: string };

/** Problems with the child come first: an edit that broke the build matters more than its shape. */
function issueLines(child: Bundle): string[] {
  const lines = child.issues.slice(0, 3).map((i) => `problem in ${i.file}: ${i.message}`);
  if (child.issues.length > 3) lines.push(`… and ${child.issues.length - 3} more problems`);
  return lines;
}

/** Classifies `child` against `parent` from bundles already read. */
export function analyzeBundles(parent: Bundle, child: Bundle, startedAt = performance.now()): EditAnalysis {
  const c = classifyBundles(parent, child);
  return {
    version: ANALYSIS_VERSION,
    class: c.class,
    cosmetic: c.cosmetic,
    parentHash: parent.contentHash,
    childHash: child.contentHash,
    literalChanges: c.literalChanges,
    structural: c.structural,
    size: editSize(parent, child),
    parentMetrics: bundleMetrics(parent),
    childMetrics: bundleMetrics(child),
    unreachable: { parent: parent.unreachable, child: child.unreachable },
    issues: [...parent.issues.map((i) => ({ ...i, file: `parent:${i.file}` })), ...child.issues],
    details: [...issueLines(child), ...describeEdit(c)],
    elapsedMs: performance.now() - startedAt,
  };
}

/** Classifies the edit from the policy in `parentDir` to the one in `childDir` (workspaces, policy folders or checkpoints). */
export async function analyzeEdit(parentDir: string, childDir: string): Promise<EditResult> {
  const startedAt = performance.now();
  const [parent, child] = await Promise.all([readBundle(parentDir), readBundle(childDir)]);
  if (!parent.ok) return { ok: false, error: `parent: ${parent.error}` };
  if (!child.ok) return { ok: false, error: `child: ${child.error}` };
  return { ok: true, analysis: analyzeBundles(parent.bundle, child.bundle, startedAt) };
}

export async function computeMetrics(dir: string): Promise<MetricsResult> {
  const b = await readBundle(dir);
  return b.ok ? { ok: true, metrics: bundleMetrics(b.bundle) } : { ok: false, error: b.error };
}
