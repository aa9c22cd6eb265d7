/** `policyforge init`: a new run workspace (starter policy, env.d.ts, AGENTS.md, frozen run.json). */
import * as path from 'node:path';
import { agentsMd } from '../../agents/agentsMd';
import { policyforgeCommand } from '../../agents/cliCommand';
import { createRegistry } from '../../envs';
import { initWorkspace } from '../../runner/workspace';
import { parse, parseIntArg, parseParams } from '../args';
import { ExitCode, UsageError, type CliCommand } from '../command';
import { printJson } from './runClient';
import { arenaInitText } from './arenaWorkspace';

export const initCommand: CliCommand = {
  name: 'init',
  summary: 'Create a run workspace: starter policy, AGENTS.md and the frozen run config',
  usage:
    'policyforge init --env ID [--budget N] [--practice-budget N] [--param name=value]... [--pool N] [--validation N] [--held-out N] [--min-per-submit N] [--max-per-submit N] [--max-submissions N] [--selection paper|candidates|gated] [--gate-delta X] [--elite K] [--plugin FILE]... [--arena name=value]... [--force] [--json] [DIR]\n' +
    '  --arena  arena games only: screenGames, deepGames, screenPass, promotionMargin, maxPool, validationGames, assessmentGames',
  async run(argv) {
    const { values, positionals } = parse(argv, {
      env: { type: 'string' },
      budget: { type: 'string' },
      'practice-budget': { type: 'string' },
      param: { type: 'string', multiple: true },
      pool: { type: 'string' },
      validation: { type: 'string' },
      'held-out': { type: 'string' },
      'min-per-submit': { type: 'string' },
      'max-per-submit': { type: 'string' },
      'max-submissions': { type: 'string' },
      selection: { type: 'string' },
      'gate-delta': { type: 'string' },
      elite: { type: 'string' },
      plugin: { type: 'string', multiple: true },
      arena: { type: 'string', multiple: true },
      force: { type: 'boolean' },
      json: { type: 'boolean' },
    });
    if (!values.env) throw new UsageError('--env is required (see `policyforge envs`)');
    if (positionals.length > 1) throw new UsageError(`expected at most one DIR, got ${positionals.length}`);
    const dir = path.resolve(positionals[0] ?? '.');
    const opt = (name: string, v: string | undefined): number | undefined => (v === undefined ? undefined : parseIntArg(name, v, 0, 1));
    const registry = createRegistry();
    const plugins = (values.plugin ?? []).map((p) => path.resolve(p));
    for (const p of plugins) {
      const r = registry.loadPlugin(p);
      if (!r.ok) throw new UsageError(r.error.message);
    }
    const input = {
      envId: values.env,
      params: parseParams(values.param) as Record<string, number | boolean | string>,
      budget: opt('budget', values.budget),
      practiceBudget: values['practice-budget'] === undefined ? undefined : parseIntArg('practice-budget', values['practice-budget'], 0, 0),
      poolSize: opt('pool', values.pool),
      validationCases: opt('validation', values.validation),
      heldOutCases: opt('held-out', values['held-out']),
      minEpisodesPerSubmit: opt('min-per-submit', values['min-per-submit']),
      maxEpisodesPerSubmit: opt('max-per-submit', values['max-per-submit']),
      maxSubmissions: opt('max-submissions', values['max-submissions']),
      selectionMode: values.selection as 'paper' | 'candidates' | 'gated' | undefined,
      gateDelta: values['gate-delta'] === undefined ? undefined : Number(values['gate-delta']),
      eliteK: opt('elite', values.elite),
      plugins,
      ...(values.arena ? { arena: parseParams(values.arena) } : {}),
    };
    const result = initWorkspace(dir, JSON.parse(JSON.stringify(input)) as typeof input, registry, { force: values.force, extraFiles: (def, config) => ({ 'AGENTS.md': agentsMd(def, config, policyforgeCommand()) }) });
    if (!result.ok) {
      if (values.json) printJson({ ok: false, error: { reason: 'init_failed', message: result.error } });
      else process.stderr.write(`policyforge init: ${result.error}\n`);
      return ExitCode.failed;
    }
    // Only what the agent may read: the runner's own state under .policyforge/ is not listed.
    const files = result.files.filter((f) => !f.startsWith('.policyforge/'));
    if (values.json) {
      printJson({ ok: true, workspace: dir, config: result.config, files });
    } else {
      const c = result.config;
      if (c.arena) process.stdout.write(arenaInitText(c.envId, c.budget, c.arena, dir, files));
      else process.stdout.write(
        `created ${c.envId} run in ${dir}\n  budget ${c.budget} episodes, pool 0-${c.poolSize - 1}, validation ${c.validationCases}, held-out ${c.heldOutCases}, selection ${c.selectionMode}\n  files: ${files.join(', ')}\nnext: edit policy/policy.ts, then \`policyforge submit --cases 0-7\` (read AGENTS.md)\n`,
      );
    }
    return ExitCode.ok;
  },
};
