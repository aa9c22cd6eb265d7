import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CLI, cleanupTmp, tmpDir, useTempDataDir } from '../runner/helpers';

function run(...args: string[]): { workspace: string | null; code: number | null; err: string } {
  const r = spawnSync(process.execPath, [CLI, 'run', '--env', 'CartPole-v1', '--agent', 'none', '--budget', '8', '--json', ...args], {
    cwd: tmpDir('cwd'),
    env: process.env,
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { code: r.status, err: r.stderr, workspace: r.status === 0 ? (JSON.parse(r.stdout) as { workspace: string | null }).workspace : null };
}

describe('cli: headless run workspaces', function () {
  this.timeout(120_000);
  before(() => useTempDataDir());
  after(() => cleanupTmp());

  it('removes the temporary workspace it made, unless --keep', () => {
    const before = new Set(fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('policyforge-CartPole-v1-')));
    const plain = run();
    assert.equal(plain.code, 0, plain.err);
    assert.equal(plain.workspace, null);
    const left = fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('policyforge-CartPole-v1-') && !before.has(n));
    assert.deepEqual(left, [], 'no temporary workspace is left behind');

    const kept = run('--keep');
    assert.equal(kept.code, 0, kept.err);
    assert.ok(kept.workspace && fs.existsSync(path.join(kept.workspace, '.policyforge', 'report.json')), 'kept with its report');
    fs.rmSync(kept.workspace, { recursive: true, force: true });
  });

  it('keeps a workspace named with --dir', () => {
    const dir = path.join(tmpDir('named'), 'ws');
    const r = run('--dir', dir);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.workspace, dir);
    assert.ok(fs.existsSync(path.join(dir, '.policyforge', 'report.json')));
  });
});
