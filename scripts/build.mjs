// Builds every bundle into dist/ with esbuild.
//   node scripts/build.mjs               development build (inline source maps)
//   node scripts/build.mjs --watch       rebuild on change
//   node scripts/build.mjs --production  minified, no source maps (for the .vsix)
import * as esbuild from 'esbuild';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { writeMujocoEngine } from './mujocoEngine.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** Node-side bundles (the CLI is built apart, below). */
const nodeEntries = {
  extension: 'src/extension/extension.ts',
  sandboxWorker: 'src/sandbox/worker/workerMain.ts',
  runnerProcess: 'src/runner/runnerProcess.ts',
  // The runner's type check and edit analysis, in a child process so the compiler's memory goes when idle.
  tsTools: 'src/runner/tsTools/tsToolsProcess.ts',
};

/**
 * Bundles loaded only on the paths that need them, each built once and required by the other
 * bundles by relative path, so no command or process parses them at start-up: ts-morph (with the
 * TypeScript compiler, about 13 MB) analyses and type-checks policies. `match` is the import
 * specifier the other bundles' sources use.
 */
const lazyBundles = [{ name: 'tsMorph', entry: 'ts-morph', match: /^ts-morph$/ }];
const lazyAsSibling = {
  name: 'lazy-bundles-as-siblings',
  setup(build) {
    for (const lazy of lazyBundles) {
      build.onResolve({ filter: lazy.match }, (args) => (args.kind === 'entry-point' ? undefined : { path: `./${lazy.name}.js`, external: true }));
    }
  },
};
/**
 * zod's namespace re-exports every locale's messages (about 360 KB of source) although only the
 * default English one is ever configured; every process that validates the protocol would parse them.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: path.join(path.dirname(args.importer), '..', 'locales', 'index.js'), namespace: 'zod-en' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-en' }, (args) => ({ contents: "export { default as en } from './en.js';", loader: 'js', resolveDir: path.dirname(args.path) }));
  },
};

/**
 * The CLI is ES modules split by esbuild: dist/cli.mjs holds the dispatcher and each command's
 * code is a chunk (dist/cli-*.mjs) imported when that command runs, with the code commands share
 * in shared chunks, so `policyforge status` parses the protocol client and not the environments,
 * the sandbox or the MCP SDK. Chunks sit beside the other bundles because the code finds
 * runnerProcess.js and sandboxWorker.js next to itself. dist/cli.js stays the CommonJS entry
 * bin/policyforge.js requires.
 */
const CLI_CHUNK = /^cli-.*\.mjs$/;
/**
 * ws requires https and tls (for wss:// only) and zlib (for compressed frames) when it loads;
 * the CLI speaks plain ws:// to its runner, and loading those built-ins is a good part of a quick
 * command's start-up. Each becomes a proxy that requires the real module on first use.
 */
const LAZY_WS_BUILTINS = /^(https|tls|zlib)$/;
const lazyWsBuiltins = {
  name: 'lazy-ws-builtins',
  setup(build) {
    build.onResolve({ filter: LAZY_WS_BUILTINS }, (args) => (/[\\/]node_modules[\\/]ws[\\/]/.test(args.importer) ? { path: args.path, namespace: 'lazy-builtin' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      loader: 'js',
      contents: `let real;
const load = () => (real ??= require('node:${args.path}'));
module.exports = new Proxy({}, {
  get: (_, key) => load()[key],
  has: (_, key) => key in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, key) => ({ ...Reflect.getOwnPropertyDescriptor(load(), key), configurable: true }),
});
`,
    }));
  },
};
const cliEsmShims = [
  "import { createRequire as __pfCreateRequire } from 'node:module';",
  "import { fileURLToPath as __pfFileURLToPath } from 'node:url';",
  'const require = __pfCreateRequire(import.meta.url);',
  'const __filename = __pfFileURLToPath(import.meta.url);',
  "const __dirname = __pfFileURLToPath(new URL('.', import.meta.url)).replace(/[\\\\/]$/, '');",
].join('\n');
/**
 * The commands an agent calls between submits (status, feedback, report) are one CommonJS bundle,
 * dist/cliQuick.js: a single file that Node's CommonJS loader reads starts faster than the ES-module
 * graph of the full CLI. src/cli/quickCommands.json names them for both the bundle and dist/cli.js,
 * which is scripts/cliEntry.js with that list filled in.
 */
const QUICK_COMMANDS = JSON.parse(readFileSync('src/cli/quickCommands.json', 'utf8'));
const cliEntryShim = readFileSync('scripts/cliEntry.js', 'utf8').replace('/* QUICK_COMMANDS */ []', JSON.stringify(QUICK_COMMANDS));
/** Outputs of earlier builds that nothing loads any more: the one-file CLI's map, the MCP server's own bundle. */
const RETIRED = ['cli.js.map', 'mcpServer.js'];
/** Removes chunks an earlier build left behind, once this build's outputs are known. */
const cliChunkCleanup = {
  name: 'cli-chunk-cleanup',
  setup(build) {
    build.onEnd((result) => {
      if (!result.metafile) return;
      const live = new Set(Object.keys(result.metafile.outputs).map((f) => path.basename(f)));
      for (const f of readdirSync('dist')) {
        if ((CLI_CHUNK.test(f.replace(/\.map$/, '')) && !live.has(f)) || RETIRED.includes(f)) rmSync(path.join('dist', f), { force: true });
      }
      writeFileSync('dist/cli.js', cliEntryShim);
    });
  },
};

/**
 * simple-statistics' published bundles fill a normal-distribution table when they load, which
 * every process that formats paired statistics would pay for; its ES-module sources, one function
 * per file and free of load-time effects apart from that table, let esbuild keep only the functions
 * a bundle calls.
 */
const simpleStatisticsBySource = {
  name: 'simple-statistics-by-source',
  setup(build) {
    build.onResolve({ filter: /^simple-statistics$/ }, () => ({ path: path.resolve('node_modules/simple-statistics/index.js'), sideEffects: false }));
    build.onResolve({ filter: /^\.\.?\// }, (args) =>
      /[\\/]node_modules[\\/]simple-statistics[\\/]/.test(args.importer) ? { path: path.resolve(args.resolveDir, args.path), sideEffects: false } : undefined,
    );
  },
};

const webviewEntries = {
  dashboard: 'webview-ui/dashboard/main.ts',
  replay: 'webview-ui/replay/main.ts',
  diagnostics: 'webview-ui/diagnostics/main.ts',
  leaderboard: 'webview-ui/leaderboard/main.ts',
  arena: 'webview-ui/arena/main.ts',
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
    // A process holds its bundle's source text for life, in every sandbox worker too. Comments go
    // with the whitespace: one non-Latin-1 character in a comment would make V8 keep the whole text
    // at two bytes per character. Names stay, for stack traces; the linked maps lead to the sources.
    minifyWhitespace: true,
    minifySyntax: true,
    // mujoco-js (11 MB of inlined WebAssembly) is required from node_modules by the processes that simulate.
    external: ['vscode', 'esbuild', 'playwright-core', 'mujoco-js'],
    plugins: [lazyAsSibling, zodEnglishOnly, simpleStatisticsBySource],
  }));
}
if (existsSync('src/cli/main.ts')) {
  contexts.push(await esbuild.context({
    ...common,
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'cli-[name]-[hash]',
    splitting: true,
    metafile: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: cliEsmShims },
    // A quick command's start-up is mostly parsing: whitespace and syntax go, names stay for stack traces.
    minifyWhitespace: true,
    minifySyntax: true,
    external: ['vscode', 'esbuild', 'playwright-core', 'mujoco-js'],
    plugins: [lazyAsSibling, zodEnglishOnly, lazyWsBuiltins, simpleStatisticsBySource, cliChunkCleanup],
  }));
  contexts.push(await esbuild.context({
    ...common,
    entryPoints: { cliQuick: 'src/cli/quick.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    external: ['vscode', 'esbuild', 'playwright-core', 'mujoco-js'],
    plugins: [lazyAsSibling, zodEnglishOnly, lazyWsBuiltins, simpleStatisticsBySource],
  }));
}
if (Object.keys(nodePoints).length > 0 || existsSync('src/cli/main.ts')) {
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
    plugins: [lazyAsSibling, zodEnglishOnly],
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

// The processes that simulate load the MuJoCo engine's loader and binary from dist/mujoco/.
if (Object.keys(nodePoints).length > 0) writeMujocoEngine('dist/mujoco');

if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
}
