/**
 * Node built-ins are refused anywhere under `policy/`, not only on the path the bundle follows:
 * an unused `import * as fs from 'fs'` is dropped by the TypeScript transform and a file nothing
 * imports is never bundled, yet either says the policy expects a host it will not get. So every
 * code file is scanned on its own, with unused imports kept, before the real build.
 */
import { isBuiltin } from 'node:module';
import * as esbuild from 'esbuild';
import type { BundleDiagnostic } from '../types';

const PLUGIN = 'policyforge-builtin-imports';

export const BUILTIN_RULE = 'a policy runs in a sandbox without Node: no file under policy/ may import a Node built-in, even one it does not use';

/** One `resolve` error per import of a Node built-in in `sources` (workspace-relative, under `root`). */
export async function builtinImports(root: string, sources: readonly string[]): Promise<BundleDiagnostic[]> {
  if (sources.length === 0) return [];
  try {
    await esbuild.build({
      absWorkingDir: root,
      entryPoints: [...sources],
      bundle: true,
      write: false,
      outdir: 'builtin-scan',
      platform: 'neutral',
      format: 'esm',
      logLevel: 'silent',
      // Keeps imports whose bindings are unused (TypeScript semantics would drop them); `import type` still goes.
      tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
      plugins: [
        {
          name: PLUGIN,
          setup(build) {
            build.onResolve({ filter: /.*/ }, (args) => {
              if (args.kind === 'entry-point') return undefined;
              if (isBuiltin(args.path)) return { errors: [{ text: `import of Node built-in "${args.path}" is not allowed: ${BUILTIN_RULE}` }] };
              // Every other rule is the real build's; nothing is followed from here.
              return { path: args.path, external: true };
            });
          },
        },
      ],
    });
    return [];
  } catch (e) {
    const failure = e as esbuild.BuildFailure;
    if (!Array.isArray(failure.errors)) throw e;
    // Syntax errors are the real build's to report, for the files it bundles.
    return failure.errors
      .filter((m) => m.pluginName === PLUGIN)
      .map((m) => ({ file: m.location?.file ?? 'policy/', line: m.location?.line ?? 0, column: m.location?.column ?? 0, message: m.text, severity: 'error' as const, kind: 'resolve' as const }));
  }
}
