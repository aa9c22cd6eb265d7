/**
 * Checks the `policy/` folder before bundling: file count, total size, and symlinks that
 * point outside it. Violations are `limit` diagnostics that block the build, so a huge or
 * escaping folder never reaches esbuild.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { BundleDiagnostic, BundleLimits } from '../types';

export const DEFAULT_BUNDLE_LIMITS: BundleLimits = { maxTotalBytes: 2 * 1024 * 1024, maxFiles: 256 };

/** Folders never part of a policy (editor and VCS clutter). */
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

export interface FolderScan {
  diagnostics: BundleDiagnostic[];
  /** Real path of `policy/`, the boundary every bundled file must stay inside. */
  realPolicyDir: string;
  /** Workspace-relative paths of every code file under `policy/` (.ts, .js, .mjs; not .d.ts), imported or not. */
  sources: string[];
}

const CODE_FILE = /\.(ts|js|mjs)$/;

function isCodeFile(name: string): boolean {
  return CODE_FILE.test(name) && !name.endsWith('.d.ts');
}

export async function scanPolicyFolder(root: string, limits: BundleLimits): Promise<FolderScan | { missing: true; diagnostics: BundleDiagnostic[] }> {
  const policyDir = path.join(root, 'policy');
  const entry = path.join(policyDir, 'policy.ts');
  const missing = (message: string) => ({ missing: true as const, diagnostics: [limitError('policy/policy.ts', message)] });
  let realPolicyDir: string;
  try {
    const st = await fs.lstat(policyDir);
    if (st.isSymbolicLink()) return missing('policy/ must be a folder, not a symbolic link');
    realPolicyDir = await fs.realpath(policyDir);
  } catch {
    return missing(`no policy/ folder in ${root}`);
  }
  try {
    await fs.access(entry);
  } catch {
    return missing('policy/policy.ts is missing: it is the entry point and must export class Policy');
  }
  const diagnostics: BundleDiagnostic[] = [];
  const sources: string[] = [];
  let files = 0;
  let bytes = 0;
  const walk = async (dir: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      const rel = toWorkspacePath(root, abs);
      if (e.isSymbolicLink()) {
        let target: string;
        try {
          target = await fs.realpath(abs);
        } catch {
          diagnostics.push(limitError(rel, 'is a broken symbolic link'));
          continue;
        }
        if (!isInside(realPolicyDir, target)) {
          diagnostics.push(limitError(rel, `is a symbolic link leaving policy/ (to ${target}); a policy may only contain its own files`));
          continue;
        }
        const st = await fs.stat(target);
        if (st.isFile()) {
          files++;
          bytes += st.size;
          if (isCodeFile(e.name)) sources.push(rel);
        }
        // A link to a folder inside policy/ is walked through its real path already.
        continue;
      }
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name)) await walk(abs);
        continue;
      }
      if (!e.isFile()) continue;
      if (isCodeFile(e.name)) sources.push(rel);
      files++;
      bytes += (await fs.stat(abs)).size;
    }
  };
  await walk(policyDir);
  if (files > limits.maxFiles) {
    diagnostics.push(limitError('policy/', `holds ${files} files; the limit is ${limits.maxFiles}`));
  }
  if (bytes > limits.maxTotalBytes) {
    diagnostics.push(limitError('policy/', `holds ${formatBytes(bytes)}; the limit is ${formatBytes(limits.maxTotalBytes)}`));
  }
  return { diagnostics, realPolicyDir, sources };
}

export function isInside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** Workspace-relative path with forward slashes: the form used in ids, diagnostics and source maps. */
export function toWorkspacePath(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join('/');
}

function limitError(file: string, message: string): BundleDiagnostic {
  return { file, line: 0, column: 0, message: `${file} ${message}`, severity: 'error', kind: 'limit' };
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} bytes`;
}
