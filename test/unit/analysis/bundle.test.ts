/** The bundle reader: which files are in the bundle, which are listed unreachable, and what is reported. */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { readBundle } from '../../../src/analysis';
import { removeDir, tempDir, writeTree } from './helpers';

describe('analysis: bundle reader', () => {
  let root: string;
  before(() => {
    root = tempDir('bundle');
    writeTree(root, {
      'AGENTS.md': '# task\n',
      'policy/policy.ts': [
        "import { a } from './a';",
        "import { b } from './b.js';",
        "import { c } from './lib';",
        "import table from './w.json';",
        "import type { T } from './types';",
        "import _ from 'lodash';",
        "import { gone } from './missing';",
        "export { d } from './sub/d';",
        'export class Policy { act(): number { return a + b + c + table.k; } }',
        '',
      ].join('\n'),
      'policy/a.ts': "import { b } from './b';\nexport const a = b;\n",
      'policy/b.ts': 'export const b = 1;\n',
      'policy/lib/index.ts': "export const c = 2;\n",
      'policy/sub/d.ts': "import { a } from '../a';\nexport const d = a;\n",
      'policy/types.ts': 'export interface T { x: number }\n',
      'policy/w.json': '{ "k": 3 }\n',
      'policy/unused.ts': 'export const u = 0;\n',
      'policy/env.d.ts': 'declare type Observation = number[];\n',
      'policy/README.md': 'not a source file\n',
    });
  });
  after(() => removeDir(root));

  it('follows relative imports (extensionless, .js → .ts, folder index, JSON, type-only, re-exports, ../) from policy.ts', async () => {
    const r = await readBundle(root);
    assert.ok(r.ok);
    assert.deepEqual(r.bundle.modules.map((m) => m.path), ['a.ts', 'b.ts', 'lib/index.ts', 'policy.ts', 'sub/d.ts', 'types.ts', 'w.json']);
    assert.equal(r.bundle.root, path.join(root, 'policy'));
  });

  it('lists unreachable source files and excludes them', async () => {
    const r = await readBundle(root);
    assert.ok(r.ok);
    assert.deepEqual(r.bundle.unreachable, ['env.d.ts', 'unused.ts']);
  });

  it('reports non-relative and unresolved imports, naming the file and the specifier', async () => {
    const r = await readBundle(root);
    assert.ok(r.ok);
    assert.deepEqual(r.bundle.issues, [
      { file: 'policy.ts', message: 'import "lodash" is not a relative path (policies may only import their own files)' },
      { file: 'policy.ts', message: 'import "./missing" does not resolve to a file under policy/' },
    ]);
  });

  it('reads the same bundle from the workspace root and from the policy folder', async () => {
    const a = await readBundle(root);
    const b = await readBundle(path.join(root, 'policy'));
    assert.ok(a.ok && b.ok);
    assert.equal(a.bundle.contentHash, b.bundle.contentHash);
  });

  it('the content hash covers reachable files only', async () => {
    const dir = tempDir('hash');
    try {
      writeTree(dir, { 'policy.ts': 'export class Policy {}\n', 'notes.ts': 'export const n = 1;\n' });
      const first = await readBundle(dir);
      writeTree(dir, { 'notes.ts': 'export const n = 2;\n' });
      const second = await readBundle(dir);
      writeTree(dir, { 'policy.ts': 'export class Policy { x = 1 }\n' });
      const third = await readBundle(dir);
      assert.ok(first.ok && second.ok && third.ok);
      assert.equal(first.bundle.contentHash, second.bundle.contentHash);
      assert.notEqual(second.bundle.contentHash, third.bundle.contentHash);
    } finally {
      removeDir(dir);
    }
  });

  it('a folder without policy.ts is an error value naming both places it looked', async () => {
    const dir = tempDir('empty');
    try {
      const r = await readBundle(dir);
      assert.equal(r.ok, false);
      assert.ok(!r.ok && r.error.includes(dir) && r.error.includes(path.join(dir, 'policy')));
    } finally {
      removeDir(dir);
    }
  });

  it('an import cycle is read once per file', async () => {
    const dir = tempDir('cycle');
    try {
      writeTree(dir, { 'policy.ts': "import { x } from './x';\nexport class Policy { v = x; }\n", 'x.ts': "import { Policy } from './policy';\nexport const x = 1;\nexport const P = Policy;\n" });
      const r = await readBundle(dir);
      assert.ok(r.ok);
      assert.deepEqual(r.bundle.modules.map((m) => m.path), ['policy.ts', 'x.ts']);
    } finally {
      removeDir(dir);
    }
  });
});
