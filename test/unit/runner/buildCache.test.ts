import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createSandboxExecutor } from '../../../src/runner/sandboxExecutor';
import { cartPolicy, cleanupTmp, makeWorkspace, useTempDataDir, writePolicy } from './helpers';

describe('runner: build cache', () => {
  before(() => useTempDataDir());
  after(() => cleanupTmp());

  it('reuses the build of an unchanged policy/ and rebuilds after any edit, even to a file the bundle does not reach', async () => {
    const executor = createSandboxExecutor();
    try {
      const dir = makeWorkspace();
      writePolicy(dir, cartPolicy(0.5));
      const first = await executor.build(dir);
      assert.ok(first.ok);
      assert.equal(await executor.build(dir), first, 'an unchanged folder gets the same build');

      writePolicy(dir, cartPolicy(0.25));
      const edited = await executor.build(dir);
      assert.ok(edited.ok);
      assert.notEqual(edited.bundle.id, first.bundle.id, 'an edited policy is built again');
      assert.match(edited.bundle.code, /0\.25 \* o\[3\]/);

      fs.writeFileSync(path.join(dir, 'policy', 'notes.md'), 'not imported');
      const withNotes = await executor.build(dir);
      assert.notEqual(withNotes, edited, 'a new file, imported or not, means a new build');

      // Back to an earlier content: served from the cache again.
      fs.rmSync(path.join(dir, 'policy', 'notes.md'));
      writePolicy(dir, cartPolicy(0.5));
      assert.equal(await executor.build(dir), first);
    } finally {
      await executor.close();
    }
  });

  it('never caches a folder with a symlink (the sandbox judges links on every build)', async function () {
    if (process.platform === 'win32') this.skip();
    const executor = createSandboxExecutor();
    try {
      const dir = makeWorkspace();
      fs.symlinkSync(path.join(dir, 'policy', 'policy.ts'), path.join(dir, 'policy', 'link.ts'));
      const a = await executor.build(dir);
      assert.ok(a.ok, JSON.stringify(!a.ok && a.diagnostics));
      const b = await executor.build(dir);
      assert.notEqual(a, b);
    } finally {
      await executor.close();
    }
  });
});
