/**
 * `policyforge agent`: the built-in LM agent on an OpenAI-compatible chat-completions endpoint,
 * driving a new run (or the one --dir names) until the budget, FINISH or a cap ends it; then the
 * run is finished and the report printed with the spend, unless --leave-open.
 */
import { addAgentToReport, agentStatusLines } from '../../agents/agentRecord';
import { Ledger } from '../../agents/lm/ledger';
import { runLmAgent } from '../../agents/lm/loop';
import { openAiModel } from '../../agents/lm/openaiModel';
import { finishOrAwaitReport } from '../../agents/runEnd';
import { parse, parseIntArg } from '../args';
import { ExitCode, UsageError, type CliCommand } from '../command';
import { openAgentSession } from './agentSession';
import { formatReport, formatStatus } from './format';
import { printJson } from './runClient';

function parseNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!value.trim() || !Number.isFinite(n) || n < 0) throw new UsageError(`--${name} must be a non-negative number, got "${value}"`);
  return n;
}

export const agentCommand: CliCommand = {
  name: 'agent',
  summary: 'Run the built-in LM agent (any OpenAI-compatible endpoint) with token and cost caps',
  usage:
    'policyforge agent (--env ID [--budget N] [--param name=value]... | --dir DIR) --base-url URL --model NAME [--api-key-env VAR] [--price-in USD_PER_1M] [--price-out USD_PER_1M] [--max-tokens N] [--max-cost USD] [--time-limit SECONDS] [--max-turns N] [--batch N] [--max-reply-tokens N] [--temperature T] [--leave-open] [--json] [--quiet]',
  async run(argv) {
    const { values } = parse(
      argv,
      {
        env: { type: 'string' },
        dir: { type: 'string' },
        budget: { type: 'string' },
        param: { type: 'string', multiple: true },
        'base-url': { type: 'string' },
        model: { type: 'string' },
        'api-key-env': { type: 'string' },
        'price-in': { type: 'string' },
        'price-out': { type: 'string' },
        'max-tokens': { type: 'string' },
        'max-cost': { type: 'string' },
        'time-limit': { type: 'string' },
        'max-turns': { type: 'string' },
        batch: { type: 'string' },
        'max-reply-tokens': { type: 'string' },
        temperature: { type: 'string' },
        'leave-open': { type: 'boolean' },
        json: { type: 'boolean' },
        quiet: { type: 'boolean' },
      },
      false,
    );
    const baseUrl = values['base-url'] ?? process.env.OPENAI_BASE_URL;
    if (!baseUrl) throw new UsageError('--base-url is required (or OPENAI_BASE_URL), e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1');
    try {
      new URL(baseUrl);
    } catch {
      throw new UsageError(`--base-url is not a URL: "${baseUrl}"`);
    }
    if (!values.model) throw new UsageError('--model is required');
    const keyVar = values['api-key-env'] ?? 'OPENAI_API_KEY';
    const apiKey = process.env[keyVar];
    if (values['api-key-env'] && !apiKey) throw new UsageError(`--api-key-env names ${keyVar}, which is not set`);
    const timeLimitS = values['time-limit'] === undefined ? undefined : parseIntArg('time-limit', values['time-limit'], 0, 1);
    const ledger = new Ledger(
      { inPerMTok: parseNumber('price-in', values['price-in']) ?? 0, outPerMTok: parseNumber('price-out', values['price-out']) ?? 0 },
      {
        tokens: values['max-tokens'] === undefined ? undefined : parseIntArg('max-tokens', values['max-tokens'], 0, 1),
        cost: parseNumber('max-cost', values['max-cost']),
        timeLimitMs: timeLimitS === undefined ? undefined : timeLimitS * 1000,
        turns: parseIntArg('max-turns', values['max-turns'], 50, 1),
      },
    );
    const model = openAiModel({ baseUrl, model: values.model, apiKey, temperature: parseNumber('temperature', values.temperature) });
    const json = values.json ?? false;
    const session = await openAgentSession(values, { json, quiet: values.quiet });
    const say = session.say;
    try {
      const result = await runLmAgent({
        client: session.client,
        workspace: session.workspace,
        model,
        ledger,
        batch: parseIntArg('batch', values.batch, 8, 1),
        maxReplyTokens: parseIntArg('max-reply-tokens', values['max-reply-tokens'], 4096, 1),
        log: say,
      });
      if (model.estimated) say(`note: ${baseUrl} sent no token usage; tokens were estimated from the text (4 characters a token)`);
      const finished = values['leave-open'] ? null : await finishOrAwaitReport(session.client);
      const report = finished && (addAgentToReport(session.workspace, result.record) ?? { ...finished, agent: result.record });
      const status = await session.client.status();
      if (json) printJson({ ok: true, workspace: session.workspace, ending: result.ending, turns: result.turns, spend: result.record.spend, agent: result.record, report, status });
      else process.stdout.write(`${report ? formatReport(report, status.history) : formatStatus(status)}${agentStatusLines(session.workspace).join('\n')}\ntranscripts: ${session.workspace}/.policyforge/agent/lm/\nworkspace: ${session.workspace}\n`);
      return result.ending === 'model_error' ? ExitCode.failed : ExitCode.ok;
    } finally {
      await session.close();
    }
  },
};
