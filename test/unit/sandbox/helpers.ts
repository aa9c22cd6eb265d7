/** Shared set-up for the sandbox tests: a built worker script and throwaway policy workspaces. */
import { mkdtempSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import type { EpisodeRecord } from '../../../src/protocol/episodes';
import { buildBundle, SandboxPool, type PolicyBundle } from '../../../src/sandbox';
import type { SandboxPoolOptions } from '../../../src/sandbox/types';

const repo = path.resolve(__dirname, '../../..');
let built = false;

/**
 * Rebuilds dist/<name>.js when it is missing or older than the sources under `dirs` (npm test
 * builds first anyway). One entry at a time, with scripts/build.mjs's options, so a broken file
 * elsewhere in the repository cannot stop these tests.
 */
function ensureBuilt(name: string, entry: string, dirs: readonly string[]): void {
  const out = path.join(repo, 'dist', `${name}.js`);
  let stale = true;
  try {
    const t = statSync(out).mtimeMs;
    stale = dirs.some((d) => newestMtime(path.join(repo, 'src', d)) > t);
  } catch {
    stale = true;
  }
  if (!stale) return;
  buildSync({
    absWorkingDir: repo,
    entryPoints: { [name]: entry },
    outdir: 'dist',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'error',
    external: ['vscode', 'ts-morph', 'esbuild', 'playwright-core', 'mujoco-js'],
  });
}

export function ensureWorkerBuilt(): void {
  if (built) return;
  ensureBuilt('sandboxWorker', 'src/sandbox/worker/workerMain.ts', ['sandbox', 'envs', 'protocol', 'skills']);
  built = true;
}

/** dist/cli.js for the `policyforge eval` tests. */
export function ensureCliBuilt(): void {
  ensureWorkerBuilt();
  ensureBuilt('cli', 'src/cli/main.ts', ['cli', 'sandbox', 'envs', 'protocol']);
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const roots: string[] = [];

/** A temporary workspace holding `files` (paths relative to the workspace root). */
export function workspace(files: Readonly<Record<string, string>>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pf-sandbox-'));
  roots.push(root);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), content);
  }
  return root;
}

export function removeWorkspaces(): void {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
}

/** Builds a one-file policy (plus optional helpers) and fails the test on a build error. */
export async function bundleOf(policy: string, extra: Readonly<Record<string, string>> = {}): Promise<PolicyBundle> {
  const files: Record<string, string> = { 'policy/policy.ts': policy };
  for (const [k, v] of Object.entries(extra)) files[`policy/${k}`] = v;
  const result = await buildBundle(workspace(files), { typeCheck: false });
  if (!result.ok) throw new Error(`bundle failed: ${result.diagnostics.map((d) => `${d.file}:${d.line} ${d.message}`).join('; ')}`);
  return result.bundle;
}

export const episodes = (n: number, base = 0): { caseIndex: number; envSeed: number; policySeed: number }[] =>
  Array.from({ length: n }, (_, i) => ({ caseIndex: base + i, envSeed: 100 + base + i, policySeed: 7 + base + i }));

/** A CartPole policy that balances well, for the episodes that must stay intact. */
export const GOOD_CARTPOLE = `export class Policy {
  act(o: Float64Array): number {
    return o[2]! + 0.5 * o[3]! + 0.01 * o[0]! + 0.1 * o[1]! > 0 ? 1 : 0;
  }
}
`;

/** A record without its wall time (the only field allowed to differ between runs). */
export function strip(r: EpisodeRecord): Omit<EpisodeRecord, 'wallMs'> {
  const { wallMs: _w, ...rest } = r;
  return rest;
}

/**
 * A pool for the enclosing `describe`: started (worker built first) before its tests, closed
 * after them, when the throwaway workspaces go too. Call the result for the pool.
 */
export function usePool(options: SandboxPoolOptions): () => SandboxPool {
  let pool: SandboxPool | undefined;
  before(() => {
    ensureWorkerBuilt();
    pool = new SandboxPool(options);
  });
  after(async () => {
    await pool?.close();
    removeWorkspaces();
  });
  return () => {
    if (!pool) throw new Error('usePool: the pool exists only while the describe block runs');
    return pool;
  };
}
