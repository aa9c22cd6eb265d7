/**
 * Each family's environment classes load on first use (src/envs/core/lazy.ts): a process that
 * imports the registry and what a sandbox worker runs episodes with (skill trackers, recorders,
 * arena champions), reads every definition and plays only a classic environment runs none of the
 * other families' implementation modules; making a MiniGrid environment loads that family's and
 * still no other.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO = path.join(__dirname, '../../..');
const LAZY_FAMILIES = ['minigrid', 'highway', 'arena', 'mujoco', 'box2d'] as const;

// Everything a listing or a run configuration reads without a made environment, then one
// classic episode step; then a MiniGrid environment.
const PROBE = `
const path = require('node:path');
const loaded = () => Object.keys(require.cache).map((k) => path.relative(process.cwd(), k)).filter((k) => k.startsWith('src/') || /node_modules\\/(planck|mujoco-js)\\//.test(k));
const { createRegistry } = require('./src/envs/index.ts');
require('./src/sandbox/worker/episode.ts');
const { failureReturnOf } = require('./src/envs/core/failureReturn.ts');
const { resolveParams } = require('./src/envs/core/params.ts');
const registry = createRegistry();
const read = registry.list().map((d) => [d.id, failureReturnOf(d, resolveParams(d.id, d.params, {})), d.starterPolicy.length, (d.guide ?? '').length, d.training ? Object.keys(d.training).length : 0]);
const cart = registry.make('CartPole-v1');
cart.env.reset({ seed: 1 });
cart.env.step(0);
const afterClassic = loaded();
registry.make('MiniGrid-DoorKey-8x8-v0').env.reset({ seed: 1 });
process.stdout.write(JSON.stringify({ ids: read.length, afterClassic, afterMiniGrid: loaded() }));
`;

/** The modules a family's implementations.ts re-exports from, and the file itself: none may load before the first create. */
function implementationRoots(family: string): string[] {
  const dir = path.join('src', 'envs', family);
  const file = path.join(dir, 'implementations.ts');
  const text = fs.readFileSync(path.join(REPO, file), 'utf8');
  const roots = [...text.matchAll(/from '\.\/([^']+)'/g)].map((m) => {
    const base = path.join(dir, m[1] as string);
    return fs.existsSync(path.join(REPO, `${base}.ts`)) ? `${base}.ts` : path.join(base, 'index.ts');
  });
  assert.ok(roots.length > 0, `${file} re-exports nothing`);
  return [file, ...roots];
}

/** Modules deeper down that the definitions must not reach either: each family's shared core, the engines. */
const DEEP = ['src/envs/minigrid/minigridEnv.ts', 'src/envs/highway/drivingEnv.ts', 'src/envs/mujoco/mujocoEnv.ts', 'src/envs/mujoco/assets/models.generated.ts', 'src/envs/arena/ctf/env.ts'];

describe('environment families load their implementation on first use', function () {
  // One child process compiling the sources through tsx: slow on a loaded machine, not a timing check.
  this.timeout(120_000);

  let probe: { ids: number; afterClassic: string[]; afterMiniGrid: string[] };
  before(async () => {
    const { stdout } = await run(process.execPath, ['-r', 'tsx/cjs', '-e', PROBE], { cwd: REPO });
    probe = JSON.parse(stdout) as typeof probe;
  });

  it('listing every definition and playing CartPole runs no other family\'s implementation', () => {
    assert.ok(probe.ids > 150, `only ${probe.ids} ids listed`);
    assert.ok(probe.afterClassic.includes(path.join('src', 'envs', 'classic', 'cartPole.ts')), 'the probe sees the modules it loads');
    const forbidden = new Set([...LAZY_FAMILIES.flatMap(implementationRoots), ...DEEP]);
    const ran = probe.afterClassic.filter((m) => forbidden.has(m) || /node_modules/.test(m));
    assert.deepEqual(ran, []);
  });

  it('making a MiniGrid environment loads MiniGrid\'s implementation and no other family\'s', () => {
    for (const m of implementationRoots('minigrid')) assert.ok(probe.afterMiniGrid.includes(m), `${m} not loaded by the first MiniGrid create`);
    const others = new Set(LAZY_FAMILIES.filter((f) => f !== 'minigrid').flatMap(implementationRoots));
    assert.deepEqual(probe.afterMiniGrid.filter((m) => others.has(m) || /node_modules/.test(m)), []);
  });
});
