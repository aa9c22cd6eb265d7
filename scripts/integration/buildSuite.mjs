// Bundles the integration suite (test/integration/**) into out/integration/<pid>/ for the extension
// host: one file per test module plus index.js, which mocha loads at run time. `vscode` and
// mocha stay external (the extension host provides the first; the second resolves from
// node_modules).
import * as esbuild from 'esbuild';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const suitesDir = join(root, 'out', 'integration');

/** Builds into out/integration/<pid>/ so two runs in one checkout never load each other's half-built suite. */
export async function buildSuite() {
  const srcDir = join(root, 'test', 'integration');
  const tests = readdirSync(srcDir).filter((f) => f.endsWith('.test.ts'));
  const suiteOutDir = join(suitesDir, String(process.pid));
  rmSync(suiteOutDir, { recursive: true, force: true });
  // Suites of earlier runs whose driver is gone.
  for (const d of existsSync(suitesDir) ? readdirSync(suitesDir) : []) {
    if (/^\d+$/.test(d) && !alive(Number(d))) rmSync(join(suitesDir, d), { recursive: true, force: true });
  }
  await esbuild.build({
    entryPoints: [join(srcDir, 'index.ts'), ...tests.map((f) => join(srcDir, f))],
    outdir: suiteOutDir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    external: ['vscode', 'mocha', 'ts-morph', 'esbuild'],
    logLevel: 'warning',
  });
  return join(suiteOutDir, 'index.js');
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}
