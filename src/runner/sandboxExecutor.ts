/** The real executor: the sandbox's esbuild bundler and worker pool. */
import { buildBundle, SandboxPool } from '../sandbox';
import type { SandboxPoolOptions } from '../sandbox/types';
import type { EpisodeExecutor } from './executor';

export interface SandboxExecutorOptions extends SandboxPoolOptions {
  /** Run the TypeScript checker on each build (type errors are reported, never blocking). */
  typeCheck?: boolean;
}

export function createSandboxExecutor(opts: SandboxExecutorOptions = {}): EpisodeExecutor {
  const { typeCheck, ...poolOptions } = opts;
  let pool: SandboxPool | undefined;
  const getPool = (): SandboxPool => (pool ??= new SandboxPool(poolOptions));
  return {
    build: (root) => buildBundle(root, { typeCheck: typeCheck ?? false }),
    runBatch: (request) => getPool().runBatch(request),
    close: async () => {
      await pool?.close();
    },
  };
}
