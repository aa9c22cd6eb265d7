// Writes what a simulating process reads into dist/mujoco/: the MuJoCo WebAssembly package split
// into its JavaScript loader without the inlined binary and the binary as a .wasm file, and the
// vendored meshes and textures (assets/) the model XML refers to.
//
// Why: mujoco-js ships one 11 MB ES module whose loader carries the 8 MB binary as a base64
// string literal. A process that loads it keeps the whole source (V8 holds a script's source for
// as long as its functions live), then decodes the literal and compiles the result; that costs
// about 35 MB of resident memory in every sandbox worker for bytes that are used once. The loader
// accepts an `instantiateWasm` hook, so the worker compiles the .wasm file itself and the string
// never exists (src/envs/mujoco/engineFiles.ts). The meshes and textures are files for the same
// reason: embedded in the bundles as base64 they cost every process that loads the environments
// (MuJoCo or not) about 7 MB.
//
//   node scripts/mujocoEngine.mjs [outDir]     (the build calls writeMujocoEngine('dist/mujoco'))
import { Buffer } from 'node:buffer';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The vendored assets beside the model XML (which the bundles embed as text), by extension. */
const BINARY_ASSET = /\.(stl|png)$/;
const ASSETS = 'src/envs/mujoco/assets';

/** The loader's only call that materialises the inlined binary. */
const INLINE_START = "function findWasmBinary() {\n  return base64Decode('";
const INLINE_END = "');\n}";

/**
 * Writes `mujoco_wasm.mjs` (the package's loader with the binary's literal replaced by an error:
 * it is only reached without an `instantiateWasm` hook), `mujoco.wasm`, `assets/` (the vendored
 * meshes and textures, in their folders) and `engine.json` (the package version they came from,
 * which the loader side checks against the installed package).
 * Returns undefined when the package is not installed; throws when its loader is not laid out as
 * expected (a new package version: adjust INLINE_START/INLINE_END).
 */
export function writeMujocoEngine(outDir, fromDir = process.cwd()) {
  const require = createRequire(path.join(path.resolve(fromDir), 'package.json'));
  let main;
  try {
    main = require.resolve('mujoco-js');
  } catch {
    return undefined;
  }
  const pkg = JSON.parse(readFileSync(path.join(path.dirname(path.dirname(main)), 'package.json'), 'utf8'));
  const source = readFileSync(main, 'utf8');
  const start = source.indexOf(INLINE_START);
  if (start < 0 || source.indexOf(INLINE_START, start + 1) >= 0) throw new Error(`mujoco-js ${pkg.version}: expected exactly one inlined binary in ${main}`);
  const from = start + INLINE_START.length;
  const to = source.indexOf(INLINE_END, from);
  if (to < 0) throw new Error(`mujoco-js ${pkg.version}: the inlined binary in ${main} has no end`);
  const wasm = Buffer.from(source.slice(from, to), 'base64');
  if (wasm.readUInt32BE(0) !== 0x0061736d) throw new Error(`mujoco-js ${pkg.version}: the inlined data is not WebAssembly`);
  const loader =
    source.slice(0, start) +
    "function findWasmBinary() {\n  throw new Error('PolicyForge loads this engine through instantiateWasm (dist/mujoco/mujoco.wasm)');\n}" +
    source.slice(to + INLINE_END.length);
  mkdirSync(outDir, { recursive: true });
  replaceFile(path.join(outDir, 'mujoco.wasm'), wasm);
  replaceFile(path.join(outDir, 'mujoco_wasm.mjs'), Buffer.from(loader));
  const assets = path.join(path.resolve(fromDir), ASSETS);
  for (const rel of readdirSync(assets, { recursive: true }).map(String).filter((f) => BINARY_ASSET.test(f)).sort()) {
    mkdirSync(path.dirname(path.join(outDir, 'assets', rel)), { recursive: true });
    replaceFile(path.join(outDir, 'assets', rel), readFileSync(path.join(assets, rel)));
  }
  replaceFile(path.join(outDir, 'engine.json'), Buffer.from(`${JSON.stringify({ package: 'mujoco-js', version: pkg.version, wasmBytes: wasm.length }, null, 2)}\n`));
  return { version: pkg.version, wasmBytes: wasm.length, loaderBytes: loader.length };
}

/**
 * Running workers may be loading these files while a (watch) build runs: an unchanged file is left
 * alone, a changed one replaced whole by a rename, so no reader sees a partly written binary.
 */
function replaceFile(file, content) {
  if (existsSync(file) && readFileSync(file).equals(content)) return;
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, file);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? 'dist/mujoco';
  const r = writeMujocoEngine(out);
  process.stdout.write(r ? `${out}: mujoco-js ${r.version}, ${r.wasmBytes} bytes of WebAssembly, ${r.loaderBytes} bytes of loader\n` : 'mujoco-js is not installed: nothing to split\n');
}
