/**
 * What an agent launched by PolicyForge leaves beside its run: `.policyforge/agent/` holds the
 * agent's record (`agent.json`: who ran, how the run ended, what it spent) and its transcripts.
 * The record is also copied into `report.json` as `agent`, so the report says how the run ended.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readJson, writeJsonAtomic } from '../runner/atomicFs';
import { workspacePaths } from '../runner/paths';

/**
 * How an agent's run ended:
 * - `agent_exited`: the agent stopped on its own with budget left (the launcher then finished the run);
 * - `agent_finished`: the agent ended the run itself (`finish`);
 * - `budget_spent`: the last episode of the budget was charged;
 * - `time_limit`: the wall-clock limit was reached;
 * - `retries_exhausted`: the agent kept failing and every retry was used;
 * - `token_cap`, `cost_cap`: the LM agent's spend reached a cap;
 * - `turn_limit`: the LM agent used all its turns;
 * - `cancelled`: the user stopped it;
 * - `model_error`: the model endpoint failed in a way a retry does not fix.
 */
export type AgentEnding =
  | 'agent_exited'
  | 'agent_finished'
  | 'budget_spent'
  | 'time_limit'
  | 'retries_exhausted'
  | 'token_cap'
  | 'cost_cap'
  | 'turn_limit'
  | 'cancelled'
  | 'model_error';

export const ENDING_TEXT: Record<AgentEnding, string> = {
  agent_exited: 'the agent exited with budget left',
  agent_finished: 'the agent finished the run',
  budget_spent: 'the budget was spent',
  time_limit: 'the time limit was reached',
  retries_exhausted: 'the agent kept failing and every retry was used',
  token_cap: 'the token cap was reached',
  cost_cap: 'the cost cap was reached',
  turn_limit: 'the turn limit was reached',
  cancelled: 'it was cancelled',
  model_error: 'the model endpoint failed',
};

/** Tokens and money an LM agent spent; `cost` is in the unit of the configured prices (USD by convention). */
export interface AgentSpend {
  calls: number;
  tokensIn: number;
  tokensOut: number;
  cost: number;
}

export interface AgentRecord {
  kind: 'external' | 'lm';
  /** The command line (external) or `vendor/model` (LM). */
  agent: string;
  startedAt: string;
  endedAt?: string;
  ending?: AgentEnding;
  /** One line for people: the ending and anything that explains it. */
  detail?: string;
  spend?: AgentSpend;
  caps?: { tokens?: number; cost?: number; timeLimitS?: number };
  /** Each submission this agent made, with where its transcript shows it. */
  submissions: { submission: number; at: string; transcript: string; line?: number }[];
  /** External agents: each start of the process. */
  attempts?: { attempt: number; startedAt: string; endedAt?: string; exitCode: number | null; signal: string | null }[];
}

export function agentDir(workspace: string): string {
  return path.join(workspacePaths(workspace).state, 'agent');
}

export function agentRecordFile(workspace: string): string {
  return path.join(agentDir(workspace), 'agent.json');
}

export function writeAgentRecord(workspace: string, record: AgentRecord): void {
  fs.mkdirSync(agentDir(workspace), { recursive: true });
  writeJsonAtomic(agentRecordFile(workspace), record);
}

export function readAgentRecord(workspace: string): AgentRecord | undefined {
  return readJson<AgentRecord>(agentRecordFile(workspace));
}

/**
 * Adds the record to `report.json` as `agent` once the runner wrote the report. The runner knows
 * nothing of who drove the run; the report is the document people keep, so the ending goes there.
 * Returns false when there is no report yet.
 */
export function addAgentToReport(workspace: string, record: AgentRecord): boolean {
  const file = workspacePaths(workspace).report;
  const report = readJson<Record<string, unknown>>(file);
  if (!report) return false;
  writeJsonAtomic(file, { ...report, agent: record });
  return true;
}

/** "12 calls, 30.1k tokens in / 4.2k out, cost 0.0123" — the same words in status, report and the editor. */
export function spendText(spend: AgentSpend, caps?: AgentRecord['caps']): string {
  const k = (n: number): string => (n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : String(n));
  const tokenCap = caps?.tokens ? ` of ${k(caps.tokens)}` : '';
  const costCap = caps?.cost ? ` of ${caps.cost}` : '';
  return `${spend.calls} call${spend.calls === 1 ? '' : 's'}, ${k(spend.tokensIn)} tokens in / ${k(spend.tokensOut)} out${tokenCap}, cost ${formatCost(spend.cost)}${costCap}`;
}

export function formatCost(cost: number): string {
  return cost === 0 ? '0' : cost < 0.01 ? cost.toPrecision(2) : cost.toFixed(cost < 10 ? 3 : 2);
}

/** The lines `status` and the CLI print about the workspace's agent, or none when no agent ran here. */
export function agentStatusLines(workspace: string): string[] {
  const r = readAgentRecord(workspace);
  if (!r) return [];
  const lines = [`agent ${r.kind === 'lm' ? 'LM ' : ''}${r.agent}${r.ending ? `: ended because ${ENDING_TEXT[r.ending]}${r.detail ? ` (${r.detail})` : ''}` : ' (running)'}`];
  if (r.spend) lines.push(`  spend ${spendText(r.spend, r.caps)}`);
  return lines;
}
