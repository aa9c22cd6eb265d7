/** The real executor: the sandbox's esbuild bundler and worker pool. */
import { buildBundle, SandboxPool } from '../sandbox';
import type { SandboxPoolOptions } from '../sandbox/types';
import { BuildCache } from './buildCache';
import type { EpisodeExecutor } from './executor';

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
      const result = await buildBundle(root, { typeCheck: typed });
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
