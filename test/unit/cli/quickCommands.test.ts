/** The quick commands' own bundle (src/cli/quick.ts) runs exactly the commands the full CLI would. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { commands } from '../../../src/cli/main';
import { main as quickMain, QUICK_COMMAND_NAMES, quickCommands } from '../../../src/cli/quick';
import { cleanupTmp, CLI, REPO, tmpDir } from '../runner/helpers';

describe('cli: the quick commands bundle', function () {
  this.timeout(120_000);
  after(() => cleanupTmp());
  it('holds, for each listed name, the command of that name, which the full table lists too', () => {
    assert.deepEqual(Object.keys(quickCommands).sort(), [...QUICK_COMMAND_NAMES].sort());
    for (const name of QUICK_COMMAND_NAMES) {
      assert.equal(quickCommands[name]!.name, name);
      assert.ok(Object.hasOwn(commands, name), `${name} is in the full command table too (for --help)`);
    }
  });

  it('refuses a name that is not a quick command instead of guessing', async () => {
    await assert.rejects(quickMain(['submit']), /"submit" is not one of the quick commands/);
  });

  it('the built dist/cli.js sends exactly those names to dist/cliQuick.js', function () {
    const shim = path.join(REPO, 'dist', 'cli.js');
    if (!fs.existsSync(shim)) this.skip();
    const m = /new Set\((\[[^\]]*\])\)/.exec(fs.readFileSync(shim, 'utf8'));
    assert.ok(m, 'dist/cli.js lists the quick commands');
    assert.deepEqual(JSON.parse(m[1]!), [...QUICK_COMMAND_NAMES]);
    assert.ok(fs.existsSync(path.join(REPO, 'dist', 'cliQuick.js')), 'dist/cliQuick.js is built');
  });

  it('keeps V8 code for the bundle in a private cache, and outlives a corrupt one', function () {
    if (!fs.existsSync(path.join(REPO, 'dist', 'cliQuick.js'))) this.skip();
    // Node with its own compile cache (≥ 22.1) uses that instead.
    if (typeof (createRequire(__filename)('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function') this.skip();
    const tmp = tmpDir('compile-cache');
    const run = () => spawnSync(process.execPath, [CLI, 'status', '--help'], { env: { ...process.env, TMPDIR: tmp }, encoding: 'utf8', timeout: 60_000 });
    const cacheFiles = () => fs.readdirSync(tmp).filter((d) => d.startsWith('policyforge-compile-cache')).flatMap((d) => fs.readdirSync(path.join(tmp, d)).map((f) => path.join(tmp, d, f)));
    assert.equal(run().status, 0);
    const [cache, ...more] = cacheFiles();
    assert.ok(cache && more.length === 0, 'one cache file after the first run');
    assert.equal((fs.statSync(path.dirname(cache)).mode & 0o077), 0, 'the cache folder is private');
    const written = fs.readFileSync(cache);
    assert.ok(written.length > 1000);
    fs.writeFileSync(cache, Buffer.alloc(written.length, 7));
    const again = run();
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /Usage: policyforge status/);
    assert.deepEqual(cacheFiles(), [cache]);
    assert.notDeepEqual(fs.readFileSync(cache), Buffer.alloc(written.length, 7), 'V8 refused the corrupt cache and it was written again');
  });
});
