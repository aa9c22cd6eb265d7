/** Shared plumbing of the client commands: find the workspace, connect (starting a runner), map errors to exit codes. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RunClientError, RunnerLostError, type RunnerClient } from '../../runner/client';
import { connectOrStart } from '../../runner/launch';
import { ExitCode, exitCodeForReason } from '../command';

/** The nearest folder at or above `start` holding `.policyforge/run.json`. */
export function findWorkspace(start: string): string | undefined {
  let dir = path.resolve(start);
  for (;;) {
    if (fs.existsSync(path.join(dir, '.policyforge', 'run.json'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

export interface ClientContext {
  workspace: string;
  client: RunnerClient;
  json: boolean;
}

/** Runs `fn` with a connected client; turns failures into exit codes and one-line messages. */
export async function withClient(name: string, dir: string | undefined, json: boolean, fn: (ctx: ClientContext) => Promise<number>): Promise<number> {
  const workspace = findWorkspace(dir ?? process.cwd());
  if (!workspace) {
    fail(name, json, `no PolicyForge run here: ${path.resolve(dir ?? process.cwd())} (or a parent) has no .policyforge/run.json; create one with \`policyforge init --env ID\``, 'no_workspace');
    return ExitCode.runner;
  }
  let client: RunnerClient;
  try {
    client = await connectOrStart(workspace);
  } catch (e) {
    fail(name, json, e instanceof Error ? e.message : String(e), 'runner_unreachable');
    return ExitCode.runner;
  }
  try {
    return await fn({ workspace, client, json });
  } catch (e) {
    if (e instanceof RunClientError) {
      fail(name, json, e.message, e.reason, e.code, e.data);
      return exitCodeForReason(e.reason);
    }
    if (e instanceof RunnerLostError) {
      const lost = await explainLostRunner(workspace, e);
      fail(name, json, lost.message, 'runner_lost', undefined, lost.data);
      return ExitCode.runner;
    }
    fail(name, json, e instanceof Error ? e.message : String(e), 'runner_unreachable');
    return ExitCode.runner;
  } finally {
    await client.close();
  }
}

export function fail(name: string, json: boolean, message: string, reason: string, code?: number, data?: Record<string, unknown>): void {
  if (json) process.stdout.write(`${JSON.stringify({ ok: false, error: { reason, code, message, ...(data ? { data } : {}) } }, null, 2)}\n`);
  else process.stderr.write(`policyforge ${name}: ${message}\n`);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * What a dropped connection cost. For a submit, a fresh runner (its recovery rolls back an
 * interrupted batch, or completes one whose feedback was already durable) says whether the
 * submission was charged, so the message never guesses.
 */
export async function explainLostRunner(workspace: string, e: RunnerLostError): Promise<{ message: string; data: Record<string, unknown> }> {
  if (e.method !== 'run.submit') return { message: `the runner stopped before it answered (${e.message}); the next command starts a new one`, data: {} };
  let status;
  try {
    const again = await connectOrStart(workspace);
    try {
      status = await again.status();
    } finally {
      await again.close();
    }
  } catch {
    status = undefined;
  }
  const n = e.submission ?? rolledBackIn(status?.recovery ?? []);
  const which = n === null ? 'the submission' : `submission ${n}`;
  if (status && n !== null && status.history.some((h) => h.submission === n)) {
    return {
      message: `the runner stopped (${e.message}) after ${which} was charged; its feedback is in feedback/submit-${String(n).padStart(4, '0')}/ (\`policyforge feedback ${n}\`)`,
      data: { submission: n, charged: true },
    };
  }
  if (!status) {
    return {
      message: `the runner stopped during ${which} (${e.message}) and could not be restarted to confirm the rollback; a submission is charged only once its feedback is complete, and \`policyforge status\` shows the budget`,
      data: { submission: n, charged: null },
    };
  }
  return {
    message: `the runner stopped during ${which} (${e.message}). ${which[0]!.toUpperCase()}${which.slice(1)} was rolled back: nothing was charged (budget ${status.budget.used}/${status.budget.total} used), and it is safe to submit again`,
    data: { submission: n, charged: false, rolledBack: true, budget: status.budget },
  };
}

function rolledBackIn(notes: readonly string[]): number | null {
  for (const note of notes) {
    const m = /^submission (\d+) .*rolled back/.exec(note);
    if (m) return Number(m[1]);
  }
  return null;
}
