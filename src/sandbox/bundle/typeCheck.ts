/**
 * Type errors of a policy, reported but never blocking a build. The checker is TypeScript as
 * bundled with ts-morph, loaded on first use only: it costs about a second to start, which a
 * bundle build that only needs esbuild should not pay.
 *
 * `typeCheckPolicy` can keep its results in a cache folder, keyed by every file under `policy/`
 * and the checker's version, so checking sources it has already checked costs a hash.
 */
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import tsMorphPackage from 'ts-morph/package.json';
import type { BundleDiagnostic } from '../types';
import { contentId } from './contentId';
import { toWorkspacePath } from './policyFolder';

type TsMorph = typeof import('ts-morph');
let tsMorph: Promise<TsMorph> | undefined;

/** Diagnostics are capped so one broken file cannot flood feedback. */
const MAX_TYPE_DIAGNOSTICS = 50;
/** Cache entries kept; the least recently used go first. */
const MAX_CACHE_ENTRIES = 256;
/** Changes whenever what a check reports could change for the same sources (options, filtering, shape). */
const CHECK_FORMAT = 'policyforge-typecheck-1';
const ENV_DECLARATIONS = 'policy/env.d.ts';

export interface TypeCheckResult {
  diagnostics: BundleDiagnostic[];
  /** True when the diagnostics came from the cache and the checker did not run. */
  cached: boolean;
  /** Time spent, hashing and cache lookup included. */
  ms: number;
}

/**
 * Checks the `.ts` files among `bundled` (workspace-relative, as a bundle lists them) together with
 * `policy/env.d.ts` when present. With `cacheDir`, a check of sources already checked is read back
 * from there; a missing, unreadable or malformed entry only means the checker runs again.
 */
export async function typeCheckPolicy(root: string, bundled: readonly string[], options: { cacheDir?: string } = {}): Promise<TypeCheckResult> {
  const t0 = performance.now();
  const realRoot = await fs.realpath(root);
  const files = bundled.filter((p) => p.endsWith('.ts') && p !== ENV_DECLARATIONS);
  try {
    await fs.access(path.join(realRoot, ENV_DECLARATIONS));
    files.push(ENV_DECLARATIONS);
  } catch {
    // No generated declarations: the checker reports the unknown names, which is the point.
  }
  const entry = options.cacheDir ? path.join(options.cacheDir, `${await cacheKey(realRoot, files)}.json`) : undefined;
  const hit = entry ? await readEntry(entry) : undefined;
  if (hit) return { diagnostics: hit, cached: true, ms: performance.now() - t0 };
  const diagnostics = await typeCheck(realRoot, files);
  if (entry) await writeEntry(entry, diagnostics);
  return { diagnostics, cached: false, ms: performance.now() - t0 };
}

/** `files` are workspace-relative `.ts` paths under `policy/` (env.d.ts included when present). */
export async function typeCheck(root: string, files: readonly string[]): Promise<BundleDiagnostic[]> {
  // require, not import(): a bundle's native import() of the CommonJS ts-morph bundle would see
  // only its default export.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose, see above
  tsMorph ??= Promise.resolve().then(() => require('ts-morph') as TsMorph);
  const { Project, ts } = await tsMorph;
  const project = new Project({
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts'],
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      strict: true,
      noEmit: true,
      resolveJsonModule: true,
      types: [],
      skipLibCheck: true,
    },
    skipAddingFilesFromTsConfig: true,
  });
  for (const f of files) project.addSourceFileAtPath(path.join(root, f));
  const out: BundleDiagnostic[] = [];
  for (const d of project.getPreEmitDiagnostics()) {
    if (out.length >= MAX_TYPE_DIAGNOSTICS) break;
    const sf = d.getSourceFile();
    const file = sf ? toWorkspacePath(root, sf.getFilePath()) : 'policy/';
    if (sf && !file.startsWith('policy/')) continue;
    const start = d.getStart();
    const lc = sf && start !== undefined ? sf.getLineAndColumnAtPos(start) : { line: 0, column: 0 };
    out.push({
      file,
      line: lc.line,
      column: lc.column,
      message: ts.flattenDiagnosticMessageText(d.compilerObject.messageText, '\n'),
      severity: 'error',
      kind: 'type',
    });
  }
  return out;
}

/**
 * Every file under `policy/`, not only the bundled ones: a type-only import is dropped from the
 * bundle but still read by the checker. The folder was size-checked by the bundle build.
 */
async function cacheKey(root: string, checked: readonly string[]): Promise<string> {
  const sources = new Map<string, Uint8Array>();
  const walk = async (dir: string): Promise<void> => {
    for (const e of await fs.readdir(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && e.name !== '.git') await walk(abs);
      } else if (e.isFile() || e.isSymbolicLink()) {
        try {
          sources.set(toWorkspacePath(root, abs), await fs.readFile(abs));
        } catch {
          // A dangling link: the checker cannot read it either.
        }
      }
    }
  };
  await walk(path.join(root, 'policy'));
  return createHash('sha256')
    .update(JSON.stringify([CHECK_FORMAT, tsMorphPackage.version, [...checked].sort()]))
    .update(contentId(sources))
    .digest('hex');
}

async function readEntry(file: string): Promise<BundleDiagnostic[] | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
  const diagnostics = typeof value === 'object' && value !== null && 'format' in value && value.format === CHECK_FORMAT && 'diagnostics' in value ? value.diagnostics : undefined;
  if (!Array.isArray(diagnostics) || !diagnostics.every(isTypeDiagnostic)) return undefined;
  const now = new Date();
  await fs.utimes(file, now, now).catch(() => undefined);
  return diagnostics;
}

function isTypeDiagnostic(d: unknown): d is BundleDiagnostic {
  if (typeof d !== 'object' || d === null) return false;
  const r = d as Record<string, unknown>;
  return typeof r.file === 'string' && typeof r.message === 'string' && Number.isInteger(r.line) && Number.isInteger(r.column) && r.severity === 'error' && r.kind === 'type';
}

/** Written beside the entry and renamed over it, so a reader sees a whole entry or none; failures only cost the reuse. */
async function writeEntry(file: string, diagnostics: readonly BundleDiagnostic[]): Promise<void> {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(tmp, JSON.stringify({ format: CHECK_FORMAT, diagnostics }));
    await fs.rename(tmp, file);
    await evictOldEntries(dir);
  } catch {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
  }
}

async function evictOldEntries(dir: string): Promise<void> {
  const names = (await fs.readdir(dir)).filter((n) => n.endsWith('.json'));
  if (names.length <= MAX_CACHE_ENTRIES) return;
  const aged = await Promise.all(names.map(async (n) => ({ n, t: (await fs.stat(path.join(dir, n)).catch(() => undefined))?.mtimeMs ?? 0 })));
  aged.sort((a, b) => a.t - b.t);
  for (const { n } of aged.slice(0, names.length - MAX_CACHE_ENTRIES)) await fs.rm(path.join(dir, n), { force: true });
}
