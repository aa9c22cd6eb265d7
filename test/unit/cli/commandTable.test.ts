import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { commands } from '../../../src/cli/main';
import { CLI } from '../runner/helpers';
import { pf } from './cliHelpers';

describe('cli: the command table (built CLI)', function () {
  this.timeout(120_000);
  before(() => assert.ok(fs.existsSync(CLI), 'bin/policyforge.js'));

  it("loads, for each name, the command of that name (each command's chunk resolves)", () => {
    for (const name of Object.keys(commands)) {
      const r = pf(process.cwd(), name, '--help');
      assert.equal(r.code, 0, `${name}: ${r.err}`);
      assert.match(r.out, new RegExp(`\\nUsage: policyforge ${name}\\b`), name);
    }
  });

  it('lists every command in --help and reports an unknown one', () => {
    const r = pf(process.cwd(), '--help');
    for (const name of Object.keys(commands)) assert.match(r.out, new RegExp(`^  ${name} +\\S`, 'm'));
    const unknown = pf(process.cwd(), 'no-such-command');
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /unknown command "no-such-command"/);
  });

  it('maps an argument error thrown inside a lazily loaded command to exit 2 with its usage', () => {
    const r = pf(process.cwd(), 'init', '--no-such-flag');
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /^policyforge init: .*no-such-flag[\s\S]*Usage: policyforge init/);
  });
});
