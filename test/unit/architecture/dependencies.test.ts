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

    it('webview-ui importing protocol values, or anything else from src', () => {
      write('webview-ui/a.ts', "import type { RunReport } from '../src/protocol/feedback';\nimport { schema } from '../src/protocol/webview';\nimport { make } from '../src/envs/index';\nexport const u = [schema, make] as unknown as RunReport;\n");
      write('src/protocol/webview.ts', 'export const schema = 1;\n');
      write('src/envs/index.ts', 'export const make = 1;\n');
      const text = checkDependencyRules(tmp).map(formatViolation).join('\n');
      assert.doesNotMatch(text, /feedback/);
      assert.match(text, /webview-ui\/a\.ts:2: .*only types from src\/protocol .* as a value/);
      assert.match(text, /webview-ui\/a\.ts:3: /);
    });

    it('analysis importing anything but protocol, via require or dynamic import too', () => {
      write('src/analysis/a.ts', "export async function f() { return [require('../envs/x'), await import('../sandbox/y')]; }\n");
      const text = checkDependencyRules(tmp).map(formatViolation).join('\n');
      assert.match(text, /src\/analysis must not import src\/envs/);
      assert.match(text, /src\/analysis must not import src\/sandbox/);
    });
  });
});
