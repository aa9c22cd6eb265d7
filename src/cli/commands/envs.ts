/**
 * `policyforge envs`: lists the registered environments with their spaces, step limit (the most
 * steps an episode can take at the default parameters; `stepLimit` gives the range where it
 * differs by episode, as BabyAI's does by instruction), failure
 * return (what a failed episode scores, at the default parameters) and parameters.
 */
import { createRegistry } from '../../envs';
import type { StepLimitRange } from '../../envs/core/env';
import { failureReturnOf } from '../../envs/core/failureReturn';
import { resolveParams } from '../../envs/core/params';
import { matchEnvironments, suggestQueries } from '../../envs/core/envSearch';
import { formatSpace } from '../../envs/core/formatSpace';
import { parse } from '../args';
import { ExitCode, type CliCommand } from '../command';

export const envsCommand: CliCommand = {
  name: 'envs',
  summary: 'List the environments with their spaces and parameters',
  usage: 'policyforge envs [--family QUERY] [--plugin FILE]... [--json]   (QUERY: a family prefix or part of an id, e.g. minigrid, KeyCorridor, MiniGrid-DoorKey)',
  async run(argv) {
    const { values } = parse(argv, { json: { type: 'boolean' }, family: { type: 'string' }, plugin: { type: 'string', multiple: true } }, false);
    const registry = createRegistry();
    for (const p of values.plugin ?? []) {
      const r = registry.loadPlugin(p);
      if (!r.ok) process.stderr.write(`${r.error.message}\n`);
    }
    const all = registry.list();
    const defs = values.family ? matchEnvironments(all, values.family) : all;
    if (defs.length === 0) {
      const near = suggestQueries(all, values.family ?? '');
      process.stderr.write(`policyforge envs: no environment's family starts with "${values.family}" and no id contains it${near.length ? `; did you mean ${near.map((n) => `--family ${n}`).join(', ')}?` : ''}\n`);
      return ExitCode.failed;
    }
    const rows = defs.map((d) => {
      const { env } = registry.make(d.id);
      // What the worker hands the policy as ctx.maxEpisodeSteps, from the environment itself: for
      // MiniGrid its max_steps at the default size, for BabyAI the range its instructions span.
      const stepLimit = env.stepLimitRange();
      return {
        id: d.id,
        family: d.family,
        description: d.description,
        observationSpace: env.observationSpace.describe(),
        actionSpace: env.actionSpace.describe(),
        maxEpisodeSteps: stepLimit?.max ?? null,
        stepLimit,
        failureReturn: defaultFailureReturn(d),
        params: d.params,
      };
    });
    if (values.json) {
      process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      return 0;
    }
    for (const r of rows) {
      process.stdout.write(`${r.id}  [${r.family}]\n  ${r.description}\n`);
      process.stdout.write(`  observation: ${formatSpace(r.observationSpace)}\n  action:      ${formatSpace(r.actionSpace)}\n`);
      const params = Object.entries(r.params).map(([k, p]) => `${k}=${JSON.stringify(p.default)}`);
      const failure = r.failureReturn === null ? 'none declared' : String(r.failureReturn);
      process.stdout.write(`  steps: ${stepsText(r.stepLimit)}  failure return: ${failure}${params.length ? `  params: ${params.join(', ')}` : ''}\n\n`);
    }
    process.stdout.write(`${rows.length} environments\n`);
    return 0;
  },
};

/** The step limit as `envs` prints it: one number, or the range an episode's limit falls in and its rule. */
function stepsText(limit: StepLimitRange | null): string {
  if (limit === null) return 'no limit (an episode ends when it terminates or at the episode time limit)';
  if (limit.min === limit.max) return String(limit.max);
  return `${limit.min}–${limit.max} by episode${limit.rule ? ` (${limit.rule})` : ''}`;
}

/**
 * The failure return at the default parameters, rounded as AGENTS.md prints it; null for a plugin
 * that declares none (a run on it is refused, with the reason).
 */
function defaultFailureReturn(d: Parameters<typeof failureReturnOf>[0] & { params: Parameters<typeof resolveParams>[1] }): number | null {
  try {
    return +failureReturnOf(d, resolveParams(d.id, d.params)).toFixed(3);
  } catch {
    return null;
  }
}
