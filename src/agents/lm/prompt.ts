/**
 * The LM agent's prompt, rebuilt each turn so it stays bounded: the rules of the edit language,
 * the task (AGENTS.md), the current policy files, the run's history of edits and scores, the last
 * feedback summary (with skills and attribution when the runner sends them) and what became of
 * the previous reply.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SubmissionSummary } from '../../protocol/feedback';
import type { RunStatus } from '../../protocol/run';
import { formatSummary } from '../../stats/feedbackText';
import { historyScoreFormat } from '../../stats/scoreFormat';
import type { ChatMessage } from './model';

export const SYSTEM_PROMPT = `You improve a PolicyForge policy: a TypeScript program under policy/ that acts in an environment.
Each turn you see the task, the current files, the history of submissions and the latest feedback.
Reply with a short plan (a few sentences), then your edit, in this exact format:

FILE policy/<name>.ts
\`\`\`ts
<the whole new content of the file>
\`\`\`

or, to change part of a file, one or more blocks under one EDIT line per file:

EDIT policy/policy.ts
<<<<<<< SEARCH
<lines copied exactly from the current file, enough to be unique>
=======
<the lines that replace them>
>>>>>>> REPLACE

Then, on its own line, which episodes to run: "SUBMIT episodes N" (the next unused cases) or
"SUBMIT 0-7" (these cases again: a matched comparison). Without a SUBMIT line the edit runs on
the next unused cases. Write "FINISH" alone on a line to end the run instead.
Rules: only files under policy/ can be edited (policy/env.d.ts is generated); every episode is
charged to a fixed budget; an edit that does not apply or does not build is refused and costs
no episodes, and you will see why.`;

/** Characters of one policy file shown in full; longer files are cut, and the prompt says so. */
const FILE_CHARS = 24_000;
const HISTORY_ROWS = 30;

export interface PromptInput {
  workspace: string;
  taskText: string;
  status: RunStatus;
  latest: SubmissionSummary | null;
  /** What became of the previous reply, for the model to act on. */
  outcome: string | null;
  turn: number;
}

export function buildPrompt(input: PromptInput): ChatMessage[] {
  const { status } = input;
  const parts = [
    `## Task\n${input.taskText.trim()}`,
    `## Current files under policy/\n${policyFiles(input.workspace)}`,
    `## Budget\n${status.budget.used}/${status.budget.total} episodes used, ${status.budget.remaining} remaining; ${status.submissions}/${status.maxSubmissions} submissions${status.nextUnusedCase === null ? '' : `; next unused case ${status.nextUnusedCase}`}`,
  ];
  if (status.history.length) parts.push(`## History (submission, cases, mean return, ok/episodes, edit class)\n${historyTable(status)}`);
  if (input.latest) parts.push(`## Latest feedback\n${formatSummary(input.latest, status.history)}${extras(input.latest)}`);
  if (input.outcome) parts.push(`## Your previous reply\n${input.outcome}`);
  parts.push(`Turn ${input.turn}: reply with your plan and your edit.`);
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: parts.join('\n\n') },
  ];
}

function policyFiles(workspace: string): string {
  const root = path.join(workspace, 'policy');
  const files = walk(root).sort((a, b) => (a === 'policy.ts' ? -1 : b === 'policy.ts' ? 1 : a.localeCompare(b)));
  return files
    .map((rel) => {
      const text = fs.readFileSync(path.join(root, rel), 'utf8');
      const shown = text.length > FILE_CHARS ? `${text.slice(0, FILE_CHARS)}\n… (${text.length - FILE_CHARS} more characters not shown)` : text;
      const note = rel === 'env.d.ts' ? ' (generated types; read-only)' : '';
      return `### policy/${rel}${note}\n\`\`\`${rel.endsWith('.json') ? 'json' : 'ts'}\n${shown.replace(/\n$/, '')}\n\`\`\``;
    })
    .join('\n\n');
}

function walk(dir: string, prefix = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) return walk(path.join(dir, e.name), rel);
    return /\.(ts|json)$/.test(e.name) ? [rel] : [];
  });
}

function historyTable(status: RunStatus): string {
  const fmt = historyScoreFormat(status.history);
  const rows = status.history.slice(-HISTORY_ROWS).map((h) => `#${h.submission}  cases ${h.cases.length}  mean ${fmt.score(h.mean)}  ok ${h.okCount}/${h.count}  ${h.editClass ?? ''}`.trimEnd());
  if (status.history.length > HISTORY_ROWS) rows.unshift(`… ${status.history.length - HISTORY_ROWS} earlier submissions`);
  return rows.join('\n');
}

/** Skills and attribution, when the runner's summary carries them (newer runners do). */
function extras(summary: SubmissionSummary): string {
  const loose = summary as unknown as Record<string, unknown>;
  return ['skills', 'attribution']
    .filter((k) => loose[k] !== undefined && loose[k] !== null)
    .map((k) => `\n### ${k}\n${JSON.stringify(loose[k], null, 1).slice(0, 6000)}`)
    .join('');
}
