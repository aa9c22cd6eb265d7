/** The real executor: the sandbox's esbuild bundler and worker pool. */
import { buildBundle, SandboxPool } from '../sandbox';
import type { BundleDiagnostic, SandboxPoolOptions } from '../sandbox/types';
import { BuildCache } from './buildCache';
import type { EpisodeExecutor } from './executor';
import { tsTools } from './tsTools/tsToolsClient';

export interface SandboxExecutorOptions extends SandboxPoolOptions {
  /** Run the TypeScript checker on every build, not only the ones that ask (type errors are reported, never blocking). */
  typeCheck?: boolean;
}

export function createSandboxExecutor(opts: SandboxExecutorOptions = {}): EpisodeExecutor {
  const { typeCheck, ...poolOptions } = opts;
  let pool: SandboxPool | undefined;
  const getPool = (): SandboxPool => (pool ??= new SandboxPool(poolOptions));
  const cache = new BuildCache();
  return {
    build: async (root, buildOpts) => {
      const typed = (typeCheck ?? false) || (buildOpts?.typeCheck ?? false);
      const key = cache.key(root);
      // A type-checked build also answers a plain one (same bundle, more diagnostics); not the reverse.
      const cached = key ? (cache.get(`${key}:typed`) ?? (typed ? undefined : cache.get(key))) : undefined;
      if (cached) return cached;
      const result = await buildBundle(root, { typeCheck: false });
      // The checker runs with the runner's other TypeScript tools (a child process when built).
      if (typed && result.ok) result.diagnostics.push(...(await typeErrors(root, result.bundle.files.map((f) => f.path))));
      // Only successful builds are kept: a failing one is cheap and its message should be fresh.
      // The key is taken again so an edit racing the build never files a bundle under stale content.
      if (key && result.ok && cache.key(root) === key) cache.set(typed ? `${key}:typed` : key, result);
      return result;
    },
    runBatch: (request) => getPool().runBatch(request),
    close: async () => {
      await pool?.close();
    },
  };
}

/** A checker that could not run is a warning, never a failed build (type errors never block one). */
async function typeErrors(root: string, files: readonly string[]): Promise<BundleDiagnostic[]> {
  try {
    return await tsTools().typeCheck(root, files);
  } catch (e) {
    return [{ file: 'policy/', line: 0, column: 0, message: `the type check did not run: ${e instanceof Error ? e.message : String(e)}`, severity: 'warning', kind: 'type' }];
  }
}
