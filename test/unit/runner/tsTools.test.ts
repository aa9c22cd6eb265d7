/**
 * The runner's TypeScript tools in their child process (src/runner/tsTools): the same answers as
 * in the runner's own process, a child that dies fails only the calls in flight, and an idle
 * child exits so the compiler's memory goes with it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { ChildTools } from '../../../src/runner/tsTools/tsToolsClient';
import { inProcessTools } from '../../../src/runner/tsTools/tools';

const repo = path.resolve(__dirname, '../../..');

/** The child entry built as scripts/build.mjs builds it, where `require('ts-morph')` resolves to the package. */
function buildChild(): string {
  const outfile = path.join(repo, 'node_modules', '.cache', 'pf-test-ts-tools', 'tsTools.js');
  buildSync({ absWorkingDir: repo, entryPoints: ['src/runner/tsTools/tsToolsProcess.ts'], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'error', external: ['ts-morph', 'esbuild', 'vscode', 'mujoco-js'] });
  return outfile;
}

function policyDir(root: string, body: string): string {
  mkdirSync(path.join(root, 'policy'), { recursive: true });
  writeFileSync(path.join(root, 'policy', 'policy.ts'), body);
  return root;
}

const POLICY = (k: number, extra = ''): string => `export class Policy {\n  private readonly k = ${k};\n  act(o: number[]): number {\n    return o[2]! * this.k > 0 ? 1 : 0;\n  }\n}\n${extra}`;

function exited(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

async function until(cond: () => boolean, ms: number): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('runner: TypeScript tools in a child process', function () {
  this.timeout(60_000);
  let script: string;
  let tmp: string;
  before(() => {
    script = buildChild();
    tmp = mkdtempSync(path.join(os.tmpdir(), 'pf-ts-tools-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('type-checks and classifies edits as the in-process tools do', async () => {
    const child = new ChildTools(script);
    try {
      const a = policyDir(path.join(tmp, 'a'), POLICY(1));
      const b = policyDir(path.join(tmp, 'b'), POLICY(2, 'const x: number = "no";\n'));
      const viaChild = await child.tools.typeCheck(b, ['policy/policy.ts']);
      assert.deepEqual(viaChild, await inProcessTools.typeCheck(b, ['policy/policy.ts']));
      assert.equal(viaChild.length, 1);
      assert.match(viaChild[0]!.message, /not assignable to type 'number'/);
      const c = policyDir(path.join(tmp, 'c'), POLICY(3));
      const edit = await child.tools.editSummary(a, c, 4);
      assert.equal(edit?.class, 'parametric');
      assert.equal(edit?.parent, 4);
    } finally {
      child.stop();
    }
  });

  it('fails the calls of a child that died, and starts another for the next call', async () => {
    const child = new ChildTools(script);
    try {
      const d = policyDir(path.join(tmp, 'd'), POLICY(1));
      const call = child.tools.typeCheck(d, ['policy/policy.ts']);
      const pid = child.pid!;
      process.kill(pid, 'SIGKILL');
      await assert.rejects(call, /TypeScript tools process exited \(SIGKILL\)/);
      assert.deepEqual(await child.tools.typeCheck(d, ['policy/policy.ts']), []);
      assert.notEqual(child.pid, pid);
    } finally {
      child.stop();
    }
  });

  it('exits once idle, and comes back on demand', async () => {
    const child = new ChildTools(script, 200);
    const d = policyDir(path.join(tmp, 'e'), POLICY(1));
    await child.tools.typeCheck(d, ['policy/policy.ts']);
    const pid = child.pid!;
    await until(() => exited(pid), 5_000);
    assert.equal(child.pid, undefined);
    assert.deepEqual(await child.tools.typeCheck(d, ['policy/policy.ts']), []);
    child.stop();
  });
});
