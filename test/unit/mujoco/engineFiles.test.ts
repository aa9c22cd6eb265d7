/**
 * The build's split of the MuJoCo package (scripts/mujocoEngine.mjs) and the engine loaded from
 * it: the loader without the inlined binary, the binary on its own, found only for the installed
 * package version, and the same engine as the package's, step for step; and the vendored meshes
 * and textures beside them.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { MainModule } from 'mujoco-js';
import { writeMujocoEngine } from '../../../scripts/mujocoEngine.mjs';
import { instantiateEngine } from '../../../src/envs/mujoco/engine';
import { mujocoAssetsDir, mujocoPackageDir, splitEngine } from '../../../src/envs/mujoco/engineFiles';
import { MODEL_FILES } from '../../../src/envs/mujoco/assets/models.generated';

const ROOT = path.resolve(__dirname, '../../..');

/** HalfCheetah under a fixed control for `steps` steps: qpos after each, as raw doubles. */
function cheetahRun(mj: MainModule, steps: number): Float64Array {
  mj.FS.writeFile('/cheetah.xml', MODEL_FILES['gymnasium/half_cheetah.xml']!);
  const model = mj.MjModel.loadFromXML('/cheetah.xml');
  const data = new mj.MjData(model);
  const out = new Float64Array(steps * model.nq);
  try {
    for (let t = 0; t < steps; t++) {
      const ctrl = data.ctrl as Float64Array;
      for (let i = 0; i < ctrl.length; i++) ctrl[i] = Math.sin(0.1 * t + i);
      mj.mj_step(model, data);
      out.set(data.qpos as Float64Array, t * model.nq);
    }
    return out;
  } finally {
    data.delete();
    model.delete();
  }
}

describe('mujoco: the engine split into loader and binary', function () {
  this.timeout(120_000);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'pf-mujoco-split-'));
  const out = path.join(tmp, 'mujoco');
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('writes the binary apart and a loader that no longer holds it', () => {
    const r = writeMujocoEngine(out, ROOT);
    assert.ok(r, 'mujoco-js is installed');
    const wasm = readFileSync(path.join(out, 'mujoco.wasm'));
    assert.equal(wasm.readUInt32BE(0), 0x0061736d, 'WebAssembly magic');
    assert.equal(wasm.length, r.wasmBytes);
    const loader = readFileSync(path.join(out, 'mujoco_wasm.mjs'), 'utf8');
    const published = statSync(path.join(mujocoPackageDir()!, 'dist', 'mujoco_wasm.js')).size;
    assert.ok(loader.length < published - wasm.length, `the loader (${loader.length} bytes) lost the inlined binary (package file ${published} bytes)`);
    assert.ok(!loader.includes("base64Decode('AGFzbQ"), 'no inlined module left');
    const pkg = JSON.parse(readFileSync(path.join(mujocoPackageDir()!, 'package.json'), 'utf8')) as { version: string };
    assert.equal((JSON.parse(readFileSync(path.join(out, 'engine.json'), 'utf8')) as { version: string }).version, pkg.version);
  });

  it('copies every vendored mesh and texture unchanged', () => {
    const source = path.join(ROOT, 'src/envs/mujoco/assets');
    const binary = readdirSync(source, { recursive: true }).map(String).filter((f) => /\.(stl|png)$/.test(f));
    assert.equal(binary.length, 19);
    for (const f of binary) assert.ok(readFileSync(path.join(out, 'assets', f)).equals(readFileSync(path.join(source, f))), f);
    assert.deepEqual(readdirSync(path.join(out, 'assets'), { recursive: true }).map(String).filter((f) => f.includes('.')).sort(), [...binary].sort());
  });

  it('is found beside the code for the installed version only', () => {
    assert.equal(mujocoAssetsDir(tmp), path.join(out, 'assets'));
    assert.equal(mujocoAssetsDir(path.join(ROOT, 'src/envs/mujoco')), path.join(ROOT, 'src/envs/mujoco/assets'), 'the source tree reads its own files');
    assert.deepEqual(splitEngine(tmp), { loader: path.join(out, 'mujoco_wasm.mjs'), wasm: path.join(out, 'mujoco.wasm') });
    const other = path.join(tmp, 'other');
    writeMujocoEngine(path.join(other, 'mujoco'), ROOT);
    writeFileSync(path.join(other, 'mujoco', 'engine.json'), JSON.stringify({ package: 'mujoco-js', version: '0.0.0-other' }));
    assert.equal(splitEngine(other), undefined);
  });

  it('runs the same engine as the published package, bit for bit', async () => {
    const split = await instantiateEngine(splitEngine(tmp));
    const published = await instantiateEngine(undefined);
    assert.equal(split.mj_versionString(), published.mj_versionString());
    assert.deepEqual(cheetahRun(split, 300), cheetahRun(published, 300));
  });

  it('rejects, rather than waits, when the binary does not fit the loader', async () => {
    const bad = path.join(tmp, 'bad');
    writeMujocoEngine(path.join(bad, 'mujoco'), ROOT);
    // A valid but empty module: it instantiates and exports nothing the loader needs.
    writeFileSync(path.join(bad, 'mujoco', 'mujoco.wasm'), Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
    await assert.rejects(instantiateEngine(splitEngine(bad)));
  });
});
