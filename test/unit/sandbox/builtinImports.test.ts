/** Node built-ins under policy/: refused at build time wherever they are imported, used or not. */
import { strict as assert } from 'node:assert';
import { buildBundle, type BuildResult } from '../../../src/sandbox';
import { removeWorkspaces, workspace } from './helpers';

const POLICY = 'export class Policy { act(o: Float64Array): number { return o[2]! > 0 ? 1 : 0; } }\n';

function refusal(r: BuildResult): string[] {
  assert.equal(r.ok, false, 'the build is refused');
  return r.diagnostics.map((d) => `${d.kind} ${d.file}:${d.line} ${d.message}`);
}

describe('sandbox: Node built-ins anywhere under policy/', function () {
  this.timeout(30_000);
  after(removeWorkspaces);

  for (const [what, files, where] of [
    ['an unused import in policy.ts', { 'policy/policy.ts': `import * as fs from 'fs';\n${POLICY}` }, 'policy/policy.ts:1'],
    ['a used node: import', { 'policy/policy.ts': `import { readFileSync } from 'node:fs';\nexport class Policy { act() { return readFileSync ? 1 : 0; } }\n` }, 'policy/policy.ts:1'],
    ['a file nothing imports', { 'policy/policy.ts': POLICY, 'policy/scratch.ts': "import { spawn } from 'node:child_process';\nexport const x = 1;\n" }, 'policy/scratch.ts:1'],
    ['a require() in a .js helper', { 'policy/policy.ts': POLICY, 'policy/util/helper.js': "const os = require('os');\nmodule.exports = os;\n" }, 'policy/util/helper.js:1'],
    ['a side-effect import in a module policy.ts imports', { 'policy/policy.ts': `import './setup';\n${POLICY}`, 'policy/setup.ts': "import 'node:worker_threads';\n" }, 'policy/setup.ts:1'],
  ] as const) {
    it(`refuses ${what}`, async () => {
      const lines = refusal(await buildBundle(workspace(files), { typeCheck: false }));
      assert.ok(lines.some((l) => l.startsWith(`resolve ${where} import of Node built-in`) && l.includes('no file under policy/ may import a Node built-in')), lines.join('\n'));
    });
  }

  it('still builds a policy whose helpers import each other and use only types from a .d.ts', async () => {
    const r = await buildBundle(
      workspace({ 'policy/policy.ts': `import type { Gains } from './types';\nimport { gain } from './gains';\nconst g: Gains = { k: gain };\nexport class Policy { act(o: Float64Array): number { return o[2]! * g.k > 0 ? 1 : 0; } }\n`, 'policy/gains.ts': 'export const gain = 2;\n', 'policy/types.d.ts': 'export interface Gains { k: number }\n', 'policy/unused.ts': "import { gain } from './gains';\nexport const twice = gain * 2;\n" }),
      { typeCheck: false },
    );
    assert.ok(r.ok, JSON.stringify(r.diagnostics));
  });
});
