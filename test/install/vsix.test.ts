/**
 * The .vsix as `npm run package` builds it: the extension's bundles and what they load at run time,
 * nothing else. Lists the archive itself, then runs the CLI from the unpacked extension, so a
 * bundle that still reaches into a package left out of the archive fails here.
 */
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as yauzl from 'yauzl';

const repo = path.resolve(__dirname, '..', '..');

function entries(zip: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(zip, { lazyEntries: true }, (err, file) => {
      if (err) return reject(err);
      const names: string[] = [];
      file.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        file.readEntry();
      });
      file.on('end', () => resolve(names));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

function extract(zip: string, into: string): Promise<void> {
  return new Promise((resolve, reject) => {
    yauzl.open(zip, { lazyEntries: true }, (err, file) => {
      if (err) return reject(err);
      file.on('entry', (e: yauzl.Entry) => {
        const target = path.join(into, e.fileName);
        if (e.fileName.endsWith('/')) return file.readEntry();
        fs.mkdirSync(path.dirname(target), { recursive: true });
        file.openReadStream(e, (err2, stream) => {
          if (err2) return reject(err2);
          stream.pipe(fs.createWriteStream(target, { mode: e.externalFileAttributes >>> 16 || 0o644 })).on('finish', () => file.readEntry());
        });
      });
      file.on('end', () => resolve());
      file.on('error', reject);
      file.readEntry();
    });
  });
}

describe('install: the packaged .vsix', function () {
  this.timeout(600_000);
  const vsix = path.join(repo, 'policyforge.vsix');
  let names: string[];
  let tmp: string;

  before(async () => {
    const r = spawnSync('npm', ['run', 'package'], { cwd: repo, encoding: 'utf8' });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    names = (await entries(vsix)).filter((n) => n.startsWith('extension/')).map((n) => n.slice('extension/'.length));
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'policyforge-vsix-'));
  });
  after(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    // `npm run package` leaves a minified build in dist/; the stages after this one expect the
    // development build (with source maps for their stack traces).
    const r = spawnSync('npm', ['run', 'build'], { cwd: repo, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  it('carries the bundles, the launcher and media', () => {
    for (const f of ['package.json', 'dist/extension.js', 'dist/cli.js', 'dist/runnerProcess.js', 'dist/sandboxWorker.js', 'dist/tsTools.js', 'dist/tsMorph.js', 'bin/policyforge.js']) {
      assert.ok(names.includes(f), `${f} is in the .vsix`);
    }
    assert.ok(names.some((n) => n.startsWith('dist/webview/')), 'webview bundles');
    assert.ok(names.some((n) => n.startsWith('media/')), 'media');
  });

  it('carries no source maps, sources, tests or type declarations', () => {
    const offending = names.filter((n) => /\.map$|\.tsx?$/.test(n) || /^(src|test|bench|scripts|webview-ui|docs)\//.test(n));
    assert.deepEqual(offending, []);
  });

  it('carries from node_modules only esbuild\'s JavaScript API and binary; the MuJoCo engine as dist/mujoco/', () => {
    const modules = names.filter((n) => n.startsWith('node_modules/'));
    const unexpected = modules.filter((n) => !/^node_modules\/(esbuild\/(lib\/main\.js|package\.json|LICENSE\.md)|@esbuild\/[^/]+\/(bin\/esbuild|package\.json))$/.test(n));
    assert.deepEqual(unexpected, []);
    assert.ok(modules.some((n) => /^node_modules\/@esbuild\/[^/]+\/bin\/esbuild$/.test(n)), 'the platform binary');
    for (const f of ['dist/mujoco/engine.json', 'dist/mujoco/mujoco_wasm.mjs', 'dist/mujoco/mujoco.wasm', 'dist/mujoco/assets/robotics/stls/fetch/gripper_link.stl']) {
      assert.ok(names.includes(f), `${f} is in the .vsix`);
    }
  });

  let unpacked: Promise<void> | undefined;
  /** `policyforge eval --env <id> --starter` from the unpacked extension (extracted once). */
  const evalStarter = async (envId: string): Promise<SpawnSyncReturns<string>> => {
    await (unpacked ??= extract(vsix, tmp));
    const cli = path.join(tmp, 'extension', 'bin', 'policyforge.js');
    // Outside the clone, so nothing resolves from the repository's node_modules.
    return spawnSync(process.execPath, [cli, 'eval', '--env', envId, '--starter', '--episodes', '2', '--json'], { cwd: tmp, encoding: 'utf8', env: { ...process.env, NODE_PATH: '' } });
  };

  it('runs: the unpacked CLI bundles, type-checks and evaluates a starter policy', async () => {
    const r = await evalStarter('CartPole-v1');
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    const result = JSON.parse(r.stdout) as { stats?: { count: number } };
    assert.ok(result.stats, r.stdout.slice(0, 300));
  });

  it('runs: the unpacked CLI simulates MuJoCo with the engine and meshes it carries', async () => {
    const r = await evalStarter('FetchReach-v4');
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    const result = JSON.parse(r.stdout) as { stats?: { okCount: number } };
    assert.equal(result.stats?.okCount, 2, r.stdout.slice(0, 300));
  });
});
