/** The real executor: the sandbox's esbuild bundler and worker pool. */
import { buildBundle, SandboxPool } from '../sandbox';
import type { SandboxPoolOptions } from '../sandbox/types';
import { BuildCache } from './buildCache';
import type { EpisodeExecutor } from './executor';

export interface SandboxExecutorOptions extends SandboxPoolOptions {
  /** Run the TypeScript checker on each build (type errors are reported, never blocking). */
  typeCheck?: boolean;
}

export function createSandboxExecutor(opts: SandboxExecutorOptions = {}): EpisodeExecutor {
  const { typeCheck, ...poolOptions } = opts;
  let pool: SandboxPool | undefined;
  const getPool = (): SandboxPool => (pool ??= new SandboxPool(poolOptions));
  const cache = new BuildCache();
  return {
    build: async (root) => {
      const key = cache.key(root);
      const cached = key ? cache.get(key) : undefined;
      if (cached) return cached;
      const result = await buildBundle(root, { typeCheck: typeCheck ?? false });
      // Only successful builds are kept: a failing one is cheap and its message should be fresh.
      // The key is taken again so an edit racing the build never files a bundle under stale content.
      if (key && result.ok && cache.key(root) === key) cache.set(key, result);
      return result;
    },
    runBatch: (request) => getPool().runBatch(request),
    close: async () => {
      await pool?.close();
    },
  };
}
