/**
 * Random-policy returns of the driving tasks: `npx tsx bench/highwayReturns.ts [episodes]`.
 * Each episode resets with seed = its index and acts uniformly at random (our seeded generator,
 * seed 12345) until HighwayEnv ends it; prints mean ± standard error per id.
 */
import { createRegistry } from '../src/envs';
import { randomReturns } from './randomReturns';

const ids = ['highway-v0', 'highway-fast-v0', 'merge-v0', 'roundabout-v0', 'intersection-v0', 'parking-v0'];
const episodes = Number(process.argv[2] ?? 200);
const only = process.argv.slice(3);
const registry = createRegistry();

for (const id of ids) {
  if (only.length > 0 && !only.includes(id)) continue;
  const { mean, stderr, meanLength, stepsPerSecond } = randomReturns(registry.make(id).env, episodes);
  process.stdout.write(`${id.padEnd(18)} episodes ${episodes}  return ${mean.toFixed(3)} ± ${stderr.toFixed(3)} (stderr)  mean length ${meanLength.toFixed(1)}  ${stepsPerSecond.toFixed(0)} steps/s\n`);
}
