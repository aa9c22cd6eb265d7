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
 * Bundles loaded only on the paths that need them, each built once and required by the other
 * bundles by relative path, so no command or process parses them at start-up: ts-morph (with the
 * TypeScript compiler, about 13 MB) analyses and type-checks policies; the MCP server (with its
 * SDK and JSON Schema validator) serves `policyforge mcp`. `match` is the import specifier the
 * other bundles' sources use.
 */
const lazyBundles = [
  { name: 'tsMorph', entry: 'ts-morph', match: /^ts-morph$/ },
  { name: 'mcpServer', entry: 'src/cli/mcp/mcpServer.ts', match: /\/mcp\/mcpServer$/ },
];
const lazyAsSibling = {
  name: 'lazy-bundles-as-siblings',
  setup(build) {
    for (const lazy of lazyBundles) {
      build.onResolve({ filter: lazy.match }, (args) => (args.kind === 'entry-point' ? undefined : { path: `./${lazy.name}.js`, external: true }));
    }
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
    // mujoco-js (11 MB of inlined WebAssembly) is required from node_modules by the processes that simulate.
    external: ['vscode', 'esbuild', 'playwright-core', 'mujoco-js'],
    plugins: [lazyAsSibling],
  }));
  contexts.push(await esbuild.context({
    ...common,
    // Mostly vendored code (the compiler, the MCP SDK): source maps would only add megabytes.
    sourcemap: false,
    entryPoints: Object.fromEntries(lazyBundles.map((b) => [b.name, b.entry])),
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['esbuild'],
    plugins: [lazyAsSibling],
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
    // The codicon font is emitted next to the panel's CSS, inside the webview's local resource root.
    loader: { '.css': 'css', '.ttf': 'file' },
  }));
}

if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
}
