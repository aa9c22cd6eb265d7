/**
 * The package as a new user gets it: `npm pack`, installed into a fresh global prefix, then the
 * `policyforge` command run from a folder outside the clone. Catches a tarball without `dist/`, a
 * runtime dependency missing from `dependencies`, or a command that only works inside the repo.
 */
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '..', '..');

function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 300_000 });
}

function explain(r: SpawnSyncReturns<string>): string {
  return `exit ${r.status}${r.error ? ` (${r.error.message})` : ''}\n${r.stdout}\n${r.stderr}`;
}

describe('install: the packed tarball, from a folder outside the clone', function () {
  this.timeout(600_000);
  let tmp: string;
  let bin: string;
  let outside: string;
  let env: NodeJS.ProcessEnv;

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'policyforge-install-'));
    const pack = sh('npm', ['pack', '--json', '--pack-destination', tmp], repo);
    assert.equal(pack.status, 0, explain(pack));
    const [{ filename }] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as [{ filename: string }];
    const prefix = path.join(tmp, 'prefix');
    const install = sh('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error', path.join(tmp, filename)], tmp);
    assert.equal(install.status, 0, explain(install));
    bin = path.join(prefix, 'bin', 'policyforge');
    outside = path.join(tmp, 'elsewhere');
    fs.mkdirSync(outside);
    // A separate data dir, so the run's secret stays inside this test's temporary folder.
    env = { ...process.env, POLICYFORGE_DATA_DIR: path.join(tmp, 'data'), PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH ?? ''}` };
  });
  after(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('ships the built CLI and nothing of the sources', () => {
    const pkg = path.join(path.dirname(path.dirname(bin)), 'lib', 'node_modules', 'policyforge');
    assert.ok(fs.existsSync(path.join(pkg, 'dist', 'cli.js')), 'dist/cli.js is in the package');
    for (const absent of ['src', 'test', 'webview-ui', 'bench']) assert.ok(!fs.existsSync(path.join(pkg, absent)), `${absent}/ is not in the package`);
  });

  it('`policyforge envs` lists the environments', () => {
    const r = sh('policyforge', ['envs'], outside, env);
    assert.equal(r.status, 0, explain(r));
    assert.match(r.stdout, /^CartPole-v1 /m);
    assert.match(r.stdout, /^MiniGrid-DoorKey-8x8-v0 /m);
  });

  it('a workspace made by the installed command names `policyforge` in AGENTS.md', () => {
    const r = sh('policyforge', ['init', '--env', 'CartPole-v1', 'ws'], outside, env);
    assert.equal(r.status, 0, explain(r));
    const agents = fs.readFileSync(path.join(outside, 'ws', 'AGENTS.md'), 'utf8');
    assert.match(agents, /`policyforge submit --cases 0-7`/);
    assert.doesNotMatch(agents, /node \S*policyforge\.js/);
    fs.rmSync(path.join(outside, 'ws'), { recursive: true });
  });

  it('a short headless `run` completes with a report and leaves nothing in the current folder', () => {
    const r = sh('policyforge', ['run', '--env', 'CartPole-v1', '--agent', 'autotune', '--budget', '16', '--json'], outside, env);
    assert.equal(r.status, 0, explain(r));
    const result = JSON.parse(r.stdout) as { report?: { selected?: { submission: number } | null } };
    assert.ok(result.report, `a report: ${r.stdout.slice(0, 400)}`);
    assert.deepEqual(fs.readdirSync(outside), []);
  });
});
