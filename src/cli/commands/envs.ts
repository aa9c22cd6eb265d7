/** `policyforge envs`: lists the registered environments with their spaces and parameters. */
import { createRegistry } from '../../envs';
import type { SpaceDescription } from '../../protocol/spaces';
import { parse } from '../args';
import type { CliCommand } from '../command';

export const envsCommand: CliCommand = {
  name: 'envs',
  summary: 'List the environments with their spaces and parameters',
  usage: 'policyforge envs [--family PREFIX] [--plugin FILE]... [--json]',
  async run(argv) {
    const { values } = parse(argv, { json: { type: 'boolean' }, family: { type: 'string' }, plugin: { type: 'string', multiple: true } }, false);
    const registry = createRegistry();
    for (const p of values.plugin ?? []) {
      const r = registry.loadPlugin(p);
      if (!r.ok) process.stderr.write(`${r.error.message}\n`);
    }
    const defs = registry.list().filter((d) => !values.family || d.family.startsWith(values.family));
    const rows = defs.map((d) => {
      const { env } = registry.make(d.id);
      return {
        id: d.id,
        family: d.family,
        description: d.description,
        observationSpace: env.observationSpace.describe(),
        actionSpace: env.actionSpace.describe(),
        maxEpisodeSteps: d.maxEpisodeSteps,
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
      process.stdout.write(`  steps: ${r.maxEpisodeSteps ?? 'internal limit'}${params.length ? `  params: ${params.join(', ')}` : ''}\n\n`);
    }
    process.stdout.write(`${rows.length} environments\n`);
    return 0;
  },
};

export function formatSpace(d: SpaceDescription): string {
  switch (d.type) {
    case 'Box': {
      const lo = d.low.every((v) => v === d.low[0]) ? fmt(d.low[0]) : `[${d.low.map(fmt).join(', ')}]`;
      const hi = d.high.every((v) => v === d.high[0]) ? fmt(d.high[0]) : `[${d.high.map(fmt).join(', ')}]`;
      return `Box(${lo}, ${hi}, (${d.shape.join(', ')}${d.shape.length === 1 ? ',' : ''}), ${d.dtype})`;
    }
    case 'Discrete':
      return d.start === 0 ? `Discrete(${d.n})` : `Discrete(${d.n}, start=${d.start})`;
    case 'MultiDiscrete':
      return `MultiDiscrete([${d.nvec.join(', ')}])`;
    case 'MultiBinary':
      return `MultiBinary(${d.n})`;
    case 'Text':
      return `Text(${d.minLength}..${d.maxLength})`;
    case 'Dict':
      return `Dict(${Object.entries(d.spaces).map(([k, s]) => `${k}: ${formatSpace(s)}`).join(', ')})`;
    case 'Tuple':
      return `Tuple(${d.spaces.map(formatSpace).join(', ')})`;
  }
}

function fmt(v: number | string | undefined): string {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(8)));
  return String(v);
}
