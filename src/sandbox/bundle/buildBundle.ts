/**
 * `buildBundle(root)`: `policy/policy.ts` and everything it imports under `policy/` as one
 * script with an inline source map, plus the content id and the diagnostics. Syntax, resolve
 * and limit errors block the build; type errors are only reported.
 *
 * The script is an IIFE assigning the module's exports to `POLICY_GLOBAL`, which the worker
 * evaluates inside the policy's own vm context.
 */
import { promises as fs } from 'node:fs';
import * as esbuild from 'esbuild';
import type { BuildOptions, BuildResult, BundleDiagnostic, BundleFile } from '../types';
import { builtinImports } from './builtinImports';
import { BUNDLE_FILENAME, POLICY_GLOBAL } from './constants';
import { contentId } from './contentId';
import { DEFAULT_BUNDLE_LIMITS, scanPolicyFolder } from './policyFolder';
import { policyImportsPlugin } from './policyImports';
import { typeCheckPolicy } from './typeCheck';


export async function buildBundle(root: string, options: BuildOptions = {}): Promise<BuildResult> {
  const limits = { ...DEFAULT_BUNDLE_LIMITS, ...options.limits };
  let realRoot: string;
  try {
    realRoot = await fs.realpath(root);
  } catch {
    return { ok: false, diagnostics: [{ file: root, line: 0, column: 0, message: `workspace folder ${root} does not exist`, severity: 'error', kind: 'limit' }] };
  }
  const scan = await scanPolicyFolder(realRoot, limits);
  if ('missing' in scan) return { ok: false, diagnostics: scan.diagnostics };
  if (scan.diagnostics.length > 0) return { ok: false, diagnostics: scan.diagnostics };
  const builtins = await builtinImports(realRoot, scan.sources);
  if (builtins.length > 0) return { ok: false, diagnostics: builtins };

  const loaded = new Map<string, Uint8Array>();
  const common: esbuild.BuildOptions = {
    absWorkingDir: realRoot,
    entryPoints: ['policy/policy.ts'],
    outfile: BUNDLE_FILENAME,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'neutral',
    target: 'es2022',
    mainFields: [],
    resolveExtensions: ['.ts', '.js', '.mjs', '.json'],
    // Never read the workspace tsconfig: path aliases there must not widen what resolves.
    tsconfigRaw: { compilerOptions: { strict: true, useDefineForClassFields: true } },
    logLevel: 'silent',
  };
  let result: esbuild.BuildResult<{ write: false; metafile: true }>;
  let entryExports: string[];
  try {
    // The IIFE is what runs; the ESM twin (same inputs, a few ms) is only asked which names the entry exports.
    const [iife, esm] = await Promise.all([
      esbuild.build({ ...common, write: false, metafile: true, format: 'iife', globalName: POLICY_GLOBAL, sourcemap: 'inline', sourcesContent: false, plugins: [policyImportsPlugin(realRoot, scan.realPolicyDir, loaded)] }),
      esbuild.build({ ...common, write: false, metafile: true, format: 'esm', sourcemap: false, plugins: [policyImportsPlugin(realRoot, scan.realPolicyDir, new Map())] }),
    ]);
    result = iife;
    entryExports = Object.values(esm.metafile.outputs)[0]?.exports ?? [];
  } catch (e) {
    const failure = e as esbuild.BuildFailure;
    if (!Array.isArray(failure.errors)) throw e;
    return { ok: false, diagnostics: [...failure.errors.map((m) => fromEsbuild(m, 'error')), ...(failure.warnings ?? []).map((m) => fromEsbuild(m, 'warning'))] };
  }
  const diagnostics = result.warnings.map((m) => fromEsbuild(m, 'warning'));
  const code = result.outputFiles[0]?.text ?? '';
  if (!entryExports.includes('Policy')) {
    return { ok: false, diagnostics: [...diagnostics, { file: 'policy/policy.ts', line: 1, column: 0, message: 'policy/policy.ts must export class Policy (export class Policy { act(observation, info) { … } })', severity: 'error', kind: 'resolve' }] };
  }
  if (options.typeCheck ?? true) diagnostics.push(...(await typeCheckPolicy(realRoot, [...loaded.keys()])).diagnostics);
  const files: BundleFile[] = [...loaded.entries()].map(([p, b]) => ({ path: p, bytes: b.byteLength })).sort((a, b) => (a.path < b.path ? -1 : 1));
  return { ok: true, bundle: { id: contentId(loaded), code, files }, diagnostics };
}

function fromEsbuild(m: esbuild.Message, severity: 'error' | 'warning'): BundleDiagnostic {
  const resolve = m.pluginName === 'policyforge-policy-imports' || /could not resolve|not allowed|leaves policy/i.test(m.text);
  return {
    file: m.location?.file ?? 'policy/policy.ts',
    line: m.location?.line ?? 0,
    column: m.location?.column ?? 0,
    message: m.text,
    severity,
    kind: resolve ? 'resolve' : 'syntax',
  };
}
