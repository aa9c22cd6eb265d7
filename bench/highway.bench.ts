/**
 * Driving-task step throughput with a uniform random policy, through the full environment
 * contract (registry, episode wrapper, resets). The reference is HighwayEnv itself, measured in
 * the same run when `python3 -c "import highway_env"` works (same ids, same random policy,
 * default configurations); otherwise that side is skipped with a note and the row compares with
 * CartPole-v1's env.step measured here.
 */
import { createRegistry } from '../src/envs';
import { Rng } from '../src/envs/core/rng';
import { gymnasiumRates } from './gymnasiumRates';
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

export const highwayBench: BenchModule = {
  name: 'highway (driving tasks, random policy, steps/s, one core)',
  async run(table) {
    const python = gymnasiumRates(['highway_env'], IDS, 'HighwayEnv');
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
