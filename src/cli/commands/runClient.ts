/** Shared plumbing of the client commands: find the workspace, connect (starting a runner), map errors to exit codes. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RunClientError, type RunnerClient } from '../../runner/client';
import { connectOrStart } from '../../runner/launch';
import { ExitCode } from '../command';

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
      return ExitCode.failed;
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
