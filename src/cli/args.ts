/** Argument parsing on top of node:util parseArgs, turning its errors into UsageErrors that name the argument. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './command';

export function parse<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O, allowPositionals = true) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message.replace(/^TypeError \[[A-Z_]+\]: /, '') : String(e));
  }
}

export function parseIntArg(name: string, value: string | undefined, fallback: number, min = Number.MIN_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name} must be an integer, got "${value}"`);
  const n = Number(value);
  if (n < min) throw new UsageError(`--${name} must be at least ${min}, got ${n}`);
  return n;
}

/** `--param key=value` pairs; values are parsed as JSON when they can be (numbers, booleans). */
export function parseParams(pairs: string[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--param must look like name=value, got "${pair}"`);
    const key = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      value = raw;
    }
    out[key] = value;
  }
  return out;
}
