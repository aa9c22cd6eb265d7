/**
 * Random-policy returns of the driving tasks: `npx tsx bench/highwayReturns.ts [episodes]`.
 * Each episode resets with seed = its index and acts uniformly at random (our seeded generator,
 * seed 12345) until HighwayEnv ends it; prints mean ± standard error per id.
 */
import { createRegistry } from '../src/envs';
import { Rng } from '../src/envs/core/rng';

const ids = ['highway-v0', 'highway-fast-v0', 'merge-v0', 'roundabout-v0', 'intersection-v0', 'parking-v0'];
const episodes = Number(process.argv[2] ?? 200);
const only = process.argv.slice(3);
const registry = createRegistry();

for (const id of ids) {
  if (only.length > 0 && !only.includes(id)) continue;
  const { env } = registry.make(id);
  const rng = new Rng(12345);
  const returns: number[] = [];
  let steps = 0;
  const t0 = process.hrtime.bigint();
  for (let e = 0; e < episodes; e++) {
    env.reset({ seed: e });
    let total = 0;
    for (;;) {
      const r = env.step(env.actionSpace.sample(rng));
      total += r.reward;
      steps++;
      if (r.terminated || r.truncated) break;
    }
    returns.push(total);
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
  const variance = returns.reduce((a, b) => a + (b - mean) ** 2, 0) / (returns.length - 1);
  const stderr = Math.sqrt(variance / returns.length);
  process.stdout.write(`${id.padEnd(18)} episodes ${episodes}  return ${mean.toFixed(3)} ± ${stderr.toFixed(3)} (stderr)  mean length ${(steps / episodes).toFixed(1)}  ${(steps / seconds).toFixed(0)} steps/s\n`);
}
