/** Runs the built CLI (bin/policyforge.js) as a user or an agent would. */
import { spawn, spawnSync } from 'node:child_process';
import { CLI } from '../runner/helpers';

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
  json: () => Record<string, unknown>;
}

function result(code: number | null, out: string, err: string): CliResult {
  return { code, out, err, json: () => JSON.parse(out) as Record<string, unknown> };
}

export function pf(cwd: string, ...args: string[]): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, env: process.env, encoding: 'utf8', timeout: 90_000 });
  return result(r.status, r.stdout, r.stderr);
}

/** The CLI in the background, for tests that act while it waits (kill its runner, say). */
export function pfAsync(cwd: string, ...args: string[]): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve(result(code, out, err))));
}
