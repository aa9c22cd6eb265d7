/**
 * The esbuild plugin that keeps a bundle inside `policy/`: only relative imports resolving to
 * files under it are allowed (no Node built-ins, no packages, nothing outside), and every
 * file loaded is recorded with its exact bytes for the content id.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Loader, Plugin } from 'esbuild';
import { isInside, toWorkspacePath } from './policyFolder';

const LOADERS: Readonly<Record<string, Loader>> = { '.ts': 'ts', '.js': 'js', '.mjs': 'js', '.json': 'json' };

export const IMPORT_RULE = 'a policy may import only relative paths to its own .ts, .js and .json files under policy/ (no Node built-ins, no packages)';

export function policyImportsPlugin(root: string, realPolicyDir: string, loaded: Map<string, Uint8Array>): Plugin {
  return {
    name: 'policyforge-policy-imports',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        if (!args.path.startsWith('./') && !args.path.startsWith('../')) {
          return { errors: [{ text: `import of "${args.path}" is not allowed: ${IMPORT_RULE}` }] };
        }
        const target = path.resolve(args.resolveDir, args.path);
        if (!isInside(realPolicyDir, target) && !isInside(path.join(root, 'policy'), target)) {
          return { errors: [{ text: `import of "${args.path}" leaves policy/: ${IMPORT_RULE}` }] };
        }
        return undefined; // esbuild resolves extensions; onLoad checks the real file.
      });
      build.onLoad({ filter: /.*/ }, async (args) => {
        const ext = path.extname(args.path);
        const loader = LOADERS[ext];
        const rel = toWorkspacePath(root, args.path);
        if (!loader) return { errors: [{ text: `${rel}: ${ext || 'extensionless'} files cannot be imported: ${IMPORT_RULE}` }] };
        const real = await fs.realpath(args.path);
        if (!isInside(realPolicyDir, real)) return { errors: [{ text: `${rel} resolves to ${real}, outside policy/: ${IMPORT_RULE}` }] };
        const bytes = await fs.readFile(args.path);
        loaded.set(rel, bytes);
        return { contents: bytes, loader };
      });
    },
  };
}
