/**
 * The bundle reader: `policy/policy.ts` and every module or JSON file it reaches through
 * relative imports, read from a workspace, its `policy/` folder, or a checkpoint folder (a copy
 * of the `policy/` tree, with or without the `policy/` level). Everything else under the policy
 * folder is listed as unreachable and left out of the analysis.
 */
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { BundleIssue } from '../protocol/analysis';
import type { ModuleFacts } from './facts';
import { moduleFacts } from './factsCache';
import { sha256 } from './tsFacts';

export const ENTRY = 'policy.ts';

export interface BundleModule {
  /** Path relative to the policy folder, `/`-separated: `policy.ts`, `lib/planner.ts`, `weights.json`. */
  path: string;
  text: string;
  facts: ModuleFacts;
}

export interface Bundle {
  /** Absolute path of the policy folder. */
  root: string;
  /** Reachable modules, sorted by path. */
  modules: BundleModule[];
  /** Files under the policy folder that the entry does not reach. */
  unreachable: string[];
  issues: BundleIssue[];
  /** sha256 over the sorted (path, content) of the reachable modules. */
  contentHash: string;
}

export type BundleResult = { ok: true; bundle: Bundle } | { ok: false; error: string };

const SOURCE_EXT = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'];
const SKIP_DIRS = new Set(['node_modules', '.git', '.policyforge', 'feedback']);

/** Finds the policy folder: `dir` itself when it holds policy.ts, else `dir/policy`. */
export async function locatePolicyDir(dir: string): Promise<string | null> {
  const abs = path.resolve(dir);
  for (const candidate of [abs, path.join(abs, 'policy')]) {
    try {
      if ((await fsp.stat(path.join(candidate, ENTRY))).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await fsp.readdir(path.join(root, rel), { withFileTypes: true });
    for (const e of entries) {
      const child = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) await walk(child);
      } else if (e.isFile() && SOURCE_EXT.some((x) => e.name.endsWith(x))) out.push(child);
    }
  };
  await walk('');
  return out.sort();
}

/** Resolves a relative specifier the way the sandbox's bundler does for policy files. */
export function resolveSpecifier(from: string, specifier: string, files: ReadonlySet<string>): string | null {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  if (base.startsWith('../') || base === '..') return null;
  const candidates = [base];
  const jsLike = /\.(m|c)?js$/.exec(base);
  if (jsLike) {
    const stem = base.slice(0, -jsLike[0].length);
    candidates.push(`${stem}.ts`, `${stem}.tsx`, `${stem}.${jsLike[1] ?? ''}ts`);
  }
  for (const ext of ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.json']) candidates.push(`${base}${ext}`);
  for (const index of ['index.ts', 'index.tsx', 'index.js']) candidates.push(`${base}/${index}`);
  return candidates.find((c) => files.has(c)) ?? null;
}

export async function readBundle(dir: string): Promise<BundleResult> {
  const root = await locatePolicyDir(dir);
  if (!root) return { ok: false, error: `no ${ENTRY} in ${dir} or ${path.join(dir, 'policy')}` };
  let all: string[];
  try {
    all = await listFiles(root);
  } catch (e) {
    return { ok: false, error: `cannot list ${root}: ${e instanceof Error ? e.message : String(e)}` };
  }
  const files = new Set(all);
  const issues: BundleIssue[] = [];
  const reached = new Map<string, BundleModule>();
  const queue = [ENTRY];
  while (queue.length > 0) {
    const rel = queue.shift()!;
    if (reached.has(rel)) continue;
    let text: string;
    try {
      // Synchronous on purpose: policy files are small, and a thread-pool round trip per file
      // costs more than the read (it dominated warm analyses on a busy machine).
      text = fs.readFileSync(path.join(root, rel), 'utf8');
    } catch (e) {
      issues.push({ file: rel, message: `cannot read: ${e instanceof Error ? e.message : String(e)}` });
      continue;
    }
    const facts = await moduleFacts(rel, text);
    reached.set(rel, { path: rel, text, facts });
    for (const err of facts.syntaxErrors) issues.push({ file: rel, message: `syntax error at line ${err.line}: ${err.message}` });
    for (const spec of facts.specifiers) {
      if (!spec.startsWith('./') && !spec.startsWith('../')) {
        issues.push({ file: rel, message: `import "${spec}" is not a relative path (policies may only import their own files)` });
        continue;
      }
      const target = resolveSpecifier(rel, spec, files);
      if (target === null) issues.push({ file: rel, message: `import "${spec}" does not resolve to a file under policy/` });
      else if (!reached.has(target)) queue.push(target);
    }
  }
  const modules = [...reached.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    ok: true,
    bundle: {
      root,
      modules,
      unreachable: all.filter((f) => !reached.has(f)),
      issues,
      contentHash: sha256(modules.map((m) => `${m.path}\u0000${m.facts.contentHash}\n`).join('')),
    },
  };
}
