/**
 * The sandbox's cost: 128 CartPole episodes with a linear policy through the full sandbox
 * (bundle, worker processes, a hardened vm realm per bundle with a fresh policy instance per
 * episode, observation copies, action checks)
 * next to the same episodes with the same policy class called directly in this process.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRegistry } from '../src/envs';
import { buildBundle, SandboxPool, type EpisodeSpec, type PolicyBundle } from '../src/sandbox';
import { bestOf, type BenchModule } from './harness';

const EPISODES = 128;
const WEIGHTS = [0.01, 0.1, 1.0, 0.5];

const POLICY_SOURCE = `export class Policy {
  private readonly weights = ${JSON.stringify(WEIGHTS)};
  act(observation: Float64Array): number {
    let score = 0;
    for (let i = 0; i < 4; i++) score += this.weights[i]! * observation[i]!;
    return score > 0 ? 1 : 0;
  }
}
`;

/** The same policy, compiled into this process: the no-sandbox baseline. */
class DirectPolicy {
  private readonly weights = [...WEIGHTS];
  act(observation: Float64Array): number {
    let score = 0;
    for (let i = 0; i < 4; i++) score += (this.weights[i] as number) * (observation[i] as number);
    return score > 0 ? 1 : 0;
  }
}

const specs: EpisodeSpec[] = Array.from({ length: EPISODES }, (_, i) => ({ caseIndex: i, envSeed: 1000 + i, policySeed: i }));

/** One fresh environment and policy per episode, like the sandbox; returns the steps run. */
function runDirect(): number {
  const registry = createRegistry();
  let steps = 0;
  for (const spec of specs) {
    const { env } = registry.make('CartPole-v1');
    const policy = new DirectPolicy();
    let obs = env.reset({ seed: spec.envSeed }).observation as Float64Array;
    for (;;) {
      const action = policy.act(obs);
      if (!env.actionSpace.contains(action)) throw new Error('invalid action');
      const r = env.step(action);
      steps++;
      obs = r.observation as Float64Array;
      if (r.terminated || r.truncated) break;
    }
  }
  return steps;
}

function writeWorkspace(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pf-bench-sandbox-'));
  mkdirSync(path.join(root, 'policy'));
  writeFileSync(path.join(root, 'policy', 'policy.ts'), POLICY_SOURCE);
  return root;
}

async function build(root: string): Promise<PolicyBundle> {
  const r = await buildBundle(root, { typeCheck: false });
  if (!r.ok) throw new Error(`bench policy does not build: ${r.diagnostics.map((d) => d.message).join('; ')}`);
  return r.bundle;
}

export const sandboxBench: BenchModule = {
  name: `sandbox (${EPISODES} CartPole episodes, linear policy)`,
  async run(table) {
    const root = writeWorkspace();
    try {
      let steps = runDirect();
      const directMs = await bestOf(5, () => (steps = runDirect()));
      const directEps = (EPISODES / directMs) * 1000;
      const directSteps = (steps / directMs) * 1000;
      process.stdout.write(`direct in-process: ${steps} steps in ${directMs.toFixed(1)} ms\n`);

      const bundle = await build(root);
      const cores = os.availableParallelism?.() ?? os.cpus().length;
      for (const workers of [cores, 1]) {
        const pool = new SandboxPool({ workers });
        try {
          const request = { bundle, envId: 'CartPole-v1', params: {}, episodes: specs, limits: { maxTrajectorySteps: 0 } };
          let sandboxSteps = 0;
          await pool.runBatch(request); // warm: workers started, bundle compiled
          const ms = await bestOf(5, async () => {
            sandboxSteps = (await pool.runBatch(request)).reduce((a, r) => a + r.length, 0);
          });
          if (sandboxSteps !== steps) throw new Error(`sandbox ran ${sandboxSteps} steps, direct ${steps}: not the same episodes`);
          const label = `${workers} worker${workers > 1 ? 's' : ''}`;
          table.throughput(`sandbox ${label}: episodes/s`, (EPISODES / ms) * 1000, 'eps/s', 'direct', directEps);
          table.throughput(`sandbox ${label}: steps/s`, (steps / ms) * 1000, 'steps/s', 'direct', directSteps, workers === cores ? '≤ 1.5×' : undefined);
        } finally {
          await pool.close();
        }
      }

      // Bundle to records: build + run on a warm pool, without trajectories (the target row),
      // with every step recorded (64k steps of JSON), and once more including worker start-up.
      const pool = new SandboxPool();
      try {
        const run = async (p: SandboxPool, maxTrajectorySteps: number): Promise<void> => {
          const b = await build(root);
          const records = await p.runBatch({ bundle: b, envId: 'CartPole-v1', params: {}, episodes: specs, limits: { maxTrajectorySteps } });
          if (records.length !== EPISODES) throw new Error('missing records');
        };
        await run(pool, 0);
        const warmMs = await bestOf(5, () => run(pool, 0));
        table.duration('bundle → 128 records (warm pool)', warmMs, 'ms', 'direct', directMs, `≤ 250 ms on 2 cores`);
        const trajMs = await bestOf(3, () => run(pool, 1000));
        table.duration('bundle → 128 records + full trajectories', trajMs, 'ms', 'direct', directMs);
        const coldMs = await bestOf(3, async () => {
          const fresh = new SandboxPool();
          try {
            await run(fresh, 0);
          } finally {
            await fresh.close();
          }
        });
        table.duration('bundle → 128 records (cold pool, spawn incl.)', coldMs, 'ms', 'direct', directMs);
      } finally {
        await pool.close();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
};
