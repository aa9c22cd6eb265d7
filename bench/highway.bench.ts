/**
 * Driving-task step throughput with a uniform random policy, through the full environment
 * contract (registry, episode wrapper, resets). The reference is HighwayEnv itself, measured in
 * the same run when `python3 -c "import highway_env"` works (same ids, same random policy,
 * default configurations); otherwise that side is skipped with a note and the row compares with
 * CartPole-v1's env.step measured here.
 */
import { execFileSync } from 'node:child_process';
import { createRegistry } from '../src/envs';
import { Rng } from '../src/envs/core/rng';
import { opsPerSecond, type BenchModule } from './harness';

const IDS = ['highway-v0', 'highway-fast-v0', 'merge-v0', 'roundabout-v0', 'intersection-v0', 'parking-v0'];

function randomPolicyLoop(id: string): (n: number) => number {
  const { env } = createRegistry().make(id);
  const rng = new Rng(7);
  let episode = 1;
  env.reset({ seed: episode });
  return (n) => {
    for (let i = 0; i < n; i++) {
      const r = env.step(env.actionSpace.sample(rng));
      if (r.terminated || r.truncated) env.reset({ seed: ++episode });
    }
    return n;
  };
}

function cartPoleRate(): number {
  const { env } = createRegistry().make('CartPole-v1');
  env.reset({ seed: 1 });
  let episode = 1;
  return opsPerSecond((n) => {
    for (let i = 0; i < n; i++) {
      const r = env.step(i & 1);
      if (r.terminated || r.truncated) env.reset({ seed: ++episode });
    }
    return n;
  }, 200_000);
}

const PYTHON_PROBE = `
import sys, time, json
import gymnasium as gym, highway_env  # noqa: F401
out = {}
for env_id in sys.argv[1:]:
    env = gym.make(env_id)
    env.reset(seed=1)
    env.action_space.seed(7)
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < 3.0:
        _, _, term, trunc, _ = env.step(env.action_space.sample())
        steps += 1
        if term or trunc:
            env.reset()
    out[env_id] = steps / (time.perf_counter() - t0)
print(json.dumps(out))
`;

/** HighwayEnv's steps/s per id, or why it could not be measured. */
function pythonRates(): Record<string, number> | string {
  try {
    execFileSync('python3', ['-c', 'import highway_env, gymnasium'], { stdio: 'pipe', timeout: 60_000 });
  } catch {
    return 'python3 cannot import highway_env and gymnasium here';
  }
  try {
    return JSON.parse(execFileSync('python3', ['-c', PYTHON_PROBE, ...IDS], { encoding: 'utf8', timeout: 300_000 })) as Record<string, number>;
  } catch (e) {
    return `the HighwayEnv measurement failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
  }
}

export const highwayBench: BenchModule = {
  name: 'highway (driving tasks, random policy, steps/s, one core)',
  async run(table) {
    const python = pythonRates();
    const cartPole = typeof python === 'string' ? cartPoleRate() : 0;
    if (typeof python === 'string') process.stdout.write(`HighwayEnv side skipped: ${python}; rows compare with CartPole-v1 env.step (same run)\n`);
    for (const id of IDS) {
      const rate = opsPerSecond(randomPolicyLoop(id), id === 'parking-v0' ? 20_000 : 500, 1500);
      if (typeof python === 'string') table.throughput(`${id} random policy`, rate, 'steps/s', 'CartPole-v1 env.step (same run)', cartPole);
      // Reversed row: the ratio reads as "how many times faster than HighwayEnv".
      else table.throughput(`HighwayEnv 1.12 ${id} (same run)`, python[id] ?? NaN, 'steps/s', 'ours', rate, '≥ 100×');
    }
  },
};
