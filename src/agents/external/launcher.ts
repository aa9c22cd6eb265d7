/**
 * Running an external coding agent as a run's agent: start it in the workspace with the task on
 * stdin, capture its output into the transcript, link every submission to the transcript line
 * it followed, retry a failed process with exponential backoff, stop it at the time limit or
 * once the run has ended, and finish the run when the agent leaves budget unspent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import type { RunReport } from '../../protocol/feedback';
import type { RunnerClient } from '../../runner/client';
import { workspacePaths } from '../../runner/paths';
import { addAgentToReport, agentDir, ENDING_TEXT, writeAgentRecord, type AgentEnding, type AgentRecord } from '../agentRecord';
import { finishOrAwaitReport } from '../runEnd';
import { agentEnv, prepareAgentWorkspace, taskText } from './agentWorkspace';
import { expandCommand } from './presets';
import { TRANSCRIPT_FILE, Transcript } from './transcript';

export interface ExternalAgentOptions {
  workspace: string;
  /** Shell command line (a preset's or the user's); `{taskFile}` is replaced by the task file's path. */
  command: string;
  /** A client of the runner serving the workspace: it sees every submission, whoever makes it. */
  client: RunnerClient;
  /** Names of the launcher's environment variables the agent may see, beyond the base set. */
  allowEnv?: readonly string[];
  /** Wall-clock limit of the whole agent phase, retries and backoff included. Default 1 h. */
  timeLimitMs?: number;
  /** Retries after a failed start or a non-zero exit before the budget is spent. Default 5. */
  retries?: number;
  /** First backoff; it doubles with each retry. Default 4000. */
  backoffMs?: number;
  /** How long the agent may go on after the run has ended before it is stopped. Default 10000. */
  graceMs?: number;
  log?: (line: string) => void;
  /** The launcher's environment (the agent gets only the allowed part of it). */
  env?: NodeJS.ProcessEnv;
}

export interface ExternalAgentResult {
  ending: AgentEnding;
  report: RunReport;
  record: AgentRecord;
  transcript: string;
}

type Outcome = { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null } | { kind: 'run_ended' } | { kind: 'time_limit' };

export async function runExternalAgent(opts: ExternalAgentOptions): Promise<ExternalAgentResult> {
  const { workspace, client } = opts;
  const log = opts.log ?? (() => undefined);
  const retries = opts.retries ?? 5;
  const backoffMs = opts.backoffMs ?? 4000;
  const graceMs = opts.graceMs ?? 10_000;
  const deadline = Date.now() + (opts.timeLimitMs ?? 3_600_000);
  const agentsMd = fs.readFileSync(workspacePaths(workspace).agentsMd, 'utf8');
  const prepared = prepareAgentWorkspace(workspace, taskText(workspace, agentsMd));
  const transcript = new Transcript(agentDir(workspace));
  const record: AgentRecord = { kind: 'external', agent: opts.command, startedAt: new Date().toISOString(), submissions: [], attempts: [], caps: { timeLimitS: Math.round((deadline - Date.now()) / 1000) } };
  writeAgentRecord(workspace, record);

  let attempt = 0;
  let budgetSpent = false;
  let runEnded = false;
  let wakeOnRunEnd: (() => void) | null = null;
  const onSubmitted = ({ summary }: { summary: { submission: number; budget: { used: number; total: number; remaining: number } } }): void => {
    const line = transcript.event(attempt, `submission ${summary.submission} charged; budget ${summary.budget.used}/${summary.budget.total} used`, summary.submission);
    record.submissions.push({ submission: summary.submission, at: new Date().toISOString(), transcript: TRANSCRIPT_FILE, line });
    writeAgentRecord(workspace, record);
    if (summary.budget.remaining === 0) budgetSpent = true;
  };
  const onRunEnding = (): void => {
    if (runEnded) return;
    runEnded = true;
    wakeOnRunEnd?.();
  };
  const onProgress = (p: { phase: string }): void => {
    if (p.phase !== 'submit') onRunEnding();
  };
  client.on('run.submitted', onSubmitted);
  client.on('run.progress', onProgress);
  client.on('run.completed', onRunEnding);

  let ending: AgentEnding | null = null;
  let detail = '';
  try {
    const env = agentEnv(opts.env ?? process.env, opts.allowEnv ?? [], { POLICYFORGE_WORKSPACE: workspace, POLICYFORGE_TASK_FILE: prepared.taskFile }, prepared.binDir);
    const commandLine = expandCommand(opts.command, { taskFile: prepared.taskFile });
    while (ending === null) {
      attempt++;
      if ((await client.status()).phase !== 'agent') runEnded = true;
      if (runEnded) break;
      const started = new Date().toISOString();
      transcript.event(attempt, `attempt ${attempt}: ${commandLine}`);
      log(`agent attempt ${attempt}: ${commandLine}`);
      const child = spawn(commandLine, { cwd: workspace, env: { ...env, POLICYFORGE_AGENT_ATTEMPT: String(attempt) }, shell: true, detached: process.platform !== 'win32', stdio: ['pipe', 'pipe', 'pipe'] });
      const entry = { attempt, startedAt: started, exitCode: null as number | null, signal: null as string | null, endedAt: undefined as string | undefined };
      record.attempts!.push(entry);
      const exited = watchChild(child, transcript, attempt, fs.readFileSync(prepared.taskFile, 'utf8'));
      const outcome = await firstOf(exited, deadline, () => runEnded, (wake) => (wakeOnRunEnd = wake));
      wakeOnRunEnd = null;
      let exit: { code: number | null; signal: NodeJS.Signals | null };
      if (outcome.kind === 'exit') exit = outcome;
      else if (outcome.kind === 'time_limit') {
        exit = await stop(child, exited, 0);
        ending = 'time_limit';
      } else {
        exit = await stop(child, exited, Math.max(0, Math.min(graceMs, deadline - Date.now())));
      }
      entry.exitCode = exit.code;
      entry.signal = exit.signal;
      entry.endedAt = new Date().toISOString();
      transcript.flush(attempt);
      transcript.event(attempt, `attempt ${attempt} ended: ${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`}`);
      writeAgentRecord(workspace, record);
      if (ending) break;
      // A finish the agent started may not have reached us yet as a notification.
      if ((await client.status()).phase !== 'agent') runEnded = true;
      if (runEnded) break;
      if (exit.code === 0) {
        ending = 'agent_exited';
        break;
      }
      if (attempt > retries) {
        ending = 'retries_exhausted';
        detail = `${attempt} attempts, the last ${exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`}`;
        break;
      }
      const wait = backoffMs * 2 ** (attempt - 1);
      if (Date.now() + wait >= deadline) {
        ending = 'time_limit';
        detail = `no time left for retry ${attempt} after its ${wait} ms backoff`;
        break;
      }
      transcript.event(attempt, `retrying in ${wait} ms`);
      log(`agent attempt ${attempt} failed (${exit.signal ?? `exit code ${exit.code}`}); retrying in ${wait} ms`);
      await new Promise((r) => setTimeout(r, wait));
    }
    if (ending === null) ending = budgetSpent ? 'budget_spent' : 'agent_finished';
    record.ending = ending;
    if (detail) record.detail = detail;
    transcript.event(attempt, `run ended: ${ENDING_TEXT[ending]}`);
    const report = await finishOrAwaitReport(client);
    record.endedAt = new Date().toISOString();
    writeAgentRecord(workspace, record);
    return { ending, report: addAgentToReport(workspace, record) ?? { ...report, agent: record }, record, transcript: transcript.file };
  } finally {
    client.off('run.submitted', onSubmitted);
    client.off('run.progress', onProgress);
    client.off('run.completed', onRunEnding);
  }
}

function watchChild(child: ChildProcess, transcript: Transcript, attempt: number, task: string): Promise<{ kind: 'exit'; code: number | null; signal: NodeJS.Signals | null }> {
  child.stdout!.setEncoding('utf8').on('data', (d: string) => transcript.output('stdout', attempt, d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => transcript.output('stderr', attempt, d));
  // An agent that never reads stdin closes it: that is its choice, not a failure.
  child.stdin!.on('error', () => undefined);
  child.stdin!.end(task);
  return new Promise((resolve) => {
    child.once('error', (e) => {
      transcript.event(attempt, `could not start: ${e.message}`);
      resolve({ kind: 'exit', code: 127, signal: null });
    });
    child.once('close', (code, signal) => resolve({ kind: 'exit', code, signal }));
  });
}

async function firstOf(exited: Promise<Outcome>, deadline: number, ended: () => boolean, onRunEnd: (wake: () => void) => void): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<Outcome>((resolve) => (timer = setTimeout(() => resolve({ kind: 'time_limit' }), Math.max(0, deadline - Date.now()))));
  const runEnd = new Promise<Outcome>((resolve) => {
    if (ended()) resolve({ kind: 'run_ended' });
    onRunEnd(() => resolve({ kind: 'run_ended' }));
  });
  try {
    return await Promise.race([exited, limit, runEnd]);
  } finally {
    clearTimeout(timer);
  }
}

/** Lets the agent wrap up for `graceMs`, then stops its whole process group (TERM, then KILL). */
async function stop(child: ChildProcess, exited: Promise<Outcome>, graceMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const within = (ms: number): Promise<Outcome | null> => Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), ms))]);
  let out = graceMs > 0 ? await within(graceMs) : null;
  if (!out) {
    kill(child, 'SIGTERM');
    out = await within(3000);
  }
  if (!out) {
    kill(child, 'SIGKILL');
    out = await exited;
  }
  return out.kind === 'exit' ? out : { code: null, signal: 'SIGKILL' };
}

function kill(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // already gone
  }
}
