/**
 * Where the MuJoCo engine is loaded from. The build splits the `mujoco-js` package into its loader
 * and its binary (`dist/mujoco/`, scripts/mujocoEngine.mjs): a process that compiles the .wasm file
 * itself never holds the package's 11 MB source with the binary inlined as base64, about 35 MB of
 * resident memory per sandbox worker. Without a build (sources run through tsx) or when the build
 * came from another package version, the package is loaded as published.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

export interface SplitEngine {
  /** The package's loader without the inlined binary (an ES module). */
  readonly loader: string;
  /** The engine's WebAssembly binary. */
  readonly wasm: string;
}

const SPLIT_DIR = 'mujoco';

/** existsSync, false where the process may not look (the sandbox worker's permissions throw there). */
function exists(file: string): boolean {
  try {
    return existsSync(file);
  } catch {
    return false;
  }
}

/**
 * `dist/mujoco/` beside this code when it runs bundled (dist/*.js), else in the package's dist/
 * above it; undefined when absent or built from a package version other than the installed one.
 */
export function splitEngine(from: string = __dirname): SplitEngine | undefined {
  const dir = splitEngineDir(from);
  if (!dir) return undefined;
  try {
    const built = JSON.parse(readFileSync(path.join(dir, 'engine.json'), 'utf8')) as { version?: unknown };
    const installed = packageVersion();
    if (installed !== undefined && built.version !== installed) return undefined;
  } catch {
    return undefined;
  }
  return { loader: path.join(dir, 'mujoco_wasm.mjs'), wasm: path.join(dir, 'mujoco.wasm') };
}

function splitEngineDir(from: string): string | undefined {
  const beside = path.join(from, SPLIT_DIR);
  if (exists(path.join(beside, 'engine.json'))) return beside;
  for (let dir = from; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'dist', SPLIT_DIR);
    if (exists(path.join(candidate, 'engine.json')) && exists(path.join(dir, 'package.json'))) return candidate;
  }
  return undefined;
}

/**
 * The vendored meshes and textures the model XML refers to (`gymnasium/…`, `robotics/…`): the
 * source tree's own when this code runs from it (tests, benchmarks through tsx), else the build's
 * copy in `dist/mujoco/assets/` (scripts/mujocoEngine.mjs).
 */
export function mujocoAssetsDir(from: string = __dirname): string {
  const source = path.join(from, 'assets');
  if (exists(path.join(source, 'robotics'))) return source;
  const dir = splitEngineDir(from);
  if (dir && exists(path.join(dir, 'assets'))) return path.join(dir, 'assets');
  throw new Error(`the MuJoCo meshes and textures were not found beside ${from} nor in dist/mujoco/assets: run \`npm run build\``);
}

/**
 * The folder of the engine package, for a process that may read only what it is allowed to (the
 * sandbox worker): undefined when the package is not installed.
 */
export function mujocoPackageDir(): string | undefined {
  try {
    return path.dirname(path.dirname(require.resolve('mujoco-js')));
  } catch {
    return undefined;
  }
}

function packageVersion(): string | undefined {
  const dir = mujocoPackageDir();
  if (!dir) return undefined;
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Every folder a simulating process reads the engine from (the sandbox worker's read permissions). */
export function mujocoReadPaths(): string[] {
  const split = splitEngine();
  const pkg = mujocoPackageDir();
  return [...(split ? [path.dirname(split.loader)] : []), ...(pkg ? [pkg] : [])];
}
