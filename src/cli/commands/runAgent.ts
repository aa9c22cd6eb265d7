/**
 * `policyforge run --agent-cmd "<command>"` (or `--agent <preset>`): a whole run driven by an
 * external coding agent. `run.ts` hands over here when either is given.
 */
import { agentStatusLines } from '../../agents/agentRecord';
import { runExternalAgent } from '../../agents/external/launcher';
import { AGENT_PRESETS, findPreset } from '../../agents/external/presets';
import { parse, parseIntArg } from '../args';
import { ExitCode, UsageError } from '../command';
import { listArg, openAgentSession } from './agentSession';
import { formatReport } from './format';
import { printJson } from './runClient';

export const RUN_AGENT_USAGE = `policyforge run --env ID (--agent-cmd "COMMAND" | --agent ${AGENT_PRESETS.map((p) => p.name).join('|')}) [--agent-env NAME,...] [--time-limit SECONDS] [--retries N] [--retry-backoff-ms MS] [--grace SECONDS] [--budget N] [--param name=value]... [--dir DIR] [--json] [--quiet]`;

/** True when `policyforge run` is asked for an external agent rather than a built-in one. */
export function externalAgentRequested(argv: readonly string[]): boolean {
  return argv.some(
    (a, i) =>
      a === '--agent-cmd' || a.startsWith('--agent-cmd=') || (a === '--agent' && findPreset(argv[i + 1] ?? '') !== undefined) || (a.startsWith('--agent=') && findPreset(a.slice('--agent='.length)) !== undefined),
  );
}

export async function runWithExternalAgent(argv: string[]): Promise<number> {
  const { values } = parse(
    argv,
    {
      env: { type: 'string' },
      agent: { type: 'string' },
      'agent-cmd': { type: 'string' },
      'agent-env': { type: 'string', multiple: true },
      'time-limit': { type: 'string' },
      retries: { type: 'string' },
      'retry-backoff-ms': { type: 'string' },
      grace: { type: 'string' },
      budget: { type: 'string' },
      param: { type: 'string', multiple: true },
      dir: { type: 'string' },
      json: { type: 'boolean' },
      quiet: { type: 'boolean' },
    },
    false,
  );
  if (values.agent && values['agent-cmd']) throw new UsageError('give --agent PRESET or --agent-cmd COMMAND, not both');
  const preset = values.agent ? findPreset(values.agent) : undefined;
  if (values.agent && !preset) throw new UsageError(`unknown agent preset "${values.agent}"; presets: ${AGENT_PRESETS.map((p) => p.name).join(', ')}`);
  const command = preset?.command ?? values['agent-cmd'];
  if (!command?.trim()) throw new UsageError('--agent-cmd needs a command line');
  const allowEnv = [...(preset?.env ?? []), ...listArg(values['agent-env'])];
  const bad = allowEnv.find((n) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
  if (bad) throw new UsageError(`--agent-env takes variable names, got "${bad}"`);
  const timeLimitS = parseIntArg('time-limit', values['time-limit'], 3600, 1);
  const retries = parseIntArg('retries', values.retries, 5, 0);
  const backoffMs = parseIntArg('retry-backoff-ms', values['retry-backoff-ms'], 4000, 0);
  const graceS = parseIntArg('grace', values.grace, 10, 0);
  const json = values.json ?? false;
  const session = await openAgentSession(values, { json, quiet: values.quiet });
  try {
    const result = await runExternalAgent({ workspace: session.workspace, command, client: session.client, allowEnv, timeLimitMs: timeLimitS * 1000, retries, backoffMs, graceMs: graceS * 1000, log: session.say });
    const history = (await session.client.status()).history;
    if (json) printJson({ ok: true, workspace: session.workspace, ending: result.ending, transcript: result.transcript, agent: result.record, report: result.report });
    else process.stdout.write(`${formatReport(result.report, history)}${agentStatusLines(session.workspace).join('\n')}\ntranscript: ${result.transcript}\nworkspace: ${session.workspace}\n`);
    return ExitCode.ok;
  } finally {
    await session.close();
  }
}
