/** Runs the CLI as a user or an agent would: the built one (bin/policyforge.js), or one command in this process. */
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

/** Runs a command in this process, with what it writes to stdout and stderr. */
export async function capture(run: () => Promise<number>): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = process.stdout.write.bind(process.stdout);
  const stderr = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((s: string | Uint8Array) => out.push(String(s)) > 0) as typeof process.stdout.write;
  process.stderr.write = ((s: string | Uint8Array) => err.push(String(s)) > 0) as typeof process.stderr.write;
  try {
    const code = await run();
    return { code, out: out.join(''), err: err.join('') };
  } finally {
    process.stdout.write = stdout;
    process.stderr.write = stderr;
  }
}
