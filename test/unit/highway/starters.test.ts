/**
 * The driving starters: each type-checks against its generated env.d.ts and policy/driving.ts,
 * and plays whole episodes in-process without errors, with the returns a baseline should get.
 */
import * as assert from 'node:assert/strict';
import { createRegistry } from '../../../src/envs';
import { agentsMd } from '../../../src/agents/agentsMd';
import { starterFiles } from '../../../src/envs/core/starterFiles';
import { buildBundle } from '../../../src/sandbox';
import { removeWorkspaces, workspace } from '../sandbox/helpers';
import * as esbuild from 'esbuild';

const IDS = ['highway-v0', 'highway-fast-v0', 'merge-v0', 'roundabout-v0', 'intersection-v0', 'parking-v0'];
const registry = createRegistry();

interface PolicyLike {
  act(observation: unknown, info: unknown): unknown;
}

/** Loads a starter (with policy/driving.ts) as a module in this process. */
async function loadStarter(id: string): Promise<new (ctx: unknown) => PolicyLike> {
  const def = registry.get(id);
  const files: Record<string, string> = { 'policy.ts': def.starterPolicy };
  for (const [rel, src] of Object.entries(def.workspaceFiles ?? {})) files[rel.replace(/^policy\//, '')] = src;
  const out = await esbuild.build({
    stdin: { contents: files['policy.ts'] as string, loader: 'ts', resolveDir: '/virtual', sourcefile: 'policy.ts' },
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'neutral',
    plugins: [
      {
        name: 'virtual',
        setup(b) {
          b.onResolve({ filter: /^\.\// }, (a) => ({ path: `${a.path.slice(2)}.ts`, namespace: 'v' }));
          b.onLoad({ filter: /.*/, namespace: 'v' }, (a) => ({ contents: files[a.path] ?? '', loader: 'ts' }));
        },
      },
    ],
  });
  const mod = { exports: {} as { Policy?: new (ctx: unknown) => PolicyLike } };
  new Function('module', 'exports', out.outputFiles[0]!.text)(mod, mod.exports);
  if (!mod.exports.Policy) throw new Error(`${id}: the starter exports no Policy`);
  return mod.exports.Policy;
}

describe('driving starters', function () {
  this.timeout(120_000);
  after(() => removeWorkspaces());

  for (const id of IDS) {
    it(`${id}: the starter type-checks against env.d.ts and policy/driving.ts`, async () => {
      const def = registry.get(id);
      const made = registry.make(id);
      const built = await buildBundle(workspace(starterFiles(def, made.params, made.env)));
      assert.ok(built.ok, `${id}: ${built.ok ? '' : built.diagnostics.map((d) => d.message).join('; ')}`);
      assert.deepEqual(built.diagnostics.filter((d) => d.kind === 'type').map((d) => `${d.file}:${d.line} ${d.message}`), []);
    });
  }

  it('starters play whole episodes with valid actions and beat the random policy', async () => {
    const means: Record<string, number> = {};
    for (const id of IDS) {
      const Policy = await loadStarter(id);
      const { env, params } = registry.make(id);
      let total = 0;
      const episodes = id === 'highway-v0' ? 4 : 12;
      for (let e = 0; e < episodes; e++) {
        let { observation, info } = env.reset({ seed: 100 + e });
        const policy = new Policy({ envId: id, params, seed: e });
        for (;;) {
          const r = env.step(policy.act(observation, info));
          total += r.reward;
          observation = r.observation;
          info = r.info;
          if (r.terminated || r.truncated) break;
        }
      }
      means[id] = total / episodes;
    }
    // Random-policy means over 200 episodes (src/envs/highway/README.md); every starter must beat them.
    const random: Record<string, number> = { 'highway-v0': 10.9, 'highway-fast-v0': 8.9, 'merge-v0': 7.0, 'roundabout-v0': 8.0, 'intersection-v0': 1.0, 'parking-v0': -46.8 };
    for (const id of IDS) assert.ok((means[id] as number) > (random[id] as number), `${id}: starter ${means[id]} vs random ${random[id]}`);
  });

  it('AGENTS.md explains the observation rows and columns for every driving id', () => {
    for (const id of IDS) {
      const def = registry.get(id);
      const text = agentsMd(def, { params: {}, budget: 128, poolSize: 128, actTimeoutMs: 100, episodeTimeoutMs: 10000, minEpisodesPerSubmit: 1, maxEpisodesPerSubmit: 32, maxSubmissions: 64, validationCases: 16, heldOutCases: 32 } as never);
      assert.match(text, new RegExp(`## Observation and action \\(${id}\\)`));
      assert.match(text, id === 'parking-v0' ? /desired_goal/ : /Row 0 is your vehicle/);
      if (id !== 'parking-v0') assert.match(text, /layout of the default `observation_\*` parameters/);
    }
  });

  it('policy/driving.ts decodes every row when observation_vehicles changes the row count', () => {
    const js = esbuild.transformSync(registry.get('highway-v0').workspaceFiles!['policy/driving.ts']!, { loader: 'ts', format: 'cjs' }).code;
    const mod = { exports: {} as { cars: (o: ArrayLike<number>, lanes?: number) => { present: boolean; x: number }[] } };
    new Function('module', 'exports', js)(mod, mod.exports);
    const { env } = registry.make('highway-v0', { observation_vehicles: 9 });
    const { observation } = env.reset({ seed: 4 });
    const cars = mod.exports.cars(observation as ArrayLike<number>, 4);
    assert.equal(cars.length, 9);
    assert.ok(cars.slice(5).some((c) => c.present), 'rows past the default five are decoded (50 vehicles on the road)');
  });
});
