/**
 * Edit analysis: time to classify a pair of ~1,000-line bundles (four modules and a JSON table;
 * the child retunes literals, adds a helper and an if).
 * - cold: the first call in a fresh Node process, loading ts-morph included. The analysis is
 *   bundled with esbuild the way dist/cli.js ships it and `require`d by a child process, which
 *   times require + analyzeEdit. Baseline: a fresh process reading the same files and diffing
 *   them with jsdiff (what a plain text diff of the two bundles costs from cold).
 * - warm: in this process after one call (ts-morph loaded, Project warm) with the facts cache
 *   cleared, so both bundles are parsed again; and with the parent's facts cached, the case of a
 *   run (the parent was the previous child). Baseline: reading and jsdiffing the same files here.
 */
import { execFile } from 'node:child_process';
import { diffLines } from 'diff';
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { analyzeEdit, clearFactsCache } from '../src/analysis';
import { bestOf, type BenchModule } from './harness';

const REPO = path.join(__dirname, '..');
const WORK = path.join(REPO, '.bench', 'analysis');
const run = promisify(execFile);

function feature(i: number, scale: number): string {
  return `export function feature${i}(obs: Float64Array, k: number): number {
  let acc = ${(i / 100).toFixed(2)};
  for (let j = 0; j < obs.length; j++) {
    const v = obs[j]! * ${(1 + i / 10).toFixed(1)} - k;
    if (v > ${(0.5 * scale).toFixed(2)} && acc < 10) {
      acc += v * 0.25;
    } else if (v < -0.5) {
      acc -= Math.abs(v) * 0.125;
    }
  }
  return acc > 3 ? 3 : acc;
}
`;
}

/** A bundle of about 1,000 lines: policy.ts + three feature modules + weights.json. */
function bundle(child: boolean): Record<string, string> {
  const files: Record<string, string> = {};
  for (let m = 0; m < 3; m++) {
    const fns: string[] = [];
    for (let i = m * 22; i < (m + 1) * 22; i++) fns.push(feature(i, child && i % 17 === 3 ? 1.2 : 1));
    if (child && m === 1) fns.push('export function clampUnit(x: number): number {\n  return Math.max(-1, Math.min(1, x));\n}\n');
    files[`features${m}.ts`] = `/** Feature bank ${m}. */\n${fns.join('\n')}`;
  }
  const weights = Array.from({ length: 66 }, (_, i) => (child && i === 5 ? 0.75 : (i % 7) / 10));
  files['weights.json'] = `${JSON.stringify({ w: weights, bias: child ? 0.2 : 0.1 }, null, 2)}\n`;
  const uses = Array.from({ length: 66 }, (_, i) => `    score += weights.w[${i}]! * f${Math.floor(i / 22)}.feature${i}(observation, this.k);`);
  files['policy.ts'] = `import weights from './weights.json';
import * as f0 from './features0';
import * as f1 from './features1';
import * as f2 from './features2';

export class Policy {
  private readonly k = ${child ? '0.35' : '0.3'};
  private last = 0;

  constructor(_ctx: PolicyContext) {}

  act(observation: Observation): Action {
    let score = weights.bias;
${uses.join('\n')}
${child ? '    if (Math.abs(score) < 0.01) return this.last;\n    score = f1.clampUnit(score);\n' : ''}    this.last = score > 0 ? 1 : 0;
    return this.last;
  }
}
`;
  return files;
}

function write(dir: string, files: Record<string, string>): void {
  fs.rmSync(dir, { recursive: true, force: true });
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
}

/** Reads both bundles and jsdiffs them file by file: the plain-text floor. */
function textDiff(parent: string, child: string): number {
  let changed = 0;
  for (const f of fs.readdirSync(child).sort()) {
    const a = fs.existsSync(path.join(parent, f)) ? fs.readFileSync(path.join(parent, f), 'utf8') : '';
    const b = fs.readFileSync(path.join(child, f), 'utf8');
    for (const part of diffLines(a, b)) if (part.added || part.removed) changed += part.count;
  }
  return changed;
}

async function childMs(script: string): Promise<number> {
  const { stdout } = await run(process.execPath, ['-e', script], { cwd: REPO });
  const ms = Number(JSON.parse(stdout.trim()).ms);
  if (!Number.isFinite(ms)) throw new Error(`child printed ${stdout}`);
  return ms;
}

async function bestChild(n: number, script: string): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < n; i++) best = Math.min(best, await childMs(script));
  return best;
}

export const analysisBench: BenchModule = {
  name: 'edit analysis (1,000-line bundle pair)',
  async run(table) {
    const parent = path.join(WORK, 'parent');
    const child = path.join(WORK, 'child');
    const p = bundle(false);
    const c = bundle(true);
    write(parent, p);
    write(child, c);
    const lines = (files: Record<string, string>): number => Object.values(files).reduce((s, t) => s + t.split('\n').length - 1, 0);
    process.stdout.write(`bundle lines: parent ${lines(p)}, child ${lines(c)}\n`);

    // The analysis as it ships: one CommonJS bundle with ts-morph external.
    const bundled = path.join(WORK, 'analysis.cjs');
    await esbuild.build({ entryPoints: [path.join(REPO, 'src/analysis/index.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: bundled, external: ['ts-morph'], logLevel: 'error' });

    const coldScript = `const t0 = performance.now();
const a = require(${JSON.stringify(bundled)});
a.analyzeEdit(${JSON.stringify(parent)}, ${JSON.stringify(child)}).then((r) => {
  if (!r.ok || r.analysis.class !== 'structural') throw new Error('unexpected result ' + JSON.stringify(r.ok ? r.analysis.class : r.error));
  process.stdout.write(JSON.stringify({ ms: performance.now() - t0 }));
});`;
    const baselineScript = `const t0 = performance.now();
const fs = require('node:fs'); const path = require('node:path');
const { diffLines } = require(${JSON.stringify(require.resolve('diff'))});
let changed = 0;
for (const f of fs.readdirSync(${JSON.stringify(child)}).sort()) {
  const pa = path.join(${JSON.stringify(parent)}, f);
  const a = fs.existsSync(pa) ? fs.readFileSync(pa, 'utf8') : '';
  const b = fs.readFileSync(path.join(${JSON.stringify(child)}, f), 'utf8');
  for (const part of diffLines(a, b)) if (part.added || part.removed) changed += part.count;
}
process.stdout.write(JSON.stringify({ ms: performance.now() - t0, changed }));`;
    const cold = await bestChild(3, coldScript);
    const coldBaseline = await bestChild(3, baselineScript);
    table.duration('classify, cold (fresh process, ts-morph load)', cold, 'ms', 'cold read+jsdiff', coldBaseline, '≤ 1.5 s');

    // Warm: engine loaded by one call; each timed call parses both bundles again.
    const first = await analyzeEdit(parent, child);
    if (!first.ok || first.analysis.class !== 'structural') throw new Error('unexpected warm result');
    const warm = await bestOf(7, async () => {
      clearFactsCache();
      await analyzeEdit(parent, child);
    });
    const warmBaseline = await bestOf(7, () => textDiff(parent, child));
    table.duration('classify, warm (both bundles parsed)', warm, 'ms', 'read+jsdiff', warmBaseline, '≤ 150 ms');

    // A run's case: the parent's facts are cached from the previous submission; only the child's modules parse.
    const childOnly = await bestOfReturned(7, async () => {
      clearFactsCache();
      await analyzeEdit(parent, parent);
      const t0 = performance.now();
      await analyzeEdit(parent, child);
      return performance.now() - t0;
    });
    table.duration('classify, warm (parent facts cached)', childOnly, 'ms', 'read+jsdiff', warmBaseline, '≤ 150 ms');
  },
};

/** Best of n values returned by `fn` (for timings that exclude a set-up step). */
async function bestOfReturned(n: number, fn: () => Promise<number>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < n; i++) best = Math.min(best, await fn());
  return best;
}
