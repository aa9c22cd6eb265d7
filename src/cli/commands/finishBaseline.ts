/**
 * `policyforge finish --baseline autotune`: after the run's report, autotune given the same budget
 * on the same cases (src/agents/autotuneBaseline.ts), placed in report.json as
 * `baselines.autotune` beside the starter and the uniform random policy.
 */
import { addAutotuneBaseline } from '../../agents/autotuneBaseline';
import { createRegistry } from '../../envs';
import type { RunReport } from '../../protocol/feedback';
import { UsageError } from '../command';

export const FINISH_BASELINES = ['autotune'] as const;

export function checkBaseline(name: string | undefined): void {
  if (name !== undefined && !(FINISH_BASELINES as readonly string[]).includes(name)) {
    throw new UsageError(`--baseline must be ${FINISH_BASELINES.join(' or ')}, got "${name}"`);
  }
}

/** The report with the autotune baseline (run now, or the one recorded by an earlier request). */
export async function reportWithAutotune(workspace: string, quiet: boolean): Promise<RunReport> {
  const say = (line: string): void => {
    if (!quiet) process.stderr.write(`${line}\n`);
  };
  const registry = createRegistry();
  const { report, reused } = await addAutotuneBaseline(workspace, { registry, log: say });
  say(reused ? 'autotune baseline: already recorded for this run' : 'autotune baseline: recorded in .policyforge/baselines/autotune.json');
  return report;
}
