/**
 * The worker's fast paths (a module shared per realm, one observation array for every step, the
 * observation copied inside the realm, no global clean-up for code that cannot reach the
 * global) must be invisible to a policy: the same episodes, run in sequence on one realm with
 * each path turned off, give the same records bit for bit, trajectories and logs included.
 */
import { strict as assert } from 'node:assert';
import { createRegistry } from '../../../src/envs';
import { starterFiles } from '../../../src/envs/core/starterFiles';
import type { EpisodeRecord } from '../../../src/protocol/episodes';
import { buildBundle, DEFAULT_EPISODE_LIMITS } from '../../../src/sandbox';
import { runEpisode } from '../../../src/sandbox/worker/episode';
import { ALL_FAST_PATHS, loadBundle, type FastPaths } from '../../../src/sandbox/worker/loadedBundle';
import { bundleOf, episodes, removeWorkspaces, strip, workspace } from './helpers';

const registry = createRegistry();

/** Every switch on, each one off alone, and all off. */
const VARIANTS: [string, FastPaths][] = [
  ['all fast paths', { ...ALL_FAST_PATHS }],
  ...(Object.keys(ALL_FAST_PATHS) as (keyof FastPaths)[]).map((k): [string, FastPaths] => [`without ${k}`, { ...ALL_FAST_PATHS, [k]: false }]),
  ['no fast path', { shareModule: false, borrowObservation: false, skipGlobalCleanup: false }],
];

function run(code: string, paths: FastPaths, envId: string, n: number): Omit<EpisodeRecord, 'wallMs'>[] {
  const bundle = loadBundle(code, paths);
  const limits = { ...DEFAULT_EPISODE_LIMITS, maxTrajectorySteps: 1000 };
  return episodes(n).map((spec) => strip(runEpisode({ envId, params: {}, spec, limits }, registry, bundle, () => {})));
}

/** Reads its observation, keeps a history in fields, logs, and draws from Math.random. */
const CARTPOLE = `const GAINS = [0.01, 0.1, 1, 0.5];
export class Policy {
  private last = [0, 0];
  act(o: Float64Array): number {
    let s = 0;
    for (let i = 0; i < o.length; i++) s += GAINS[i]! * o[i]!;
    s += 0.01 * (this.last[0]! - this.last[1]!) + 1e-4 * (Math.random() - 0.5);
    this.last = [this.last[1]!, s];
    if (s > 0.2) console.log('lean ' + s.toFixed(3));
    return s > 0 ? 1 : 0;
  }
}
`;

describe('sandbox: fast paths a policy cannot observe', function () {
  this.timeout(60_000);
  after(() => removeWorkspaces());

  const cases: [string, string, () => Promise<string>][] = [
    ['a CartPole policy that only reads its observation', 'CartPole-v1', async () => (await bundleOf(CARTPOLE)).code],
    ['a CartPole policy that keeps its observations and adds a global', 'CartPole-v1', async () => (await bundleOf(CARTPOLE.replace('private last', 'kept: Float64Array[] = [];\n  private last').replace('let s = 0;', 'this.kept.push(o); (globalThis as any).seen = o[0];\n    let s = 0;'))).code],
    ['a CartPole policy whose instance reads its act through a counting getter', 'CartPole-v1', async () => (await bundleOf(`export class Policy {
  reads = 0;
  constructor() { const own = Policy.prototype.act; Object.defineProperty(this, 'act', { get: () => { this.reads++; return own; } }); }
  act(o: Float64Array): number { if (this.reads % 50 === 0) console.log('reads ' + this.reads); return o[2]! + 0.5 * o[3]! > 0 ? 1 : 0; }
}`)).code],
    ['a CartPole policy that hides its act on odd seeds', 'CartPole-v1', async () => (await bundleOf(`export class Policy {
  constructor(ctx: { seed: number }) { if (ctx.seed % 2 === 1) Object.defineProperty(this, 'act', { value: 0 }); }
  act(o: Float64Array): number { return o[2]! + 0.5 * o[3]! > 0 ? 1 : 0; }
}`)).code],
    ['the DoorKey starter policy', 'MiniGrid-DoorKey-5x5-v0', async () => {
      const made = registry.make('MiniGrid-DoorKey-5x5-v0');
      const built = await buildBundle(workspace(starterFiles(made.definition, made.params, made.env)), { typeCheck: false });
      if (!built.ok) throw new Error(built.diagnostics.map((d) => d.message).join('; '));
      return built.bundle.code;
    }],
  ];
  for (const [what, envId, code] of cases) {
    it(`${what}: the same records with each fast path off`, async () => {
      const source = await code();
      const [[, allOn], ...others] = VARIANTS as [[string, FastPaths], ...[string, FastPaths][]];
      const expected = run(source, allOn, envId, 6);
      const failing = what.includes('hides');
      assert.ok(expected.every((r, i) => (failing && i % 2 === 0 ? r.status === 'exception' : r.status === 'ok' && r.trajectory.stepCount === r.length && r.length > 1)), JSON.stringify(expected.map((r) => [r.status, r.length, r.error?.message])));
      for (const [name, paths] of others) assert.deepEqual(run(source, paths, envId, 6), expected, name);
    });
  }

  it('the reading policy takes every fast path, and the keeping one none that would show', async () => {
    const reading = loadBundle((await bundleOf(CARTPOLE)).code);
    assert.deepEqual([reading.shared, reading.borrowObservation, reading.mayAddGlobals], [true, true, false]);
    const keeping = loadBundle((await bundleOf(CARTPOLE.replace('let s = 0;', '(globalThis as any).kept = o;\n    let s = 0;'))).code);
    assert.deepEqual([keeping.shared, keeping.borrowObservation, keeping.mayAddGlobals], [true, false, true]);
  });
});
