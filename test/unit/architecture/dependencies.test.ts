import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkDependencyRules, formatViolation } from './dependencyRules';

const ROOT = path.resolve(__dirname, '../../..');

describe('dependency direction (docs/DESIGN.md)', () => {
  it('the repository follows the layering rules', () => {
    const violations = checkDependencyRules(ROOT);
    assert.equal(violations.length, 0, `forbidden imports:\n${violations.map(formatViolation).join('\n')}`);
  });

  describe('catches each kind of forbidden import, naming it', () => {
    let tmp: string;
    beforeEach(() => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-deps-'));
    });
    afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

    const write = (rel: string, text: string): void => {
      fs.mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
      fs.writeFileSync(path.join(tmp, rel), text);
    };

    it('vscode outside src/extension', () => {
      write('src/runner/x.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n");
      const [v] = checkDependencyRules(tmp);
      assert.ok(v);
      assert.match(formatViolation(v), /src\/runner\/x\.ts:1: import "vscode": only src\/extension/);
    });

    it('envs importing runner or sandbox', () => {
      write('src/envs/a.ts', "import { x } from '../runner/server';\nexport const y = x;\n");
      write('src/envs/b.ts', "export { z } from '../sandbox/pool';\n");
      write('src/runner/server.ts', 'export const x = 1;\n');
      write('src/sandbox/pool.ts', 'export const z = 1;\n');
      const text = checkDependencyRules(tmp).map(formatViolation).join('\n');
      assert.match(text, /src\/envs\/a\.ts:1: import "\.\.\/runner\/server": src\/envs must not import src\/runner/);
      assert.match(text, /src\/envs\/b\.ts:1: import "\.\.\/sandbox\/pool": src\/envs must not import src\/sandbox/);
    });

    it('webview-ui importing values from protocol and stats is fine; anything else from src is not', () => {
      write('webview-ui/a.ts', "import type { RunReport } from '../src/protocol/feedback';\nimport { schema } from '../src/protocol/webview';\nimport { make } from '../src/envs/index';\nimport { best } from '../src/stats/best';\nexport const u = [schema, make, best] as unknown as RunReport;\n");
      write('src/protocol/webview.ts', 'export const schema = 1;\n');
      write('src/envs/index.ts', 'export const make = 1;\n');
      write('src/stats/best.ts', 'export const best = 1;\n');
      const text = checkDependencyRules(tmp).map(formatViolation).join('\n');
      assert.doesNotMatch(text, /a\.ts:[124]:/);
      assert.match(text, /webview-ui\/a\.ts:3: import "\.\.\/src\/envs\/index": webview-ui must not import src\/envs \(allowed: src\/protocol, src\/stats\)/);
    });

    it('webview-ui importing Node built-ins', () => {
      write('webview-ui/a.ts', "import * as fs from 'node:fs';\nimport { join } from 'path';\nimport uPlot from 'uplot';\nexport const x = [fs, join, uPlot];\n");
      const text = checkDependencyRules(tmp).map(formatViolation).join('\n');
      assert.match(text, /webview-ui\/a\.ts:1: import "node:fs": webview-ui runs in a browser/);
      assert.match(text, /webview-ui\/a\.ts:2: import "path": webview-ui runs in a browser/);
      assert.doesNotMatch(text, /uplot/);
    });

    it('protocol importing Node, vscode, another package or another area', () => {
      write('src/protocol/a.ts', "import { z } from 'zod';\nimport { readFileSync } from 'node:fs';\nimport { EventEmitter } from 'events';\nimport { diffLines } from 'diff';\nimport * as vscode from 'vscode';\nimport { make } from '../envs/index';\nexport const x = [z, readFileSync, EventEmitter, diffLines, vscode, make];\n");
      write('src/envs/index.ts', 'export const make = 1;\n');
      const text = checkDependencyRules(tmp).map(formatViolation).join('\n');
      assert.doesNotMatch(text, /a\.ts:1:/, 'zod is the one package protocol uses');
      assert.match(text, /src\/protocol\/a\.ts:2: import "node:fs": src\/protocol may import only zod/);
      assert.match(text, /src\/protocol\/a\.ts:3: import "events": src\/protocol may import only zod/);
      assert.match(text, /src\/protocol\/a\.ts:4: import "diff": src\/protocol may import only zod/);
      assert.match(text, /src\/protocol\/a\.ts:5: import "vscode": only src\/extension/);
      assert.match(text, /src\/protocol\/a\.ts:6: import "\.\.\/envs\/index": src\/protocol must not import src\/envs \(allowed: nothing\)/);
    });

    it('a module a webview bundles, through any chain of value imports, importing Node', () => {
      write('webview-ui/panel/main.ts', "import { best } from '../../src/stats';\nexport const x = best;\n");
      write('src/stats/index.ts', "export { best } from './best';\n");
      write('src/stats/best.ts', "import type { Stats } from 'node:fs';\nimport { readFileSync } from 'node:fs';\nexport const best = (s?: Stats) => [s, readFileSync];\n");
      const text = checkDependencyRules(tmp).map(formatViolation).join('\n');
      assert.match(text, /src\/stats\/best\.ts:2: import "node:fs": webview-ui bundles this module/);
      assert.doesNotMatch(text, /best\.ts:1:.*bundles/, 'type-only imports are not bundled');
    });

    it('a module the sandbox worker takes in, through any chain of value imports, loading zod', () => {
      write('src/sandbox/worker/workerMain.ts', "import { encode } from '../../envs/x/delta';\nexport const x = encode;\n");
      write('src/envs/x/delta.ts', "import type { Step } from '../../protocol/xTrajectory';\nimport { FORMAT } from '../../protocol/xFormat';\nexport const encode = (s?: Step) => [s, FORMAT];\n");
      write('src/protocol/xTrajectory.ts', "import { z } from 'zod';\nexport const stepSchema = z.object({});\nexport type Step = z.infer<typeof stepSchema>;\n");
      write('src/protocol/xFormat.ts', "import { z } from 'zod';\nexport const FORMAT = 'x/1';\nexport const check = z.string();\n");
      const text = checkDependencyRules(tmp).map(formatViolation).join('\n');
      assert.match(text, /src\/protocol\/xFormat\.ts:1: import "zod": every sandbox worker loads this module/);
      assert.doesNotMatch(text, /xTrajectory\.ts/, 'a type-only import does not load the module');
    });

    it('analysis importing anything but protocol, via require or dynamic import too', () => {
      write('src/analysis/a.ts', "export async function f() { return [require('../envs/x'), await import('../sandbox/y')]; }\n");
      const text = checkDependencyRules(tmp).map(formatViolation).join('\n');
      assert.match(text, /src\/analysis must not import src\/envs/);
      assert.match(text, /src\/analysis must not import src\/sandbox/);
    });
  });
});
