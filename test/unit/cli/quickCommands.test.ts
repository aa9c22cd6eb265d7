/** The quick commands' own bundle (src/cli/quick.ts) runs exactly the commands the full CLI would. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commands } from '../../../src/cli/main';
import { main as quickMain, QUICK_COMMAND_NAMES, quickCommands } from '../../../src/cli/quick';
import { REPO } from '../runner/helpers';

describe('cli: the quick commands bundle', () => {
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
});
