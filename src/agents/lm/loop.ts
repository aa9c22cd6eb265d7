/**
 * The LM agent: an evolution loop over a language model. Each turn it builds the prompt (task,
 * files, history, feedback, the previous outcome), asks the model, applies the edit, submits it,
 * and keeps the turn's transcript. The same loop runs from the CLI and in VS Code; only the
 * ChatModel differs. It stops when the budget is spent, the model says FINISH, a cap is reached,
 * it is cancelled, or the model endpoint keeps failing. It finishes the run only on FINISH (a
 * FINISH after a refused edit is ignored: the model sees why); the caller decides what a loop
 * stopped otherwise means for the run.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SubmissionSummary } from '../../protocol/feedback';
import { RunClientError, type RunnerClient } from '../../runner/client';
import { workspacePaths } from '../../runner/paths';
import { agentDir, writeAgentRecord, type AgentEnding, type AgentRecord, type AgentSpend } from '../agentRecord';
import { applyEdits, parseReply } from './edits';
import type { Ledger } from './ledger';
import { ModelCallError, type ChatModel, type ModelReply } from './model';
import { estimateTokens } from './openaiModel';
import { buildPrompt } from './prompt';

export interface LmAgentOptions {
  client: RunnerClient;
  workspace: string;
  model: ChatModel;
  ledger: Ledger;
  /** Bound on one reply's tokens. Default 4096. */
  maxReplyTokens?: number;
  /** Episodes of a submit whose reply names none. Default 8. */
  batch?: number;
  signal?: AbortSignal;
  /** Retries of a call that failed in a retryable way (rate limit, 5xx, network); backoff doubles from `retryBackoffMs`. */
  modelRetries?: number;
  retryBackoffMs?: number;
  log?: (line: string) => void;
  /** After every call and submission: what was spent so far. */
  onSpend?: (spend: AgentSpend, turn: number) => void;
}

export interface LmAgentResult {
  ending: AgentEnding;
  detail: string;
  turns: number;
  record: AgentRecord;
}

export interface TurnTranscript {
  turn: number;
  at: string;
  model: string;
  prompt: { role: string; content: string }[];
  response: string | null;
  usage: { tokensIn: number; tokensOut: number; cost: number } | null;
  /** What became of the reply: applied files, the submission, or why nothing ran. */
  outcome: string;
  written: string[];
  submission: number | null;
}

export const TURNS_DIR = 'lm';

export async function runLmAgent(opts: LmAgentOptions): Promise<LmAgentResult> {
  const { client, workspace, model, ledger } = opts;
  const log = opts.log ?? (() => undefined);
  const signal = opts.signal ?? new AbortController().signal;
  const info = await client.info();
  const taskText = fs.readFileSync(workspacePaths(workspace).agentsMd, 'utf8');
  const turnsDir = path.join(agentDir(workspace), TURNS_DIR);
  fs.mkdirSync(turnsDir, { recursive: true });
  const caps = ledger.caps;
  const record: AgentRecord = {
    kind: 'lm',
    agent: model.id,
    startedAt: new Date().toISOString(),
    spend: ledger.spend,
    caps: { tokens: caps.tokens, cost: caps.cost, timeLimitS: caps.timeLimitMs === undefined ? undefined : Math.round(caps.timeLimitMs / 1000) },
    submissions: [],
  };
  writeAgentRecord(workspace, record);
  let latest: SubmissionSummary | null = (await client.status()).history.length ? await client.feedback() : null;
  let outcome: string | null = null;
  let ending: AgentEnding | null = null;
  let detail = '';
  let turn = 0;
  const save = (t: TurnTranscript): void => {
    fs.writeFileSync(path.join(turnsDir, `turn-${String(t.turn).padStart(4, '0')}.json`), `${JSON.stringify(t, null, 2)}\n`);
    writeAgentRecord(workspace, record);
    opts.onSpend?.(ledger.spend, t.turn);
  };

  while (ending === null) {
    turn++;
    if (signal.aborted) {
      ending = 'cancelled';
      break;
    }
    const status = await client.status();
    if (status.phase !== 'agent' || status.budget.remaining === 0) {
      ending = status.budget.remaining === 0 ? 'budget_spent' : 'agent_finished';
      break;
    }
    const messages = buildPrompt({ workspace, taskText, status, latest, outcome, turn });
    const gate = ledger.nextCall(turn, estimateTokens(messages.map((m) => m.content).join('\n')), opts.maxReplyTokens ?? 4096);
    if (!gate.ok) {
      ending = gate.ending;
      detail = gate.detail;
      break;
    }
    log(`turn ${turn}: asking ${model.id}`);
    const t: TurnTranscript = { turn, at: new Date().toISOString(), model: model.id, prompt: messages, response: null, usage: null, outcome: '', written: [], submission: null };
    const called = await callModel(opts, messages, gate.maxOutputTokens, signal, ledger.msLeft(), log);
    if ('ending' in called) {
      ending = called.ending;
      detail = called.detail;
      t.outcome = `no reply: ${detail}`;
      save(t);
      break;
    }
    const reply = called.reply;
    ledger.record(reply.tokensIn, reply.tokensOut);
    t.response = reply.text;
    t.usage = { tokensIn: reply.tokensIn, tokensOut: reply.tokensOut, cost: ledger.costOf(reply.tokensIn, reply.tokensOut) };
    const parsed = parseReply(reply.text);
    const refused = (why: string): void => {
      outcome = `${why}\nNothing was submitted and no episodes were charged; the files are as shown above.`;
      t.outcome = outcome;
      log(`turn ${turn}: ${why.split('\n')[0]}`);
    };
    if (parsed.problems.length) {
      refused(`Your edit could not be read, so none of it was applied:\n- ${parsed.problems.join('\n- ')}`);
      save(t);
      continue;
    }
    const applied = applyEdits(workspace, parsed.blocks);
    if (!applied.ok) {
      refused(`Your edit did not apply, so none of it was applied:\n- ${applied.errors.join('\n- ')}`);
      save(t);
      continue;
    }
    t.written = applied.written;
    if (parsed.blocks.length === 0 && !parsed.submit) {
      if (parsed.finish) {
        t.outcome = 'FINISH: the run ends';
        save(t);
        ending = 'agent_finished';
        await client.finish();
        break;
      }
      refused('Your reply had no FILE or EDIT block and no SUBMIT line.');
      save(t);
      continue;
    }
    const episodes = Math.max(info.minEpisodesPerSubmit, Math.min(opts.batch ?? 8, info.maxEpisodesPerSubmit, status.budget.remaining));
    const params = parsed.submit ?? { episodes };
    const edited = applied.written.length ? `Applied to ${applied.written.join(', ')}. ` : '';
    try {
      const s = await client.submit({ ...params, note: `LM agent turn ${turn}` });
      latest = s;
      t.submission = s.submission;
      record.submissions.push({ submission: s.submission, at: new Date().toISOString(), transcript: `${TURNS_DIR}/turn-${String(turn).padStart(4, '0')}.json` });
      outcome = `${edited}Submitted as #${s.submission}; its feedback is under "Latest feedback".`;
      t.outcome = outcome;
      log(`turn ${turn}: #${s.submission} mean ${s.stats.mean.toFixed(2)} (${s.stats.okCount}/${s.stats.count} ok), budget ${s.budget.remaining} left`);
    } catch (e) {
      if (!(e instanceof RunClientError)) throw e;
      refused(`${edited}The run refused the submit (${e.reason}): ${e.message}${diagnosticsText(e.data)}`);
    }
    save(t);
    if (parsed.finish && t.submission !== null) {
      ending = 'agent_finished';
      if ((await client.status()).phase === 'agent') await client.finish();
    }
  }
  record.ending = ending;
  if (detail) record.detail = detail;
  record.endedAt = new Date().toISOString();
  writeAgentRecord(workspace, record);
  opts.onSpend?.(ledger.spend, turn);
  return { ending, detail, turns: turn, record };
}

async function callModel(
  opts: LmAgentOptions,
  messages: ReturnType<typeof buildPrompt>,
  maxOutputTokens: number,
  signal: AbortSignal,
  msLeft: number,
  log: (line: string) => void,
): Promise<{ reply: ModelReply } | { ending: AgentEnding; detail: string }> {
  const retries = opts.modelRetries ?? 3;
  const deadline = Number.isFinite(msLeft) ? AbortSignal.timeout(Math.max(1, msLeft)) : null;
  const callSignal = deadline ? AbortSignal.any([signal, deadline]) : signal;
  for (let attempt = 0; ; attempt++) {
    try {
      return { reply: await opts.model.complete({ messages, maxOutputTokens, signal: callSignal }) };
    } catch (e) {
      if (signal.aborted) return { ending: 'cancelled', detail: '' };
      if (deadline?.aborted) return { ending: 'time_limit', detail: 'during a model call' };
      const retryable = e instanceof ModelCallError ? e.retryable : false;
      const message = e instanceof Error ? e.message : String(e);
      if (!retryable || attempt >= retries) return { ending: 'model_error', detail: message };
      const wait = (opts.retryBackoffMs ?? 1000) * 2 ** attempt;
      log(`model call failed (${message}); retrying in ${wait} ms`);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

function diagnosticsText(data: Record<string, unknown>): string {
  const diags = Array.isArray(data.diagnostics) ? (data.diagnostics as { file?: string; line?: number; message?: string }[]) : [];
  return diags
    .slice(0, 10)
    .map((d) => `\n  ${d.file ?? ''}:${d.line ?? ''} ${String(d.message ?? '').split('\n')[0]}`)
    .join('');
}
