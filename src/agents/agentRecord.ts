/**
 * What an agent launched by PolicyForge leaves beside its run: `.policyforge/agent/` holds the
 * agent's record (`agent.json`: who ran, how the run ended, what it spent) and its transcripts.
 * The record's shape is src/protocol/agent.ts; it is also added to `report.json` as `agent`, so the
 * report says how the run ended.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentRecordSchema, type AgentRecord } from '../protocol/agent';
import { checkWith, parseRunReport } from '../protocol/documents';
import type { RunReport } from '../protocol/feedback';
import { readJson, writeJsonAtomic } from '../runner/atomicFs';
import { workspacePaths } from '../runner/paths';
import { ENDING_TEXT, spendText } from '../stats/agentSpendText';

export type { AgentEnding, AgentRecord, AgentSpend } from '../protocol/agent';
export { ENDING_TEXT, formatCost, spendText } from '../stats/agentSpendText';

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

/** The workspace's record, or undefined when no agent was launched here or the file does not match its schema. */
export function readAgentRecord(workspace: string): AgentRecord | undefined {
  const raw = readJson<unknown>(agentRecordFile(workspace));
  if (raw === undefined) return undefined;
  const checked = checkWith(agentRecordSchema, raw);
  return checked.ok ? checked.value : undefined;
}

/**
 * The one way `report.json` gets its `agent`: the runner knows nothing of who drove the run and
 * writes the report when the run completes, while the launcher learns the ending only then, so the
 * launcher adds the record once, after the ending is known. The report is read and written through
 * its schema. Returns the report with `agent`, or null when the runner has not written a report.
 */
export function addAgentToReport(workspace: string, record: AgentRecord): RunReport | null {
  const file = workspacePaths(workspace).report;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const read = parseRunReport(text);
  if (!read.ok) throw new Error(`${file} does not match the report schema, so the agent's record was not added: ${read.error}`);
  const withAgent = checkWith(agentRecordSchema, record);
  if (!withAgent.ok) throw new Error(`the agent's record does not match its schema: ${withAgent.error}`);
  const report: RunReport = { ...read.value, agent: withAgent.value };
  writeJsonAtomic(file, report);
  return report;
}

/** The lines `status` and the CLI print about the workspace's agent, or none when no agent ran here. */
export function agentStatusLines(workspace: string): string[] {
  const r = readAgentRecord(workspace);
  return r ? agentRecordLines(r) : [];
}

/** An agent's record as the terminal prints it: who ran and how it ended, then its spend. */
export function agentRecordLines(r: AgentRecord): string[] {
  const lines = [`agent ${r.kind === 'lm' ? 'LM ' : ''}${r.agent}${r.ending ? `: ended because ${ENDING_TEXT[r.ending]}${r.detail ? ` (${r.detail})` : ''}` : ' (running)'}`];
  if (r.spend) lines.push(`  spend ${spendText(r.spend, r.caps)}`);
  return lines;
}
