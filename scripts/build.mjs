// Builds every bundle into dist/ with esbuild.
//   node scripts/build.mjs               development build (inline source maps)
//   node scripts/build.mjs --watch       rebuild on change
//   node scripts/build.mjs --production  minified, no source maps (for the .vsix)
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** Node-side bundles. */
const nodeEntries = {
  cli: 'src/cli/main.ts',
  extension: 'src/extension/extension.ts',
  sandboxWorker: 'src/sandbox/worker/workerMain.ts',
  runnerProcess: 'src/runner/runnerProcess.ts',
};

/**
 * ts-morph carries the TypeScript compiler (about 13 MB of JavaScript) and is loaded lazily, on
 * the paths that analyse or type-check a policy. It is bundled once, into dist/tsMorph.js, which
 * the other bundles require by relative path when they need it: no bundle parses it at start-up,
 * and the .vsix needs no node_modules/ts-morph.
 */
const tsMorphEntry = { tsMorph: 'ts-morph' };
const tsMorphAsSibling = {
  name: 'ts-morph-as-sibling',
  setup(build) {
    build.onResolve({ filter: /^ts-morph$/ }, () => ({ path: './tsMorph.js', external: true }));
  },
};
const webviewEntries = {
  dashboard: 'webview-ui/dashboard/main.ts',
  replay: 'webview-ui/replay/main.ts',
  diagnostics: 'webview-ui/diagnostics/main.ts',
};

const pick = (entries) => Object.fromEntries(Object.entries(entries).filter(([, file]) => existsSync(file)));

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'info',
  legalComments: 'none',
};

const contexts = [];
const nodePoints = pick(nodeEntries);
if (Object.keys(nodePoints).length > 0) {
  contexts.push(await esbuild.context({
    ...common,
    entryPoints: nodePoints,
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'esbuild', 'playwright-core'],
    plugins: [tsMorphAsSibling],
  }));
  contexts.push(await esbuild.context({
    ...common,
    // The compiler's own source maps would only add megabytes.
    sourcemap: false,
    entryPoints: tsMorphEntry,
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  }));
}
const webPoints = pick(webviewEntries);
if (Object.keys(webPoints).length > 0) {
  contexts.push(await esbuild.context({
    ...common,
    entryPoints: webPoints,
    outdir: 'dist/webview',
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    loader: { '.css': 'css' },
  }));
}

if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
}
