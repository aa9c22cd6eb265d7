/**
 * AGENTS.md states the limits, the parallelism, the failure return, the virtual clock and the
 * trajectory files as they are: the limits come from the run config, and every field a real
 * trajectory file holds (plain, and MiniGrid's minigrid-delta/1) is named.
 */
import { strict as assert } from 'node:assert';
import * as os from 'node:os';
import { agentsMd } from '../../../src/agents/agentsMd';
import { createRegistry } from '../../../src/envs';
import { failureReturnOf } from '../../../src/envs/core/failureReturn';
import { makeRunConfig, type RunConfig } from '../../../src/runner/config';
import { buildBundle, DEFAULT_EPISODE_LIMITS } from '../../../src/sandbox';
import { runEpisode } from '../../../src/sandbox/worker/episode';
import { loadBundle } from '../../../src/sandbox/worker/loadedBundle';
import { removeWorkspaces, workspace } from '../sandbox/helpers';

const registry = createRegistry();

function configOf(envId: string, extra: Record<string, unknown> = {}): RunConfig {
  const made = makeRunConfig({ envId, params: {}, ...extra } as Parameters<typeof makeRunConfig>[0]);
  if (!made.ok) throw new Error(made.error);
  return made.config;
}

/** The header keys and the first step's keys of a real recorded trajectory of `envId`. */
async function recordedKeys(envId: string): Promise<{ header: string[]; step: string[] }> {
  const built = await buildBundle(workspace({ 'policy/policy.ts': 'export class Policy { act() { return 0; } }' }), { typeCheck: false });
  if (!built.ok) throw new Error('bundle');
  const spec = { caseIndex: 0, envSeed: 1, policySeed: 2 };
  const r = runEpisode({ envId, params: {}, spec, limits: { ...DEFAULT_EPISODE_LIMITS, recordSnapshots: true } }, registry, loadBundle(built.bundle.code), () => {});
  const step = Object.keys(JSON.parse(r.trajectory.stepsJsonl.split('\n')[0] ?? '{}') as object);
  const snapshot = r.trajectory.initialSnapshot;
  return { header: Object.keys(typeof snapshot === 'object' && snapshot !== null ? snapshot : {}), step };
}

describe('AGENTS.md', function () {
  this.timeout(60_000);
  after(removeWorkspaces);

  it('gives every limit from the run config, reset included, and how many episodes run at once', () => {
    const config = configOf('Acrobot-v1', { actTimeoutMs: 750, episodeTimeoutMs: 20_000 });
    const md = agentsMd(registry.get('Acrobot-v1'), config);
    for (const row of ["loading the policy's modules", '`new Policy(ctx)`', '`reset(observation, info)`', 'each `act(observation, info)`']) {
      assert.match(md, new RegExp(`\\| ${row.replace(/[()`]/g, '\\$&')}[^|]* \\| 750 ms \\|`), row);
    }
    assert.match(md, /\| the whole episode[^|]* \| 20000 ms \|/);
    assert.match(md, new RegExp(`\\| console output \\| ${config.maxLogBytes} characters`));
    assert.match(md, new RegExp(`the first ${config.maxTrajectorySteps} steps`));
    assert.match(md, /\| memory[^|]* \| 512 MiB of JavaScript heap, 1024 MiB resident/);
    assert.match(md, new RegExp(`Training, validation and assessment episodes all run on the runner's worker\\s+processes, one episode per worker, as many at once as there are workers \\(one per core: ${os.availableParallelism()} `));
  });

  it('states the failure return, the virtual clock and ctx.maxEpisodeSteps', () => {
    const def = registry.get('Acrobot-v1');
    const md = agentsMd(def, configOf('Acrobot-v1'));
    assert.equal(failureReturnOf(def, {}), -500);
    assert.match(md, /scores this environment's failure\s+return, \*\*-500\*\*/);
    assert.match(md, /advance 0\.01 ms per read/);
    assert.match(md, /runs a fixed number of rounds \(500\)/);
    assert.match(md, /`ctx\.maxEpisodeSteps` is the most steps the episode can take/);
  });

  it('says the last submit warns (and asks at a terminal), how to choose candidates instead, and that the end shows its progress', () => {
    const md = agentsMd(registry.get('CartPole-v1'), configOf('CartPole-v1'));
    assert.match(md, /The submit that would spend the last of the budget says so before it runs[^]*at a terminal it asks first \(`--yes` answers for you\)/);
    assert.match(md, /run `[^`]*policyforge[^`]* finish --candidates …` instead and leave those\s+episodes unspent/);
    assert.match(md, /`finish`\s+\(and the submit that spends the last of the budget\) prints its progress \(candidates and episodes\s+done\), and `status` and `report` say what it is doing/);
  });

  it('names every field of a plain trajectory file', async () => {
    const md = agentsMd(registry.get('CartPole-v1'), configOf('CartPole-v1'));
    const { step } = await recordedKeys('CartPole-v1');
    assert.deepEqual(step.filter((k) => !md.includes(`\`${k}\``)), []);
    assert.doesNotMatch(md, /minigrid-delta/);
    for (const k of ['caseIndex', 'status', 'trajectoryTruncated', 'initialSnapshot']) assert.ok(md.includes(`\`${k}\``), k);
  });

  it("names every field of MiniGrid's minigrid-delta/1 files, and the grid's column order", async () => {
    const id = 'MiniGrid-DoorKey-5x5-v0';
    const md = agentsMd(registry.get(id), configOf(id));
    assert.match(md, /"format": "minigrid-delta\/1"/);
    assert.match(md, /cell \(x, y\) starts at index \(x × height \+ y\) × 3/);
    const { header, step } = await recordedKeys(id);
    assert.ok(step.includes('agent') && !step.includes('observation'));
    assert.deepEqual(step.filter((k) => !md.includes(`\`${k}\``)), []);
    for (const k of ['width', 'height', 'grid', 'agent', 'carrying', 'mission', 'maxSteps', 'view']) {
      assert.ok(header.includes(k), `the snapshot has ${k}`);
      assert.ok(md.includes(k), k);
    }
    // The grid really is column by column: every cell (x, y) is at (x * height + y) * 3.
    const made = registry.make('MiniGrid-DoorKey-8x8-v0');
    made.env.reset({ seed: 4 });
    const snap = made.env.snapshot?.() as { grid: string; width: number; height: number };
    const world = made.env.inner as unknown as { encodingAt(x: number, y: number): number };
    for (let x = 0; x < snap.width; x++) {
      for (let y = 0; y < snap.height; y++) {
        const k = (x * snap.height + y) * 3;
        const enc = world.encodingAt(x, y);
        assert.deepEqual([...snap.grid.slice(k, k + 3)].map(Number), [enc & 255, (enc >> 8) & 255, (enc >> 16) & 255], `cell ${x},${y}`);
      }
    }
  });
});
