/** Building policy bundles: what resolves, what blocks, what is only reported, and the content id. */
import { strict as assert } from 'node:assert';
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildBundle, type BuildResult } from '../../../src/sandbox';
import { removeWorkspaces, workspace } from './helpers';

const POLICY = `import { gain } from './gains';\nimport table from './table.json';\nexport class Policy { act(o: Float64Array): number { return o[2]! * gain + table.bias > 0 ? 1 : 0; } }\n`;
const FILES = { 'policy/policy.ts': POLICY, 'policy/gains.ts': 'export const gain = 2;\n', 'policy/table.json': '{ "bias": 0 }\n' };

const errorsOf = (r: BuildResult) => r.diagnostics.filter((d) => d.severity === 'error');

describe('sandbox: bundle', function () {
  this.timeout(30_000);
  after(removeWorkspaces);

  it('bundles policy.ts with relative modules and JSON into one script with an inline source map', async () => {
    const r = await buildBundle(workspace(FILES), { typeCheck: false });
    assert.ok(r.ok, JSON.stringify(r.diagnostics));
    assert.deepEqual(r.bundle.files.map((f) => f.path), ['policy/gains.ts', 'policy/policy.ts', 'policy/table.json']);
    assert.match(r.bundle.code, /\/\/# sourceMappingURL=data:application\/json;base64,/);
    assert.match(r.bundle.id, /^[0-9a-f]{64}$/);
  });

  it('gives the same id for the same files regardless of mtime and creation order, another for one changed byte', async () => {
    const a = await buildBundle(workspace(FILES), { typeCheck: false });
    const reordered = Object.fromEntries(Object.entries(FILES).reverse());
    const rootB = workspace(reordered);
    utimesSync(path.join(rootB, 'policy/gains.ts'), new Date(2001, 1, 1), new Date(2001, 1, 1));
    const b = await buildBundle(rootB, { typeCheck: false });
    const c = await buildBundle(workspace({ ...FILES, 'policy/gains.ts': 'export const gain = 3;\n' }), { typeCheck: false });
    assert.ok(a.ok && b.ok && c.ok);
    assert.equal(a.bundle.id, b.bundle.id);
    assert.notEqual(a.bundle.id, c.bundle.id);
  });

  it('an unreachable file under policy/ is not part of the id', async () => {
    const a = await buildBundle(workspace(FILES), { typeCheck: false });
    const b = await buildBundle(workspace({ ...FILES, 'policy/notes.md': 'scratch' }), { typeCheck: false });
    assert.ok(a.ok && b.ok);
    assert.equal(a.bundle.id, b.bundle.id);
  });

  it('refuses Node built-ins, packages and paths outside policy/, naming file and line', async () => {
    const cases: [string, RegExp][] = [
      [`import { readFileSync } from 'node:fs';`, /"node:fs" is not allowed/],
      [`import { z } from 'zod';`, /"zod" is not allowed/],
      [`import { secret } from '../secret';`, /leaves policy\//],
    ];
    for (const [imp, pattern] of cases) {
      const root = workspace({ 'policy/policy.ts': `// header\n${imp}\nexport class Policy { act() { return [readFileSync, z, secret].length; } }\n`, 'secret.ts': 'export const secret = 1;' });
      const r = await buildBundle(root, { typeCheck: false });
      assert.equal(r.ok, false, imp);
      const [d] = errorsOf(r);
      assert.equal(d?.file, 'policy/policy.ts');
      assert.equal(d?.line, 2);
      assert.equal(d?.kind, 'resolve');
      assert.match(d?.message ?? '', pattern);
    }
  });

  it('reports a missing module as a resolve error at the import', async () => {
    const r = await buildBundle(workspace({ 'policy/policy.ts': `import { x } from './nope';\nexport class Policy { act() { return x; } }\n` }), { typeCheck: false });
    assert.equal(r.ok, false);
    assert.deepEqual([errorsOf(r)[0]?.file, errorsOf(r)[0]?.line, errorsOf(r)[0]?.kind], ['policy/policy.ts', 1, 'resolve']);
  });

  it('blocks on syntax errors with their location', async () => {
    const r = await buildBundle(workspace({ 'policy/policy.ts': 'export class Policy {\n  act() { return 0 +; }\n}\n' }), { typeCheck: false });
    assert.equal(r.ok, false);
    assert.deepEqual([errorsOf(r)[0]?.line, errorsOf(r)[0]?.kind], [2, 'syntax']);
  });

  it('requires an exported Policy', async () => {
    const r = await buildBundle(workspace({ 'policy/policy.ts': 'export class Agent { act() { return 0; } }\n' }), { typeCheck: false });
    assert.equal(r.ok, false);
    assert.match(errorsOf(r)[0]?.message ?? '', /must export class Policy/);
  });

  it('reports type errors without blocking', async () => {
    const root = workspace({
      'policy/policy.ts': `export class Policy {\n  act(o: Observation): Action {\n    const n: number = 'text';\n    return o[0]! > n ? 1 : 0;\n  }\n}\n`,
      'policy/env.d.ts': 'type Observation = Float64Array;\ntype Action = 0 | 1;\n',
    });
    const r = await buildBundle(root);
    assert.equal(r.ok, true);
    const types = r.diagnostics.filter((d) => d.kind === 'type');
    assert.equal(types.length, 1, JSON.stringify(r.diagnostics));
    assert.deepEqual([types[0]?.file, types[0]?.line], ['policy/policy.ts', 3]);
    assert.match(types[0]?.message ?? '', /not assignable to type 'number'/);
  });

  it('enforces the file-count and size limits and refuses symlinks leaving policy/', async () => {
    const many = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`policy/m${i}.ts`, `export const v${i} = ${i};\n`]));
    const count = await buildBundle(workspace({ ...FILES, ...many }), { typeCheck: false, limits: { maxFiles: 4 } });
    assert.equal(count.ok, false);
    assert.match(errorsOf(count)[0]?.message ?? '', /holds 8 files; the limit is 4/);
    assert.equal(errorsOf(count)[0]?.kind, 'limit');

    const size = await buildBundle(workspace({ ...FILES, 'policy/big.json': JSON.stringify({ a: 'x'.repeat(5000) }) }), { typeCheck: false, limits: { maxTotalBytes: 4096 } });
    assert.equal(size.ok, false);
    assert.match(errorsOf(size)[0]?.message ?? '', /the limit is 4\.0 KiB/);

    const root = workspace(FILES);
    const outside = path.join(os.tmpdir(), `pf-outside-${process.pid}.ts`);
    writeFileSync(outside, 'export const leaked = 1;\n');
    symlinkSync(outside, path.join(root, 'policy', 'leak.ts'));
    const link = await buildBundle(root, { typeCheck: false });
    assert.equal(link.ok, false);
    assert.deepEqual([errorsOf(link)[0]?.file, errorsOf(link)[0]?.kind], ['policy/leak.ts', 'limit']);
    assert.match(errorsOf(link)[0]?.message ?? '', /symbolic link leaving policy\//);

    // A link that stays inside policy/ is fine.
    const inside = workspace(FILES);
    mkdirSync(path.join(inside, 'policy', 'lib'));
    symlinkSync(path.join(inside, 'policy', 'gains.ts'), path.join(inside, 'policy', 'lib', 'gains.ts'));
    assert.equal((await buildBundle(inside, { typeCheck: false })).ok, true);
  });

  it('says what is missing when there is no policy/policy.ts', async () => {
    const r = await buildBundle(workspace({ 'policy/other.ts': 'export {};' }), { typeCheck: false });
    assert.equal(r.ok, false);
    assert.match(errorsOf(r)[0]?.message ?? '', /policy\/policy\.ts is missing/);
  });
});
