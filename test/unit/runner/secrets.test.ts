import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readJson } from '../../../src/runner/atomicFs';
import type { RunConfig } from '../../../src/runner/config';
import { loadOrCreateSecret, SeedDeriver, secretPath } from '../../../src/runner/secret';
import { cartPolicy, cleanupTmp, closeSharedExecutor, connect, makeWorkspace, startHost, useTempDataDir, writePolicy } from './helpers';

function allFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? allFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('runner: hidden seeds', function () {
  this.timeout(60_000);
  let dataDir: string;
  before(() => {
    dataDir = useTempDataDir();
  });
  after(async () => {
    await closeSharedExecutor();
    cleanupTmp();
  });

  it('derives domain-separated seeds from a per-run secret kept outside the workspace (mode 0600)', () => {
    const a = new SeedDeriver(Buffer.alloc(32, 1));
    const b = new SeedDeriver(Buffer.alloc(32, 2));
    assert.deepEqual(a.episode('train', 3), a.episode('train', 3), 'a case index is a fixed hidden episode');
    assert.notEqual(a.episode('train', 3).envSeed, a.episode('validation', 3).envSeed);
    assert.notEqual(a.episode('validation', 3).envSeed, a.episode('assessment', 3).envSeed);
    assert.notEqual(a.episode('train', 3).envSeed, a.episode('train', 3).policySeed);
    assert.notEqual(a.episode('train', 3).envSeed, b.episode('train', 3).envSeed, 'another run, other cases');
    const s1 = loadOrCreateSecret('test-run-1');
    assert.deepEqual(loadOrCreateSecret('test-run-1'), s1, 'the secret persists');
    assert.ok(secretPath('test-run-1').startsWith(dataDir));
    assert.equal(fs.statSync(secretPath('test-run-1')).mode & 0o777, 0o600);
  });

  it('after a whole run no secret or hidden seed appears in any workspace file', async () => {
    const dir = makeWorkspace({ budget: 8, validationCases: 4, heldOutCases: 4 });
    const host = await startHost(dir, { assessStarter: true });
    const client = await connect(host);
    writePolicy(dir, cartPolicy(0.5, 'console.log(JSON.stringify(o));'));
    await client.submit({ cases: '0-3' });
    await client.submit({ cases: '4-7' });
    const report = await host.run.finish({});
    assert.ok(report.heldOut || report.reason, 'the run went through validation and assessment');
    await client.close();
    await host.close();

    const config = readJson<RunConfig>(path.join(dir, '.policyforge', 'run.json'))!;
    const secret = loadOrCreateSecret(config.runId);
    const seeds = new SeedDeriver(secret);
    const needles = [secret.toString('hex'), secret.toString('base64')];
    for (let i = 0; i < 4; i++) {
      for (const split of ['validation', 'assessment'] as const) {
        const e = seeds.episode(split, i);
        needles.push(String(e.envSeed), String(e.policySeed));
      }
    }
    for (let i = 0; i < 8; i++) needles.push(String(seeds.episode('train', i).envSeed));
    const files = allFiles(dir);
    assert.ok(files.length > 10);
    for (const f of files) {
      const text = fs.readFileSync(f, 'utf8');
      for (const n of needles) {
        // Seeds would appear as whole integers; digits inside a float are not a leak. (The base64
        // secret may hold regex characters such as a leading '+': escaped.)
        const leak = new RegExp(`(?<![0-9.])${n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![0-9])`).test(text);
        assert.ok(!leak, `${path.relative(dir, f)} contains hidden seed material ${n}`);
      }
    }
  });

  it('refuses to continue a run whose secret was lost or replaced', async () => {
    const dir = makeWorkspace({ budget: 4 });
    const host = await startHost(dir);
    await host.close();
    const config = readJson<RunConfig>(path.join(dir, '.policyforge', 'run.json'))!;
    const file = secretPath(config.runId);
    const original = fs.readFileSync(file, 'utf8');
    fs.rmSync(file);
    await assert.rejects(startHost(dir), /secret of run .* is missing/);
    fs.writeFileSync(file, 'ab'.repeat(32), { mode: 0o600 });
    await assert.rejects(startHost(dir), /not the one this run started with/);
    fs.writeFileSync(file, original, { mode: 0o600 });
    const again = await startHost(dir);
    await again.close();
  });
});
