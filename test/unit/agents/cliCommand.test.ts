import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { launcherPath, policyforgeCommand } from '../../../src/agents/cliCommand';

describe('agents: the policyforge command a workspace names', () => {
  let tmp: string;
  let launcher: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-clicmd-'));
    launcher = launcherPath()!;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('finds this checkout\'s launcher', () => {
    assert.ok(launcher && fs.existsSync(launcher), String(launcher));
    assert.equal(path.basename(launcher), 'policyforge.js');
  });

  it('is the bare name when `policyforge` on PATH is this installation (npm install -g, npm link)', () => {
    const bin = path.join(tmp, 'global-bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(launcher, path.join(bin, 'policyforge'));
    assert.equal(policyforgeCommand(launcher, { PATH: ['/nonexistent', bin].join(path.delimiter) }), 'policyforge');
  });

  it('is `node <launcher>` when the name is not on PATH, or names another installation', () => {
    assert.equal(policyforgeCommand(launcher, { PATH: '/nonexistent' }), `node ${launcher}`);
    const other = path.join(tmp, 'other-bin');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'policyforge'), '#!/bin/sh\n');
    assert.equal(policyforgeCommand(launcher, { PATH: other }), `node ${launcher}`);
  });

  it('quotes a launcher path with spaces, and the quoted command runs', () => {
    const spaced = path.join(tmp, 'a folder', 'bin');
    fs.mkdirSync(spaced, { recursive: true });
    const copy = path.join(spaced, 'policyforge.js');
    fs.symlinkSync(launcher, copy);
    const cmd = policyforgeCommand(copy, { PATH: '/nonexistent' });
    assert.equal(cmd, `node ${JSON.stringify(copy)}`);
    const r = spawnSync('sh', ['-c', `${cmd} --version`], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^\d+\.\d+\.\d+/);
  });
});
